"""Quorum's board: squares, homes and centre, stones as bit masks, the moves and what a jump
does to the stones around its landing square."""

from __future__ import annotations

from dataclasses import dataclass

from rules.notation import Rect, parse_square
from rules.state import Pass

SIZE = 8
EMPTY, WHITE, BLACK = ".", "w", "b"
STONE = {1: WHITE, 2: BLACK}
SEAT_KEYS = ("rules.seat.white", "rules.seat.black")
HOMES = {1: (0, 1, 8, 9), 2: (54, 55, 62, 63)}  # a1 b1 a2 b2 / g7 h7 g8 h8
OBJECTIVES = (27, 28, 35, 36)  # d4 e4 d5 e5
START = {
    1: ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"),
    2: ("h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "h8"),
}


BOARD = Rect(SIZE, SIZE)
_index, _point, _name = BOARD.index, BOARD.point, BOARD.name
_on_board = BOARD.contains
POINTS = tuple(map(_point, range(SIZE * SIZE)))

DIRECTIONS = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_index((f + df, r + dr)) for df, dr in DIRECTIONS if _on_board(f + df, r + dr))
    for f, r in map(_point, range(SIZE * SIZE))
)

# For each direction from a square: (neighbour, square beyond), both on the board.
LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (_index((f + df, r + dr)), _index((f + 2 * df, r + 2 * dr)))
        for df, dr in DIRECTIONS
        if _on_board(f + 2 * df, r + 2 * dr)
    )
    for f, r in map(_point, range(SIZE * SIZE))
)


@dataclass(frozen=True, order=True)
class Jump:
    active: int
    target: int


@dataclass(frozen=True, order=True)
class Place:
    pass


PLACE = Place()


# Jumps are found with bit masks (bit i = board[i]), one direction at a time: a stone of
# yours is an active stone for a direction when the square one step on holds another and the
# square two steps on is empty. Scanning square by square took about three times as long.
def _notation_key(active: int, target: int) -> int:
    """A jump's place in notation order: active file and rank, then target file and rank."""
    (af, ar), (tf, tr) = _point(active), _point(target)
    return ((af * SIZE + ar) * SIZE + tf) * SIZE + tr


def _direction(df: int, dr: int) -> tuple[int, int, tuple[int, ...]]:
    """For one jump direction: the actives whose target is on the board (as a mask), the
    step in board indices, and each such active's notation key."""
    mask, step, keys = 0, dr * SIZE + df, [0] * (SIZE * SIZE)
    for active, (f, r) in enumerate(map(_point, range(SIZE * SIZE))):
        if _on_board(f + 2 * df, r + 2 * dr):
            mask |= 1 << active
            keys[active] = _notation_key(active, active + 2 * step)
    return mask, step, tuple(keys)


# Python shifts by positive amounts only: with the masks first raised by REACH bits (the
# longest jump, in board indices), "the square `step` on" is a right shift for every step.
REACH = 2 * (2 * SIZE + 2)
_DIRECTIONS = [
    _direction(df, dr) for df in range(-2, 3) for dr in range(-2, 3) if (df, dr) != (0, 0)
]
SHIFTS = tuple(
    (actives, REACH + step, REACH + 2 * step, keys) for actives, step, keys in _DIRECTIONS
)
JUMP_AT = {
    keys[active]: Jump(active, active + 2 * step)
    for mask, step, keys in _DIRECTIONS
    for active in range(SIZE * SIZE)
    if mask >> active & 1
}
HOME_MASKS = {seat: sum(1 << h for h in homes) for seat, homes in HOMES.items()}
# board.translate(BITS_OF[stone]) spells the squares holding `stone` as 1s, others as 0s.
BITS_OF = {
    stone: str.maketrans({c: "1" if c == stone else "0" for c in (EMPTY, WHITE, BLACK)})
    for stone in (EMPTY, WHITE, BLACK)
}


def mask(board: str, stone: str) -> int:
    """The squares holding `stone`, as bits (bit i for board[i])."""
    return int(board.translate(BITS_OF[stone])[::-1], 2)


QuorumMove = Jump | Place | Pass
ALL_SQUARES = (1 << SIZE * SIZE) - 1
BIT = tuple(1 << square for square in range(SIZE * SIZE))
NAMES = tuple(map(_name, range(SIZE * SIZE)))
CENTRE_BITS = sum(map(BIT.__getitem__, OBJECTIVES))
NEIGHBOUR_BITS = tuple(sum(map(BIT.__getitem__, around)) for around in NEIGHBOURS)


def bits(squares: tuple[int, ...]) -> int:
    return sum(map(BIT.__getitem__, squares))


def smother_and_flip(
    stones: list[int], landing: int, seat: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """After a jump to `landing` (already on `stones`, which this updates): the enemy stones
    suffocated (next to the landing, no empty square around them), then the enemy stones
    flipped (next to the landing with a stone of `seat` right behind), each all at once."""
    enemy = 3 - seat
    empty = ALL_SQUARES ^ (stones[1] | stones[2])
    theirs, mine = stones[enemy], stones[seat]
    captured = tuple(
        n for n in NEIGHBOURS[landing] if theirs & BIT[n] and not empty & NEIGHBOUR_BITS[n]
    )
    theirs &= ~bits(captured)
    changed = tuple(n for n, beyond in LINES[landing] if theirs & BIT[n] and mine & BIT[beyond])
    flipped = bits(changed)
    stones[enemy], stones[seat] = theirs & ~flipped, mine | flipped
    return captured, changed


def start_board() -> str:
    cells = [EMPTY] * (SIZE * SIZE)
    for seat, squares in START.items():
        for square in squares:
            cells[_index(parse_square(square, SIZE, SIZE))] = STONE[seat]
    return "".join(cells)
