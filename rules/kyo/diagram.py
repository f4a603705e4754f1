"""Kyo positions as text: one stack per tile, bottom to top (`DDLH`, `.` for an empty tile),
upper case for Gold and lower case for Red, and the keys `to move` and `variant`."""

from __future__ import annotations

from collections.abc import Collection

from rules.diagrams import grid_rows, parse_seat, split_diagram
from rules.errors import InvalidDiagram
from rules.kyo.board import (
    BOARD,
    CELLS,
    GOLD,
    ITEM_LETTERS,
    NAMES,
    PAWNS,
    RED,
    SHIELD,
    SIZE,
    position_key,
)
from rules.kyo.state import DEFAULT_VARIANT, KyoState

SIDE_NAMES = {"gold": GOLD, "g": GOLD, "red": RED, "r": RED}
WRITTEN_SIDES = ("gold", "red")  # how the `to move` line names each seat


def parse(text: str, variants: Collection[str]) -> KyoState:
    board, turn, keys = parse_board(text)
    variant = keys.pop("variant", DEFAULT_VARIANT).strip().lower()
    if variant not in variants:
        raise InvalidDiagram(
            "rules.kyo.diagram.variant", variant=variant, variants=", ".join(variants)
        )
    if keys:
        raise InvalidDiagram("rules.kyo.diagram.key", name=sorted(keys)[0])
    return KyoState(board=board, variant=variant, turn=turn, history=(position_key(board, turn),))


def format_text(state: KyoState) -> str:
    text = format_board(state.board, state.turn)
    if state.variant != DEFAULT_VARIANT:
        text += f"\nvariant: {state.variant}"
    return text


def parse_board(text: str) -> tuple[tuple[str, ...], int, dict[str, str]]:
    """Diagram text -> (board, seat to move, remaining keys)."""
    rows, keys = split_diagram(text)
    grid = grid_rows(rows, SIZE, SIZE)
    cells = [""] * CELLS
    for row_number, row in enumerate(grid):
        rank = SIZE - 1 - row_number
        for file, cell in enumerate(row):
            at = BOARD.index((file, rank))
            cells[at] = parse_stack(cell, NAMES[at])
    turn = parse_seat(keys.pop("to move", "gold"), 2, SIDE_NAMES)
    return tuple(cells), turn, keys


def parse_stack(cell: str, where: str) -> str:
    """'ddlh' -> 'ddlh', '.' -> ''; a shield may be written s or S."""
    if cell in (".", "·", "-"):
        return ""
    stack = "".join(SHIELD if ch == "s" else ch for ch in cell)
    bad = [ch for ch in stack if ch not in ITEM_LETTERS]
    if bad:
        raise InvalidDiagram("rules.kyo.diagram.cell", square=where, cell=cell)
    pawns = [i for i, ch in enumerate(stack) if ch.upper() in PAWNS]
    if len(pawns) > 1 or (pawns and pawns[0] != len(stack) - 1):
        raise InvalidDiagram("rules.kyo.diagram.pawns", square=where, cell=cell)
    return stack


def format_board(board: tuple[str, ...], turn: int) -> str:
    width = max(2, *(len(stack) for stack in board))
    lines = ["    " + " ".join(f.ljust(width) for f in "abcdefghij").rstrip()]
    for rank in range(SIZE - 1, -1, -1):
        cells = (board[BOARD.index((f, rank))] or "." for f in range(SIZE))
        lines.append(f"{rank + 1:>2}  " + " ".join(c.ljust(width) for c in cells).rstrip())
    lines.append(f"to move: {WRITTEN_SIDES[turn - 1]}")
    return "\n".join(lines)
