"""Every level takes a win in one and stops the next seat's win in one when a move can
(issue 37): positions found in random games of each game (a win in one for the mover; and
positions where most moves hand the opponent a win in one, but not all), and Boost's tower
of its rules tests with the fourth dragon one step away, as diagrams in
blocking_positions.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ai
from ai.base import Budget, Limit
from ai.reference import hands_over_a_win
from rules import get_game

NODES = {1: 40, 2: 300, 3: 600}  # level 1's own cap; the others by nodes, to repeat

POSITIONS = json.loads((Path(__file__).parent / "blocking_positions.json").read_text())
WINS: dict[str, list[str]] = POSITIONS["wins"]
BLOCKS: dict[str, list[str]] = POSITIONS["blocks"]


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", list(WINS))
def test_every_level_takes_a_win_in_one(name: str, level: int) -> None:
    game = get_game(name)
    for diagram in WINS[name]:
        state = game.parse_diagram(diagram)
        move = ai.choose(name, state, level=level, seed=1, nodes=NODES[level]).move
        outcome = game.outcome(game.apply(state, move))
        assert outcome is not None and outcome.winners == (game.to_move(state),)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", list(BLOCKS))
def test_every_level_stops_a_win_in_one(name: str, level: int) -> None:
    game = get_game(name)
    budget = Budget(Limit(nodes=1))
    for diagram in BLOCKS[name]:
        state = game.parse_diagram(diagram)
        handing = [
            m
            for m in game.legal_moves(state)
            if hands_over_a_win(game, game.apply(state, m), budget)
        ]
        assert len(game.legal_moves(state)) // 2 < len(handing) < len(game.legal_moves(state))
        move = ai.choose(name, state, level=level, seed=1, nodes=NODES[level]).move
        assert move not in handing
