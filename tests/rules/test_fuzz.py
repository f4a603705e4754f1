"""Whatever a player types, parsing and playing either work or raise RulesError, and a
rejected input leaves the position as it was (issue 12's probing, kept in the suite)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GAMES, RulesError, get_game
from rules.playout import random_move

# Text shaped like moves (squares, dashes, digits, separators) and anything at all.
MOVE_ALPHABET = "abcdefghijklmnopqrstxXpP0123456789-:,*+ \t"
TEXTS = st.one_of(
    st.text(alphabet=MOVE_ALPHABET, max_size=40),
    st.text(max_size=40),
    st.from_regex(r"[a-k](1[0-2]|[1-9]|0|\d{5,6000})([-x:]?[a-k]\d{1,3}){0,4}", fullmatch=True),
    st.from_regex(r"[a-j]\d{1,2}:\d{1,6000}(-[a-j]\d{1,2})?", fullmatch=True),  # Kyo slices
)


@cache
def positions(name: str) -> tuple[Any, ...]:
    """A few positions from one seeded random game of up to 60 plies: the start, the middle and
    the end. Its turns are found by walking the move tree, since listing every turn of sixty
    Kyo positions took some 40 s of CPU."""
    game = get_game(name)
    rng = random.Random(f"fuzz:{name}")
    states = [game.new(seed=rng.randrange(1 << 30))]
    while game.outcome(states[-1]) is None and game.ply(states[-1]) < 60:
        states.append(game.apply(states[-1], random_move(game, states[-1], rng), check=False))
    return (states[0], states[len(states) // 2], states[-1])


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, which=st.integers(0, 2))
def test_typed_text_is_a_legal_move_or_a_rules_error(name: str, text: str, which: int) -> None:
    game = get_game(name)
    state = positions(name)[which]
    before = game.dump(state)
    try:
        move = game.parse_move(state, text)
    except RulesError:
        assert game.dump(state) == before, "a rejected input changed the position"
        return
    assert move in game.legal_moves(state)
    after = game.apply(state, move)
    assert game.dump(state) == before and game.ply(after) == game.ply(state) + 1


@pytest.mark.parametrize("name", list(GAMES))
def test_a_move_of_another_position_is_refused_without_change(name: str) -> None:
    """apply() checks what it is handed: a move legal elsewhere raises IllegalMove only."""
    game = get_game(name)
    start, middle, _ = positions(name)
    before = game.dump(middle)
    foreign = [m for m in game.legal_moves(start) if m not in game.legal_moves(middle)]
    for move in foreign[:20]:
        with pytest.raises(RulesError):
            game.apply(middle, move)
    assert game.dump(middle) == before
