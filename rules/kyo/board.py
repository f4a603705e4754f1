"""Kyo's board: items as letters, stacks as strings, geometry and the setup.

A stack is a string read bottom to top, one letter per item, so a whole position is a tuple
of 100 short strings: cheap to copy, hash and compare, which the turn search does a lot.
Gold's items are upper case, Red's lower case; shields belong to no one and are always `S`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.notation import Rect

SIZE = 10
CELLS = SIZE * SIZE
GOLD, RED = 1, 2
SEAT_KEYS = ("rules.seat.gold", "rules.seat.red")

SHIELD = "S"
LIGHT_PAWNS = "Pp"
TOWERS = "Tt"
QUEENS = "Qq"
DARK = "Dd"
LIGHT = "Ll"
MANA = "DLdl"
PAWNS = "PHTQK"
# What players call each item, by its upper-case letter.
ITEM_KEYS = {
    "P": "rules.kyo.item.light_pawn",
    "H": "rules.kyo.item.heavy_pawn",
    "T": "rules.kyo.item.tower",
    "Q": "rules.kyo.item.queen",
    "K": "rules.kyo.item.king",
    "D": "rules.kyo.item.dark_mana",
    "L": "rules.kyo.item.light_mana",
    "S": "rules.kyo.item.shield",
}
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
    def key(self) -> str:
        """The seat's colour, as a catalogue key."""
        return SEAT_KEYS[self.seat - 1]


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
DIRECTION_KEYS = (
    "rules.kyo.direction.up",
    "rules.kyo.direction.up_right",
    "rules.kyo.direction.right",
    "rules.kyo.direction.down_right",
    "rules.kyo.direction.down",
    "rules.kyo.direction.down_left",
    "rules.kyo.direction.left",
    "rules.kyo.direction.up_left",
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
