"""Boku positions as text: key lines only (`1: E5 F6`, `2: D4`, `blocked: E6`, `to move: 1`)."""

from __future__ import annotations

from rules.boku.board import CELL_COUNT, EMPTY, MARBLE, NAMES
from rules.boku.notation import parse_cell
from rules.boku.state import BokuState
from rules.diagrams import parse_seat, split_diagram
from rules.errors import InvalidDiagram, InvalidMove

SEATS = {"1": 1, "2": 2, "dark": 1, "light": 2}


def parse(text: str) -> BokuState:
    rows, keys = split_diagram(text)
    if rows:
        raise InvalidDiagram("rules.boku.diagram.rows")
    known = {"1", "2", "dark", "light", "blocked", "to move"}
    unknown = set(keys) - known
    if unknown:
        raise InvalidDiagram("rules.boku.diagram.key", name=sorted(unknown)[0])
    cells = [EMPTY] * CELL_COUNT
    for key, value in keys.items():
        if key not in SEATS:
            continue
        for word in value.replace(",", " ").split():
            cell = _cell(word)
            if cells[cell] != EMPTY:
                raise InvalidDiagram("rules.boku.diagram.twice", cell=word)
            cells[cell] = MARBLE[SEATS[key]]
    blocked: int | None = None
    if keys.get("blocked", "").strip() not in ("", "-", "none"):
        blocked = _cell(keys["blocked"])
        if cells[blocked] != EMPTY:
            raise InvalidDiagram("rules.boku.diagram.blocked", cell=keys["blocked"].strip())
    turn = parse_seat(keys.get("to move", "1"), 2, SEATS)
    board = "".join(cells)
    return BokuState(board=board, turn=turn, blocked=blocked)


def _cell(word: str) -> int:
    try:
        return parse_cell(word)
    except InvalidMove as error:
        raise InvalidDiagram(error.key, **error.values) from None


def format_text(state: BokuState) -> str:
    lines = []
    for seat in (1, 2):
        cells = [NAMES[i].upper() for i, c in enumerate(state.board) if c == MARBLE[seat]]
        lines.append(f"{seat}: {' '.join(cells)}".rstrip())
    if state.blocked is not None:
        lines.append(f"blocked: {NAMES[state.blocked].upper()}")
    lines.append(f"to move: {state.turn}")
    return "\n".join(lines)
    return "\n".join(lines)
