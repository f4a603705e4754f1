"""What a Quorum turn did and how the game stands, in the words of a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.notation import square_name
from rules.phrases import counted, join_clauses, join_words, owned_pieces
from rules.quorum.board import EMPTY, HOMES, NAMES, POINTS, STONE, Jump, Place
from rules.quorum.notation import format_move
from rules.quorum.state import QuorumState
from rules.state import next_seat


def seat_words(state: QuorumState, seat: int) -> str:
    """What one seat has on the board: `12 stones`."""
    return counted(state.board.count(STONE[seat]), "stone")


def describe_move(
    state: QuorumState, move: Jump | Place, after: QuorumState, whose: Callable[[int], str]
) -> str:
    """`a1c3, taking bob's stone on d4 and turning d3`; `whose(seat)` names a player."""
    notation = format_move(move)
    if isinstance(move, Place):
        filled = [
            NAMES[h]
            for h in sorted(HOMES[state.turn], key=POINTS.__getitem__)
            if state.board[h] == EMPTY
        ]
        stones = "a stone" if len(filled) == 1 else "stones"
        return f"{notation}, adding {stones} on {join_words(filled)}"
    last = after.last
    assert last is not None
    events = []
    if last.captured:
        owner = whose(next_seat(state.turn, 2))
        taken = [square_name(p) for p in sorted(last.captured)]
        events.append(f"taking {owned_pieces(owner, 'stone', taken)}")
    if last.changed:
        events.append(f"turning {join_words([square_name(p) for p in sorted(last.changed)])}")
    return f"{notation}, {join_clauses(events)}" if events else notation
