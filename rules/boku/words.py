"""What a Boku turn did and how the game stands, in the words of a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.boku.board import NAMES, Place
from rules.boku.notation import format_move
from rules.boku.state import BokuState
from rules.phrases import counted, owned_pieces


def seat_words(state: BokuState, seat: int) -> str:
    """What one seat has on the board: `12 stones`."""
    return counted(state.board.count(str(seat)), "stone")


def describe_move(state: BokuState, move: Place, whose: Callable[[int], str]) -> str:
    """`d3xb3, taking bob's marble on b3`; `whose(seat)` names a player."""
    if move.removed is None:
        return format_move(move)
    taken = owned_pieces(whose(3 - state.turn), "marble", [NAMES[move.removed]])
    return f"{format_move(move)}, taking {taken}"
