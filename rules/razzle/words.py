"""What a Razzle Dazzle turn did and how the game stands, in the words of a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.phrases import counted
from rules.razzle.board import BALL, NAMES, PIECE, Chain, Knight, RazzleMove
from rules.razzle.notation import format_move
from rules.razzle.state import RazzleState


def seat_words(state: RazzleState, seat: int) -> str:
    """What one seat has on the board: `6 pieces, the ball on d1`."""
    ball = NAMES[state.board.index(BALL[seat])]
    return f"{counted(state.board.count(PIECE[seat]) + 1, 'piece')}, the ball on {ball}"


def describe_move(
    move: Knight | Chain,
    after: RazzleState,
    legal_moves: Callable[[RazzleState], tuple[RazzleMove, ...]],
    whose: Callable[[int], str],
) -> str:
    """`c6-e7, landing next to bob's ball, so bob must throw`; `whose(seat)` names a player."""
    notation = format_move(move)
    if isinstance(move, Chain):
        *hops, last = [NAMES[square] for square in move.path[1:]]
        route = f"{', '.join(hops)} and then {last}" if hops else last
        return f"{notation}, throwing the ball to {route}"
    if after.forced and after.result is None:
        opponent = whose(after.turn)
        landing = f"{notation}, landing next to {opponent}'s ball"
        if isinstance(legal_moves(after)[0], Chain):
            return f"{landing}, so {opponent} must throw"
        return landing
    return notation
