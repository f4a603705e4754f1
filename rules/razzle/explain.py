"""Why typed text is not a legal Razzle Dazzle move, in a player's words: what is wrong,
and what the rule wants instead."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.notation import parse_square
from rules.razzle.board import (
    BALL,
    BOARD,
    EMPTY,
    GOAL_RANK,
    HEIGHT,
    NAMES,
    PIECE,
    WIDTH,
    ball_square,
    is_knight_step,
    squares_between,
)
from rules.razzle.notation import broken_at, joined_path, read_segments
from rules.razzle.state import RazzleState


def refusal(
    state: RazzleState, text: str, whose: Callable[[int], str], example: Callable[[], str]
) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player and
    `example()` is a legal move."""
    try:
        segments = read_segments(text)
        if segments == [["pass"]]:
            return IllegalMove(
                "you can only pass when you have no knight move and no throw of the ball"
            )
        squares = joined_path(segments)
        path = [BOARD.index(parse_square(s, WIDTH, HEIGHT)) for s in squares]
    except RulesError as error:
        return error
    broken = broken_at(segments)
    if broken is not None:
        return _why_broken(state, segments, broken)
    if len(path) < 2:
        return InvalidMove(
            f"{text.strip()} alone is not a turn: name where the piece jumps (b1-c3) or "
            "where the ball goes (d1-e1)"
        )
    seat = state.turn
    board = state.board
    start = path[0]
    cell = board[start]
    holder = ball_square(board, seat)
    opponent = whose(3 - seat)
    if cell == EMPTY:
        return IllegalMove(f"{NAMES[start]} is empty")
    if cell in (PIECE[3 - seat], BALL[3 - seat]):
        return IllegalMove(f"the piece on {NAMES[start]} is {opponent}'s, not yours")
    if cell == PIECE[seat]:
        return _why_not_knight(state, path, holder, opponent, example)
    if len(path) == 2 and is_knight_step(start, path[1]):
        return IllegalMove(
            f"the piece on {NAMES[start]} holds the ball and cannot move; throw the ball "
            "or move another piece"
        )
    return _why_not_chain(state, path, opponent)


def _why_broken(state: RazzleState, segments: list[list[str]], broken: int) -> RulesError:
    """Step form whose throws do not connect: a move mixed with throws, or a slip."""
    piece = PIECE[state.turn]
    if any(state.board[BOARD.index(parse_square(s[0], WIDTH, HEIGHT))] == piece for s in segments):
        return IllegalMove(
            "a turn is either one knight move or a chain of throws, never both: a knight "
            "move ends the turn, and after throwing no piece may move"
        )
    previous, wrong = segments[broken - 1][-1], segments[broken][0]
    return InvalidMove(
        f"each throw starts where the ball is: after reaching {previous} the next throw "
        f"starts at {previous}, not at {wrong}"
    )


def _why_not_knight(
    state: RazzleState, path: list[int], holder: int, opponent: str, example: Callable[[], str]
) -> RulesError:
    origin, target = path[0], path[1]
    route = f"{NAMES[origin]}-{NAMES[target]}"
    if len(path) > 2:
        return IllegalMove(
            f"a piece makes one knight move per turn; only the ball travels in a chain, "
            f"and it starts from {NAMES[holder]}"
        )
    if not is_knight_step(origin, target):
        if squares_between(origin, target) is not None:
            return IllegalMove(
                f"{route} is not a knight move, and a throw starts from the ball, which is "
                f"on {NAMES[holder]}"
            )
        return IllegalMove(
            f"{route} is not a knight move: a piece jumps two squares one way and one "
            "square to the side"
        )
    if state.board[target] != EMPTY:
        return IllegalMove(f"{NAMES[target]} is occupied: a knight move needs an empty square")
    if state.forced:
        return IllegalMove(
            f"this turn you must throw the ball, because {opponent}'s last knight move "
            f"landed next to it (for example {example()})"
        )
    return IllegalMove(f"{route} is not legal here")


def _why_not_chain(state: RazzleState, path: list[int], opponent: str) -> RulesError:
    seat = state.turn
    board = state.board
    own = (PIECE[seat], BALL[seat])
    for step, (passer, receiver) in enumerate(pairwise(path)):
        here, there = NAMES[passer], NAMES[receiver]
        if passer // WIDTH == GOAL_RANK[seat] and step:
            return IllegalMove(
                f"the ball reached {opponent}'s back row on {here} and won the game; "
                "the chain ends there"
            )
        between = squares_between(passer, receiver)
        if between is None:
            return IllegalMove(
                f"{here} to {there} is not a straight line: the ball flies along a rank, a "
                "file or a diagonal"
            )
        blockers = [s for s in between if board[s] != EMPTY]
        if blockers:
            return IllegalMove(
                f"the throw {here}-{there} is blocked by the piece on {NAMES[blockers[0]]}"
            )
        if board[receiver] == EMPTY:
            return IllegalMove(
                f"{there} is empty: the ball can only be thrown to one of your pieces"
            )
        if board[receiver] not in own:
            return IllegalMove(f"{there} holds {opponent}'s piece: throw to your own pieces")
        if receiver in path[: step + 1]:
            return IllegalMove(
                f"the piece on {there} already handled the ball this turn and cannot catch it again"
            )
        if receiver in state.ineligible:
            return IllegalMove(
                f"the piece on {there} is ineligible: it threw or caught the ball and has "
                "not made a knight move since"
            )
    return IllegalMove(f"{'-'.join(map(NAMES.__getitem__, path))} is not legal here")
