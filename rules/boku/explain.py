"""Why typed text is not a legal Boku move, for a player: what is wrong, and what the rule
wants instead."""

from __future__ import annotations

from collections.abc import Callable

from rules.boku.board import EMPTY, MARBLE, NAMES, captures, wins
from rules.boku.notation import MOVE, cell_at, format_move, normalize
from rules.boku.state import BokuState
from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.phrases import Words, alternatives
from rules.state import PASS


def refusal(state: BokuState, text: str, whose: Callable[[int], Words]) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player."""
    cleaned = normalize(text)
    legal = state.moves
    if cleaned == "pass":
        return IllegalMove("rules.boku.no_pass")
    match = MOVE.fullmatch(cleaned)
    if not match:
        return InvalidMove("rules.boku.unreadable", text=text.strip())
    try:
        cell = cell_at(match[1], match[2])
        removed = None if match[3] is None else cell_at(match[3], match[4])
    except RulesError as error:
        return error
    if legal == (PASS,):
        return IllegalMove("rules.boku.must_pass")
    return _why_illegal(state, cell, removed, whose)


def _why_illegal(
    state: BokuState, cell: int, removed: int | None, whose: Callable[[int], Words]
) -> RulesError:
    board = state.board
    name = NAMES[cell]
    mine = MARBLE[state.turn]
    opponent = whose(3 - state.turn)
    if board[cell] == mine:
        return IllegalMove("rules.boku.yours", cell=name)
    if board[cell] != EMPTY:
        return IllegalMove("rules.boku.theirs", cell=name, opponent=opponent)
    if cell == state.blocked:
        return IllegalMove("rules.boku.blocked", cell=name)
    # The cell is free, so the placement itself is legal and only the removal is wrong.
    options = captures(state.lines, mine).get(cell, ())
    choices = alternatives([format_move(option) for option in options])
    if removed is None:
        return IllegalMove("rules.boku.must_remove", cell=name, opponent=opponent, choices=choices)
    if wins(state.lines, cell, mine):
        return IllegalMove("rules.boku.wins_first", cell=name)
    if not options:
        return IllegalMove("rules.boku.nothing_to_remove", cell=name, opponent=opponent)
    return IllegalMove(
        "rules.boku.not_enclosed", removed=NAMES[removed], cell=name, choices=choices
    )
