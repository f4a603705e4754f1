"""What a Quorum turn did and how the game stands, for a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.notation import square_name
from rules.phrases import Phrase, Words, clauses, counted, listed, owned, phrase, placed
from rules.quorum.board import EMPTY, HOMES, NAMES, POINTS, STONE, Jump, Place
from rules.quorum.notation import format_move
from rules.quorum.state import QuorumState
from rules.state import next_seat


def seat_words(state: QuorumState, seat: int, where: bool = False) -> Phrase:
    """What one seat has on the board: `12 stones`, or `where` they stand: `stones on a1`."""
    if where:
        squares = [NAMES[i] for i, stone in enumerate(state.board) if stone == STONE[seat]]
        return placed("rules.where.stones", "rules.count.no_stones", squares)
    return counted(state.board.count(STONE[seat]), "rules.count.stones", "rules.count.no_stones")


def describe_move(
    state: QuorumState, move: Jump | Place, after: QuorumState, whose: Callable[[int], Words]
) -> Words:
    """`a1c3, taking bob's stone on d4 and turning d3`; `whose(seat)` names a player."""
    notation = format_move(move)
    if isinstance(move, Place):
        filled = [
            NAMES[h]
            for h in sorted(HOMES[state.turn], key=POINTS.__getitem__)
            if state.board[h] == EMPTY
        ]
        return phrase(
            "rules.quorum.placed", move=notation, squares=listed(filled), count=len(filled)
        )
    last = after.last
    assert last is not None
    events: list[Words] = []
    if last.captured:
        owner = whose(next_seat(state.turn, 2))
        taken = [square_name(p) for p in sorted(last.captured)]
        events.append(phrase("rules.move.taking", pieces=owned("rules.owned.stones", owner, taken)))
    if last.changed:
        turned = listed([square_name(p) for p in sorted(last.changed)])
        events.append(phrase("rules.quorum.turning", squares=turned))
    return phrase("rules.move.did", move=notation, what=clauses(events)) if events else notation
