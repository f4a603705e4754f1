"""Boku's board: 80 cells of a hexagon, the lines through them laid out as one string, the
placements, and the searches for fives and captures along those lines."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter, itemgetter

from rules.notation import Point
from rules.state import Highlight, Pass

SIZE = 10
SPAN = 5  # a cell (q, r) exists when |q - r| <= SPAN
COLUMNS = "abcdefghij"
EMPTY = "."
MARBLE = {1: "1", 2: "2"}
SEAT_KEYS = ("rules.seat.dark", "rules.seat.light")
WIN_LENGTH = 5

# The six neighbours of (q, r); consecutive pairs are opposite, each pair is one line axis.
DIRECTIONS: tuple[Point, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def _exists(q: int, r: int) -> bool:
    return 0 <= q < SIZE and 0 <= r < SIZE and abs(q - r) <= SPAN


# Cells are numbered in notation order (a1, a2, ..., a6, b1, ...), so sorted moves read sorted.
POINTS: tuple[Point, ...] = tuple((q, r) for q in range(SIZE) for r in range(SIZE) if _exists(q, r))
INDEX: dict[Point, int] = {point: index for index, point in enumerate(POINTS)}
NAMES: tuple[str, ...] = tuple(f"{COLUMNS[q]}{r + 1}" for q, r in POINTS)
CELL_COUNT = len(POINTS)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[q + dq, r + dr] for dq, dr in DIRECTIONS if _exists(q + dq, r + dr))
    for q, r in POINTS
)


def _layout() -> tuple[int, ...]:
    """Every line of every axis written out cell by cell, each line closed by a separator (-1).

    A string laid out like this turns "a line of five" and "mine, theirs, theirs, empty" into
    substring searches, which run in C instead of cell-by-cell Python loops.
    """
    cells: list[int] = []
    for step in DIRECTIONS[::2]:
        for q, r in POINTS:
            if _exists(q - step[0], r - step[1]):
                continue  # not the start of a line along this axis
            while _exists(q, r):
                cells.append(INDEX[q, r])
                q, r = q + step[0], r + step[1]
            cells.append(-1)
    return tuple(cells)


LAYOUT = _layout()
SEPARATOR = "#"
# Where each cell appears in the layout, once per axis, in increasing order.
POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, c in enumerate(LAYOUT) if c == cell) for cell in range(CELL_COUNT)
)
# Per cell, per axis: where the cell sits in the layout, with the stretch four places either
# side of it. A line of five through the cell lies in that stretch, and any five in the
# stretch goes through the cell, as each side alone holds only four places.
WINDOWS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((max(0, p - WIN_LENGTH + 1), p, p + WIN_LENGTH) for p in positions)
    for positions in POSITIONS
)
# Per cell: the layout around its three appearances, so that writing it is one join.
AROUND: tuple[tuple[slice, slice, slice, slice], ...] = tuple(
    (slice(0, a), slice(a + 1, b), slice(b + 1, c), slice(c + 1, None)) for a, b, c in POSITIONS
)
FIVES = {mark: mark * WIN_LENGTH for mark in MARBLE.values()}
# A capture seen along a line: the empty cell to place on, then the pair, then the closer.
CAPTURE_PATTERNS = {
    mine: (EMPTY + theirs * 2 + mine, mine + theirs * 2 + EMPTY)
    for mine, theirs in (("1", "2"), ("2", "1"))
}
FREE = bytes(1 if byte == ord(EMPTY) else 0 for byte in range(256))


PICK_LAYOUT = itemgetter(*LAYOUT)


def layout_lines(board: str) -> str:
    """The layout string of a board, picked in one call: the separator put after the board
    is what LAYOUT's -1 picks."""
    return "".join(PICK_LAYOUT(board + SEPARATOR))


def put(lines: str, cell: int, mark: str) -> str:
    """The layout string with `mark` written on all three appearances of `cell`."""
    first, second, third, rest = AROUND[cell]
    return mark.join((lines[first], lines[second], lines[third], lines[rest]))


def wins(lines: str, cell: int, mine: str) -> bool:
    """Whether a marble of `mine` on `cell` (placed or not yet) is in a line of five or more."""
    five = FIVES[mine]
    for start, at, end in WINDOWS[cell]:
        # Counting first is cheap and usually settles it: five need four others around.
        if lines.count(mine, start, end) >= WIN_LENGTH - 1 and five in (
            lines[start:at] + mine + lines[at + 1 : end]
        ):
            return True
    return False


@dataclass(frozen=True)
class Place:
    """A placement on `cell`; `removed` is the enclosed enemy marble taken, if it captures."""

    cell: int
    removed: int | None = None


BokuMove = Place | Pass

# Every move that can ever be legal, made once, so generating moves allocates nothing.
PLACES: tuple[Place, ...] = tuple(Place(cell) for cell in range(CELL_COUNT))
CAPTURES: dict[tuple[int, int], Place] = {
    (LAYOUT[at + end], LAYOUT[at + taken]): Place(LAYOUT[at + end], LAYOUT[at + taken])
    for at in range(len(LAYOUT) - 3)
    if min(LAYOUT[at : at + 4]) >= 0
    for end in (0, 3)
    for taken in (1, 2)
}
# The moves above live as long as the module, so their ids tell them apart for good.
SHARED = frozenset(map(id, (*PLACES, *CAPTURES.values())))
REMOVED = attrgetter("removed")


def _hits(end: int) -> dict[int, tuple[int, tuple[Place, ...]]]:
    """Per layout place where four cells of a line start: the cell at `end` (0 or 3) and the
    placements there that capture one of the middle two, ordered by the marble removed."""
    return {
        at: (cell, tuple(CAPTURES[cell, taken] for taken in sorted(LAYOUT[at + 1 : at + 3])))
        for at in range(len(LAYOUT) - 3)
        if min(LAYOUT[at : at + 4]) >= 0
        for cell in (LAYOUT[at + end],)
    }


# A capture seen along a line, for the marble to place: the pattern and its hits by place.
CAPTURE_HITS = {
    mine: ((before, _hits(0)), (after, _hits(3)))
    for mine, (before, after) in CAPTURE_PATTERNS.items()
}


def captures(lines: str, mine: str) -> dict[int, tuple[Place, ...]]:
    """Empty cells where a marble of `mine` would enclose pairs, with the capturing placements
    there in order."""
    found: dict[int, tuple[Place, ...]] = {}
    for pattern, hits in CAPTURE_HITS[mine]:
        at = lines.find(pattern)
        while at >= 0:
            cell, options = hits[at]
            if cell in found:  # pairs closed along several lines all offer their marbles
                options = tuple(sorted((*found[cell], *options), key=REMOVED))
            found[cell] = options
            at = lines.find(pattern, at + 1)
    return found


# What each seat's turn shows, per (cell, removed), made once like the moves themselves.
MARKS: dict[int, dict[tuple[int, int | None], Highlight]] = {
    seat: {
        **{
            (cell, None): Highlight(seat, NAMES[cell], (POINTS[cell],))
            for cell in range(CELL_COUNT)
        },
        **{
            (cell, taken): Highlight(
                seat, f"{NAMES[cell]}x{NAMES[taken]}", (POINTS[cell],), (POINTS[taken],)
            )
            for cell, taken in CAPTURES
        },
    }
    for seat in MARBLE
}
