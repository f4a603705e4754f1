"""Every level takes a win in one and stops the next seat's win in one when a move can
(issue 37): positions found in random games of each game (a win in one for the mover; and
positions where most moves hand the opponent a win in one, but not all), and Boost's tower
of its rules tests with the fourth dragon one step away, as diagrams in
blocking_positions.json; and every level stops Boku's open three and Boost's tower in the
making (ai/threats.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ai
from ai.base import Budget, Choice, Limit
from ai.reference import hands_over_a_win
from ai.threats import boku_forcing, boost_forcing
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


def boku(moves: str) -> Any:
    game = get_game("boku")
    state = game.new()
    for text in moves.split():
        state = game.apply(state, game.parse_move(state, text))
    return state


def test_an_open_three_is_a_threat_that_wins_by_force_and_a_closed_one_is_not() -> None:
    assert boku_forcing(boku("e4 a1 e5 j10 e6 a2"))  # alice to move: e3 or e7 makes two fives
    assert not boku_forcing(boku("e4 e7 e5 j10 e6 a2"))  # e7 closes it: one five at a time
    assert not boku_forcing(boku("e4 a1 e5 j10 a3 a2"))  # a two is no threat yet


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_stops_an_open_three(level: int) -> None:
    game = get_game("boku")
    state = boku("e4 a1 e5 j10 e6")
    move = ai.choose("boku", state, level=level, seed=1, nodes=NODES[level]).move
    assert not boku_forcing(game.apply(state, move))
    far = game.parse_move(state, "a2")  # what a search that missed the three might play
    checked = ai.blocking(game, state, Choice(far), Limit(nodes=1), boku_forcing)
    assert checked.move != far and not boku_forcing(game.apply(state, checked.move))
    assert ai.blocking(game, state, Choice(far), Limit(nodes=1)).move == far, "a win in one only"


# Seat 2's tower e5 has dragons d5 and f5; its dragons e2 and e8, each with two steps (a pawn
# beside it), reach e4 and e6: moving one makes three and the other fills the fourth next turn.
TOWER_IN_THE_MAKING = """\
. . . . . . . . .
. . . P D . . . .
. . . . . . . . .
. . . . . . . . .
. . . D T D . . .
. . . . . . . . .
. . . . . . . . .
. . . P D . . . .
p p p p . . . . .
to move: {seat}"""


def test_a_tower_in_the_making_is_a_threat_that_wins_by_force() -> None:
    game = get_game("boost")
    assert boost_forcing(game.parse_diagram(TOWER_IN_THE_MAKING.format(seat=2)))
    assert not boost_forcing(game.parse_diagram(TOWER_IN_THE_MAKING.format(seat=1)))
    blocked = TOWER_IN_THE_MAKING.replace("p p p p .", "p p p p p")
    assert not boost_forcing(game.parse_diagram(blocked.format(seat=2))), "e2 has three steps"
    one_dragon = TOWER_IN_THE_MAKING.replace("D T D", ". T D")
    assert not boost_forcing(game.parse_diagram(one_dragon.format(seat=2))), "two moves short"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_stops_a_tower_in_the_making(level: int) -> None:
    game = get_game("boost")
    state = game.parse_diagram(TOWER_IN_THE_MAKING.format(seat=1))
    leaving = [m for m in game.legal_moves(state) if boost_forcing(game.apply(state, m))]
    assert 0 < len(leaving) < len(game.legal_moves(state))
    move = ai.choose("boost", state, level=level, seed=1, nodes=NODES[level]).move
    assert move not in leaving
    far = game.parse_move(state, "a1a3")  # what a search that missed the tower might play
    checked = ai.blocking(game, state, Choice(far), Limit(nodes=1), boost_forcing)
    assert checked.move not in leaving
    assert ai.blocking(game, state, Choice(far), Limit(nodes=1)).move == far, "a win in one only"
