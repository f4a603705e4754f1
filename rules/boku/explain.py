"""Why typed text is not a legal Boku move, in a player's words: what is wrong, and what the
rule wants instead."""

from __future__ import annotations

from collections.abc import Callable

from rules.boku.board import EMPTY, MARBLE, NAMES, captures, wins
from rules.boku.notation import MOVE, cell_at, format_move, normalize
from rules.boku.state import BokuState
from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.state import PASS


def refusal(state: BokuState, text: str, whose: Callable[[int], str]) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player."""
    cleaned = normalize(text)
    legal = state.moves
    if cleaned == "pass":
        return IllegalMove("you can only pass when there is no cell you may place on")
    match = MOVE.fullmatch(cleaned)
    if not match:
        return InvalidMove(
            f"{text.strip()!r} is not a Boku move: write the cell to place on, like e5, "
            "and for a capturing placement add the marble to remove, like e5xf6"
        )
    try:
        cell = cell_at(match[1], match[2])
        removed = None if match[3] is None else cell_at(match[3], match[4])
    except RulesError as error:
        return error
    if legal == (PASS,):
        return IllegalMove(
            "there is no cell you may place on (the only empty one is blocked for you), "
            "so you must pass"
        )
    return _why_illegal(state, cell, removed, whose)


def _why_illegal(
    state: BokuState, cell: int, removed: int | None, whose: Callable[[int], str]
) -> RulesError:
    board = state.board
    name = NAMES[cell]
    mine = MARBLE[state.turn]
    opponent = whose(3 - state.turn)
    if board[cell] == mine:
        return IllegalMove(f"{name} already holds one of your marbles; pick an empty cell")
    if board[cell] != EMPTY:
        return IllegalMove(f"{name} already holds {opponent}'s marble; pick an empty cell")
    if cell == state.blocked:
        return IllegalMove(
            f"{name} was just emptied by a capture and is blocked for this turn; place "
            "anywhere else (it is free again next turn)"
        )
    # The cell is free, so the placement itself is legal and only the removal is wrong.
    options = captures(state.lines, mine).get(cell, ())
    choices = " or ".join(format_move(option) for option in options)
    if removed is None:
        return IllegalMove(
            f"{name} encloses {opponent}'s marbles, so you must also remove one of them: "
            f"write {choices}"
        )
    if wins(state.lines, cell, mine):
        return IllegalMove(
            f"{name} makes five in a row and wins at once, before any capture: write just {name}"
        )
    if not options:
        return IllegalMove(
            f"{name} encloses no pair of {opponent}'s marbles, so nothing can be removed: "
            f"write just {name}"
        )
    return IllegalMove(
        f"{NAMES[removed]} is not one of the marbles {name} encloses: write {choices}"
    )
