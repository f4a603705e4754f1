"""What a Razzle Dazzle turn did and how the game stands, for a move's post."""

from __future__ import annotations

from collections.abc import Callable

from rules.phrases import Phrase, Words, chained, counted, phrase, placed
from rules.razzle.board import BALL, NAMES, PIECE, Chain, Knight, RazzleMove
from rules.razzle.notation import format_move
from rules.razzle.state import RazzleState


def seat_words(state: RazzleState, seat: int, where: bool = False) -> Phrase:
    """What one seat has on the board: `6 pieces, the ball on d1`, or `where` the pieces
    stand: `pieces on b1, c1, d1, e1 and f1, the ball on d1`."""
    if where:
        mine = (PIECE[seat], BALL[seat])
        squares = [NAMES[i] for i, piece in enumerate(state.board) if piece in mine]
        pieces = placed("rules.where.pieces", "rules.count.no_pieces", squares)
    else:
        count = state.board.count(PIECE[seat]) + 1
        pieces = counted(count, "rules.count.pieces", "rules.count.no_pieces")
    ball = NAMES[state.board.index(BALL[seat])]
    return phrase("rules.razzle.has", pieces=pieces, ball=ball)


def describe_move(
    move: Knight | Chain,
    after: RazzleState,
    legal_moves: Callable[[RazzleState], tuple[RazzleMove, ...]],
    whose: Callable[[int], Words],
) -> Words:
    """`c6-e7, landing next to bob's ball, so they must throw`; `whose(seat)` names a player."""
    notation = format_move(move)
    if isinstance(move, Chain):
        route = _route([NAMES[square] for square in move.path[1:]])
        return phrase("rules.razzle.thrown", move=notation, route=route)
    if after.forced and after.result is None:
        opponent = whose(after.turn)
        if isinstance(legal_moves(after)[0], Chain):
            return phrase("rules.razzle.forcing", move=notation, opponent=opponent)
        return phrase("rules.razzle.landing", move=notation, opponent=opponent)
    return notation


def _route(squares: list[str]) -> Words:
    """`e1`, `c1 and then b1`, `e1, e5 and then c3`: where the ball went."""
    if len(squares) == 1:
        return squares[0]
    hops = chained(squares[:-1], "rules.list.comma")
    return phrase("rules.razzle.then", hops=hops, last=squares[-1])
