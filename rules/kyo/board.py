"""Kyo's board: items as letters, stacks as strings, geometry, the setup and the diagram.

A stack is a string read bottom to top, one letter per item, so a whole position is a tuple
of 100 short strings: cheap to copy, hash and compare, which the turn search does a lot.
Gold's items are upper case, Red's lower case; shields belong to no one and are always `S`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import InvalidDiagram, Rect, grid_rows, parse_seat, split_diagram

SIZE = 10
CELLS = SIZE * SIZE
GOLD, RED = 1, 2
SEAT_NAMES = ("Gold", "Red")
SIDE_NAMES = {"gold": GOLD, "g": GOLD, "red": RED, "r": RED}

SHIELD = "S"
LIGHT_PAWNS = "Pp"
TOWERS = "Tt"
QUEENS = "Qq"
DARK = "Dd"
LIGHT = "Ll"
MANA = "DLdl"
PAWN_NAMES = {"P": "light pawn", "H": "heavy pawn", "T": "tower", "Q": "queen", "K": "king"}
CHIP_NAMES = {"D": "dark mana", "L": "light mana", "S": "shield"}
ITEM_LETTERS = frozenset("PHTQKDLphtqkdlS")
MAX_CHIPS = 5  # chips a pawn other than a light pawn may lift


@dataclass(frozen=True)
class Side:
    """The letters that are one seat's own and its opponent's, for fast membership tests."""

    seat: int
    pawns: str
    mana: str
    enemy_pawns: str
    enemy_mana: str

    @property
    def king(self) -> str:
        return self.pawns[-1]

    @property
    def name(self) -> str:
        return SEAT_NAMES[self.seat - 1]


SIDES = {
    GOLD: Side(GOLD, "PHTQK", "DL", "phtqk", "dl"),
    RED: Side(RED, "phtqk", "dl", "PHTQK", "DL"),
}


def owner(item: str) -> int:
    """The seat an item belongs to; 0 for a shield (and for an empty tile's '')."""
    if not item or item == SHIELD:
        return 0
    return GOLD if item.isupper() else RED


BOARD = Rect(SIZE, SIZE)
point = BOARD.point
NAMES: tuple[str, ...] = tuple(BOARD.name(i) for i in range(CELLS))
BY_NAME = {name: i for i, name in enumerate(NAMES)}

# The 8 directions, clockwise from "up" (towards rank 10); odd indices are diagonal.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIRECTION_NAMES = (
    "up",
    "up and right",
    "right",
    "down and right",
    "down",
    "down and left",
    "left",
    "up and left",
)

# For each tile: (neighbour, direction index, is diagonal), for every neighbour on the board.
NEIGHBOURS: tuple[tuple[tuple[int, int, bool], ...], ...] = tuple(
    tuple(
        (BOARD.index((f + df, r + dr)), d, bool(d % 2))
        for d, (df, dr) in enumerate(DIRECTIONS)
        if BOARD.contains(f + df, r + dr)
    )
    for f, r in map(point, range(CELLS))
)
NEIGHBOUR_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q, _, _ in around) for around in NEIGHBOURS
)
DIRECTION_TO = {(p, q): d for p, around in enumerate(NEIGHBOURS) for q, d, _ in around}

# Rank 1 for Gold, bottom to top; Red's rank 10 is the same in lower case.
BACK_RANK = ("DDDH", "DDLH", "DLLH", "LLLH", "SSSK", "DLSQ", "LLLH", "DLLH", "DDLH", "DDDH")
TOWER_STACK = "SST"
LIGHT_PAWN_RANKS = {"trench": (3, 6), "open": (1, 8), "deadlock": (4, 5)}
LIGHT_PAWN_FILES = (0, 1, 2, 3, 6, 7, 8, 9)


def start_board(variant: str) -> tuple[str, ...]:
    cells = [""] * CELLS
    for file, stack in enumerate(BACK_RANK):
        cells[BOARD.index((file, 0))] = stack
        cells[BOARD.index((file, SIZE - 1))] = stack.lower().replace("s", SHIELD)
    for file in (4, 5):
        cells[BOARD.index((file, 1))] = TOWER_STACK
        cells[BOARD.index((file, SIZE - 2))] = "SSt"
    gold_rank, red_rank = LIGHT_PAWN_RANKS[variant]
    for file in LIGHT_PAWN_FILES:
        cells[BOARD.index((file, gold_rank))] = "P"
        cells[BOARD.index((file, red_rank))] = "p"
    return tuple(cells)


def position_key(board: tuple[str, ...], turn: int) -> str:
    """Every stack and the side to move, as a JSON-safe string for repetition counting."""
    return f"{turn}|" + "/".join(board)


# --- diagrams ------------------------------------------------------------------------------


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
        raise InvalidDiagram(
            f"{where} holds {cell!r}: write a stack bottom to top with D L (mana) S (shield) "
            "and P H T Q K (pawns), upper case for Gold and lower case for Red, or . if empty"
        )
    pawns = [i for i, ch in enumerate(stack) if ch.upper() in PAWN_NAMES]
    if len(pawns) > 1 or (pawns and pawns[0] != len(stack) - 1):
        raise InvalidDiagram(f"{where} holds {cell!r}: a stack has at most one pawn, on top")
    return stack


def format_board(board: tuple[str, ...], turn: int) -> str:
    width = max(2, *(len(stack) for stack in board))
    lines = ["    " + " ".join(f.ljust(width) for f in "abcdefghij").rstrip()]
    for rank in range(SIZE - 1, -1, -1):
        cells = (board[BOARD.index((f, rank))] or "." for f in range(SIZE))
        lines.append(f"{rank + 1:>2}  " + " ".join(c.ljust(width) for c in cells).rstrip())
    lines.append(f"to move: {SEAT_NAMES[turn - 1].lower()}")
    return "\n".join(lines)
