"""What a Boku turn did and how the game stands, for a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.boku.board import NAMES, Place
from rules.boku.notation import format_move
from rules.boku.state import BokuState
from rules.phrases import Phrase, Words, counted, owned, phrase, placed


def seat_words(state: BokuState, seat: int, where: bool = False) -> Phrase:
    """What one seat has on the board: `12 marbles`, or `where` they stand: `marbles on e5`."""
    if where:
        squares = [NAMES[i] for i, marble in enumerate(state.board) if marble == str(seat)]
        return placed("rules.where.marbles", "rules.count.no_marbles", squares)
    return counted(state.board.count(str(seat)), "rules.count.marbles", "rules.count.no_marbles")


def describe_move(state: BokuState, move: Place, whose: Callable[[int], Words]) -> Words:
    """`d3xb3, taking bob's marble on b3`; `whose(seat)` names a player."""
    if move.removed is None:
        return format_move(move)
    taken = owned("rules.owned.marbles", whose(3 - state.turn), [NAMES[move.removed]])
    return phrase(
        "rules.move.did", move=format_move(move), what=phrase("rules.move.taking", pieces=taken)
    )
