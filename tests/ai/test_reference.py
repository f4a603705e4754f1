"""The one-ply reference player: it takes a win in one and never hands one over when it has
a safe move."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ai
from ai.base import Budget, Limit
from ai.reference import hands_over_a_win, winning_move
from rules import get_game
from rules.playout import random_states


def risky_positions(name: str, count: int) -> list[tuple[Any, list[Any]]]:
    """Positions from the ends of random games (where wins are near) in which some moves hand
    the opponent a win in one and others do not, with the safe moves."""
    game = get_game(name)
    rng = random.Random(5)
    found: list[tuple[Any, list[Any]]] = []
    budget = Budget(Limit(seconds=600.0))
    while len(found) < count:
        for state in list(random_states(game, rng))[-12:]:
            moves = game.legal_moves(state) if game.outcome(state) is None else ()
            if not moves or winning_move(game, state, moves) is not None:
                continue
            safe = [m for m in moves if not hands_over_a_win(game, game.apply(state, m), budget)]
            if 0 < len(safe) < len(moves):
                found.append((state, safe))
                break
    return found


@pytest.mark.parametrize("name", ["quorum", "razzle"])
def test_never_hands_over_a_win_in_one(name: str) -> None:
    for index, (state, safe) in enumerate(risky_positions(name, 2)):
        assert ai.reference(name, state, seed=index).move in safe


def test_a_reference_choice_judges_each_seat() -> None:
    state = get_game("boost").new(players=3)
    chances = ai.reference("boost", state, seed=1).info["chances"]
    assert len(chances) == 3 and sum(chances) == pytest.approx(1.0)
