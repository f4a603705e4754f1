"""The trusted path (`apply(..., check=False)`) and the checked `apply` reach the same states.

Engines may speed up the trusted path as they like (no regeneration, shared caches); these
properties hold them to the checked path over random games of every game, setup and seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES
from rules.game import Game
from rules.playout import PLY_BOUND, random_turns

# Kyo's move generation takes milliseconds a turn: its games are cut short to keep this quick.
PLIES = {"kyo": 12}


def setups(game: Game[Any, Any]) -> list[tuple[str, int]]:
    """Every (variant, player count) the game offers."""
    return [(name, n) for name, v in game.variants.items() for n in v.player_counts]


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_trusted_and_checked_apply_give_identical_states(
    game: Game[Any, Any], data: st.DataObject
) -> None:
    variant, players = data.draw(st.sampled_from(setups(game)), label="setup")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    start = game.new(players=players, variant=variant, seed=seed)
    bound = PLIES.get(game.name, PLY_BOUND)
    for before, move, trusted in random_turns(game, random.Random(seed), start, bound):
        checked = game.apply(before, move)
        assert game.dump(trusted) == game.dump(checked), game.format_move(before, move)
        assert trusted == checked
