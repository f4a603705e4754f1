"""The shared random-play helpers: a random move found without a complete listing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import GAMES, get_game
from rules.playout import random_move, random_states


@pytest.mark.parametrize("name", list(GAMES))
def test_a_random_move_is_legal_in_positions_of_every_game(name: str) -> None:
    game = get_game(name)
    rng = random.Random(7)
    bound = 12 if name == "kyo" else 60
    for state in random_states(game, rng, bound=bound):
        if game.outcome(state) is None:
            assert game.is_legal(state, random_move(game, state, rng))


def test_a_random_kyo_move_never_lists_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    kyo = get_game("kyo")
    state = kyo.new()

    def listing(*_: Any) -> Any:
        raise AssertionError("a complete listing was asked for")

    monkeypatch.setattr(type(kyo), "legal_moves", listing)
    moves = {random_move(kyo, state, random.Random(seed)) for seed in range(20)}
    assert len(moves) > 1, "the walk reaches different turns"
