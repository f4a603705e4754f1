"""The computer plays each Kyo turn its shortest way (issue 41): a route that drops and lifts
chips round a loop only when no shorter turn does as much.

Turns that leave the same position but for where the mover's own mana lies do as much: the
evaluation counts mana, not where it stands, so the search cannot tell them apart, and it
used to play whichever it met first after shuffling, often a loop. These positions come from
seeded games of the computer against itself, where it played the turn named, though a turn
of a few tokens left the same position up to its own mana."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ai
from ai.kyo import Alike
from rules import get_game
from rules.kyo import Turn
from rules.kyo.board import SIDES

KYO = get_game("kyo")

# Each position by name: its diagram's lines and the turn the computer played there.
LOOPED: dict[str, Any] = json.loads(
    Path(__file__).with_name("looped_turns.json").read_text(encoding="utf-8")
)["positions"]


def kind(board: tuple[str, ...], seat: int) -> tuple[str, ...]:
    """The position with the mover's own mana taken out."""
    mana = str.maketrans("", "", SIDES[seat].mana)
    return tuple(stack.translate(mana) for stack in board)


def revisits(state: Any, move: Turn) -> bool:
    """Whether the turn's route comes back to a tile it has left."""
    last = KYO.last(KYO.apply(state, move))
    assert last is not None
    return len(set(last.path)) < len(last.path)


@pytest.mark.parametrize("name", list(LOOPED))
def test_the_computer_plays_no_loop_a_shorter_turn_matches(name: str) -> None:
    """No turn with fewer tokens leaves the same position, or the same up to the mover's
    own mana, as the computer's turn; in these positions it no longer plays the loop."""
    state = KYO.parse_diagram("\n".join(LOOPED[name]["diagram"]))
    played = KYO.parse_move(state, LOOPED[name]["played"])
    assert isinstance(played, Turn) and revisits(state, played)
    move = ai.choose_move("kyo", state, level=2, seed=1, nodes=400)
    assert isinstance(move, Turn)
    wanted = kind(move.board, state.turn)
    shorter = [
        str(turn)
        for turn in KYO.move_tree(state).moves(breadth_first=True)
        if isinstance(turn, Turn)
        and len(turn.tokens) < len(move.tokens)
        and kind(turn.board, state.turn) == wanted
    ]
    assert shorter == [], str(move)
    assert not revisits(state, move), str(move)


def test_of_each_kind_the_first_listed_turn_stands_for_all() -> None:
    """The listing gives the fewest tokens first: of each kind, its first turn is kept."""
    state = KYO.parse_diagram("\n".join(LOOPED["seed 2, ply 7 (the issue's)"]["diagram"]))
    listed: list[Any] = list(KYO.move_tree(state).moves(breadth_first=True))
    assert all(isinstance(turn, Turn) for turn in listed)
    kept = set(Alike(state.board, SIDES[state.turn]).shortest(listed).values())
    first: dict[tuple[str, ...], Turn] = {}
    for turn in listed:
        first.setdefault(kind(turn.board, state.turn), turn)
    assert kept == set(first.values())
    assert len(kept) < len(listed)
    for turn in listed:
        assert len(first[kind(turn.board, state.turn)].tokens) <= len(turn.tokens)
