"""Why typed text is not a legal Quorum move, in a player's words: what is wrong, and what
the rule wants instead."""

from __future__ import annotations

from collections.abc import Callable

from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.notation import parse_square, split_squares
from rules.quorum.board import BOARD, EMPTY, HOMES, NAMES, POINTS, SEAT_NAMES, SIZE, STONE
from rules.quorum.notation import normalize
from rules.quorum.state import QuorumState
from rules.state import next_seat


def refusal(state: QuorumState, text: str, whose: Callable[[int], str]) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player."""
    cleaned = normalize(text)
    seat = state.turn
    if cleaned == "place":
        homes = " ".join(NAMES[h] for h in HOMES[seat])
        return IllegalMove(f"your home squares ({homes}) are all full, so you cannot place")
    if cleaned == "pass":
        return IllegalMove("you can only pass when you have no jump and cannot place")
    squares = split_squares(text)
    if len(squares) != 2 or "".join(squares) != cleaned:
        return InvalidMove(
            f"{text.strip()!r} is not a Quorum move: write the moving stone's square and "
            "the target square (like a1e3), or 'place'"
        )
    try:
        active, target = (BOARD.index(parse_square(s, SIZE, SIZE)) for s in squares)
    except RulesError as error:
        return error
    return _why_illegal(state, active, target, whose)


def _why_illegal(
    state: QuorumState, active: int, target: int, whose: Callable[[int], str]
) -> RulesError:
    mine = STONE[state.turn]
    board = state.board
    you = SEAT_NAMES[state.turn - 1]
    opponent = whose(next_seat(state.turn, 2))
    if board[active] == EMPTY:
        return IllegalMove(f"{NAMES[active]} has no stone")
    if board[active] != mine:
        return IllegalMove(f"{NAMES[active]} holds {opponent}'s stone, not yours (you play {you})")
    if active == target:
        return IllegalMove("the stone has to land somewhere else")
    (af, ar), (tf, tr) = POINTS[active], POINTS[target]
    if (af + tf) % 2 or (ar + tr) % 2:
        return IllegalMove(
            f"no square lies exactly halfway between {NAMES[active]} and {NAMES[target]}, "
            "so there is no center stone to jump over"
        )
    center = BOARD.index(((af + tf) // 2, (ar + tr) // 2))
    cf, cr = POINTS[center]
    if abs(cf - af) > 2 or abs(cr - ar) > 2:
        return IllegalMove(
            f"the center {NAMES[center]} is too far from {NAMES[active]}: it may be at most "
            "2 files and 2 ranks away"
        )
    if board[center] == EMPTY:
        return IllegalMove(f"there is no stone on {NAMES[center]} to jump over")
    if board[center] != mine:
        return IllegalMove(
            f"the center stone on {NAMES[center]} is {opponent}'s: jump over one of yours"
        )
    if board[target] != EMPTY:
        return IllegalMove(f"the target {NAMES[target]} is occupied")
    return IllegalMove(f"{NAMES[active]}{NAMES[target]} is not legal here")
