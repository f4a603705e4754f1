"""The transposition table's key holds everything that decides a position's moves: two
positions on the same board with different moves must not share a table entry."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import ai
from rules import get_game
from rules.playout import random_states


def moves(name: str, state: Any) -> set[str]:
    return set(map(str, get_game(name).legal_moves(state)))


def twin_positions(name: str, field: str, cleared: Any) -> tuple[Any, Any]:
    """From seeded random games, a position whose `field` is set and the same position with
    it cleared, when that changes the legal moves."""
    game = get_game(name)
    rng = random.Random(7)
    for _ in range(50):
        for state in random_states(game, rng, game.new(seed=rng.randrange(1000))):
            if getattr(state, field) and game.outcome(state) is None:
                other = dataclasses.replace(state, **{field: cleared})
                if moves(name, state) != moves(name, other):
                    return state, other
    raise AssertionError(f"no {name} position whose {field} changes its moves")


@pytest.mark.parametrize(
    ("name", "field", "cleared"),
    [("razzle", "ineligible", frozenset()), ("razzle", "forced", False), ("boku", "blocked", None)],
)
def test_positions_with_other_moves_have_other_keys(name: str, field: str, cleared: Any) -> None:
    state, other = twin_positions(name, field, cleared)
    evaluator = ai.EVALUATORS[name]
    assert evaluator.key(state) != evaluator.key(other)
