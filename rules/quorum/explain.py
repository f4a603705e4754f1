"""Why typed text is not a legal Quorum move, for a player: what is wrong, and what the rule
wants instead."""

from __future__ import annotations

from collections.abc import Callable

from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.notation import parse_square, split_squares
from rules.phrases import Words, phrase
from rules.quorum.board import BOARD, EMPTY, HOMES, NAMES, POINTS, SEAT_KEYS, SIZE, STONE
from rules.quorum.notation import normalize
from rules.quorum.state import QuorumState
from rules.state import next_seat


def refusal(state: QuorumState, text: str, whose: Callable[[int], Words]) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player."""
    cleaned = normalize(text)
    seat = state.turn
    if cleaned == "place":
        homes = " ".join(NAMES[h] for h in HOMES[seat])
        return IllegalMove("rules.quorum.homes_full", homes=homes)
    if cleaned == "pass":
        return IllegalMove("rules.quorum.no_pass")
    squares = split_squares(text)
    if len(squares) != 2 or "".join(squares) != cleaned:
        return InvalidMove("rules.quorum.unreadable", text=text.strip())
    try:
        active, target = (BOARD.index(parse_square(s, SIZE, SIZE)) for s in squares)
    except RulesError as error:
        return error
    return _why_illegal(state, active, target, whose)


def _why_illegal(
    state: QuorumState, active: int, target: int, whose: Callable[[int], Words]
) -> RulesError:
    mine = STONE[state.turn]
    board = state.board
    opponent = whose(next_seat(state.turn, 2))
    if board[active] == EMPTY:
        return IllegalMove("rules.quorum.no_stone", square=NAMES[active])
    if board[active] != mine:
        you = phrase(SEAT_KEYS[state.turn - 1])
        return IllegalMove(
            "rules.quorum.not_yours", square=NAMES[active], opponent=opponent, you=you
        )
    if active == target:
        return IllegalMove("rules.quorum.same_square")
    (af, ar), (tf, tr) = POINTS[active], POINTS[target]
    if (af + tf) % 2 or (ar + tr) % 2:
        return IllegalMove("rules.quorum.no_center", active=NAMES[active], target=NAMES[target])
    center = BOARD.index(((af + tf) // 2, (ar + tr) // 2))
    cf, cr = POINTS[center]
    if abs(cf - af) > 2 or abs(cr - ar) > 2:
        return IllegalMove("rules.quorum.too_far", center=NAMES[center], active=NAMES[active])
    if board[center] == EMPTY:
        return IllegalMove("rules.quorum.empty_center", center=NAMES[center])
    if board[center] != mine:
        return IllegalMove("rules.quorum.enemy_center", center=NAMES[center], opponent=opponent)
    if board[target] != EMPTY:
        return IllegalMove("rules.quorum.occupied", target=NAMES[target])
    return IllegalMove("rules.game.illegal", move=NAMES[active] + NAMES[target])
