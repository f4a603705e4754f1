"""Why typed text is not a legal Razzle Dazzle move, for a player: what is wrong, and what
the rule wants instead."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.notation import parse_square
from rules.phrases import Words
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
    state: RazzleState, text: str, whose: Callable[[int], Words], example: Callable[[], str]
) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player and
    `example()` is a legal move."""
    try:
        segments = read_segments(text)
        if segments == [["pass"]]:
            return IllegalMove("rules.razzle.no_pass")
        squares = joined_path(segments)
        path = [BOARD.index(parse_square(s, WIDTH, HEIGHT)) for s in squares]
    except RulesError as error:
        return error
    broken = broken_at(segments)
    if broken is not None:
        return _why_broken(state, segments, broken)
    if len(path) < 2:
        return InvalidMove("rules.razzle.alone", text=text.strip())
    seat = state.turn
    board = state.board
    start = path[0]
    cell = board[start]
    holder = ball_square(board, seat)
    opponent = whose(3 - seat)
    if cell == EMPTY:
        return IllegalMove("rules.razzle.empty", square=NAMES[start])
    if cell in (PIECE[3 - seat], BALL[3 - seat]):
        return IllegalMove("rules.razzle.not_yours", square=NAMES[start], opponent=opponent)
    if cell == PIECE[seat]:
        return _why_not_knight(state, path, holder, opponent, example)
    if len(path) == 2 and is_knight_step(start, path[1]):
        return IllegalMove("rules.razzle.holder_moves", square=NAMES[start])
    return _why_not_chain(state, path, opponent)


def _why_broken(state: RazzleState, segments: list[list[str]], broken: int) -> RulesError:
    """Step form whose throws do not connect: a move mixed with throws, or a slip."""
    piece = PIECE[state.turn]
    if any(state.board[BOARD.index(parse_square(s[0], WIDTH, HEIGHT))] == piece for s in segments):
        return IllegalMove("rules.razzle.mixed")
    previous, wrong = segments[broken - 1][-1], segments[broken][0]
    return InvalidMove("rules.razzle.broken", previous=previous, wrong=wrong)


def _why_not_knight(
    state: RazzleState, path: list[int], holder: int, opponent: Words, example: Callable[[], str]
) -> RulesError:
    origin, target = path[0], path[1]
    route = f"{NAMES[origin]}-{NAMES[target]}"
    if len(path) > 2:
        return IllegalMove("rules.razzle.one_knight_move", ball=NAMES[holder])
    if not is_knight_step(origin, target):
        if squares_between(origin, target) is not None:
            return IllegalMove("rules.razzle.throw_from_ball", move=route, ball=NAMES[holder])
        return IllegalMove("rules.razzle.not_knight", move=route)
    if state.board[target] != EMPTY:
        return IllegalMove("rules.razzle.occupied", square=NAMES[target])
    if state.forced:
        return IllegalMove("rules.razzle.must_throw", opponent=opponent, example=example())
    return IllegalMove("rules.game.illegal", move=route)


def _why_not_chain(state: RazzleState, path: list[int], opponent: Words) -> RulesError:
    seat = state.turn
    board = state.board
    own = (PIECE[seat], BALL[seat])
    for step, (passer, receiver) in enumerate(pairwise(path)):
        here, there = NAMES[passer], NAMES[receiver]
        if passer // WIDTH == GOAL_RANK[seat] and step:
            return IllegalMove("rules.razzle.goal", opponent=opponent, square=here)
        between = squares_between(passer, receiver)
        if between is None:
            return IllegalMove("rules.razzle.not_straight", origin=here, target=there)
        blockers = [s for s in between if board[s] != EMPTY]
        if blockers:
            return IllegalMove(
                "rules.razzle.blocked", origin=here, target=there, blocker=NAMES[blockers[0]]
            )
        if board[receiver] == EMPTY:
            return IllegalMove("rules.razzle.to_empty", square=there)
        if board[receiver] not in own:
            return IllegalMove("rules.razzle.to_enemy", square=there, opponent=opponent)
        if receiver in path[: step + 1]:
            return IllegalMove("rules.razzle.caught_twice", square=there)
        if receiver in state.ineligible:
            return IllegalMove("rules.razzle.ineligible", square=there)
    return IllegalMove("rules.game.illegal", move="-".join(map(NAMES.__getitem__, path)))
