"""Razzle Dazzle's board: squares, knight moves, the lines a ball flies along, and the
moves (a knight move, a chain of throws) with what they need."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.direct import direct_constructor
from rules.notation import Rect
from rules.state import Highlight, Pass

WIDTH, HEIGHT = 7, 8
EMPTY = "."
PIECE = {1: "x", 2: "o"}
BALL = {1: "X", 2: "O"}
GOAL_RANK = {1: HEIGHT - 1, 2: 0}
HOME_RANK = {1: 0, 2: HEIGHT - 1}
START_FILES = (1, 2, 3, 4, 5)
BALL_FILE = 3
TURN_LIMIT = 200
SEAT_KEYS = ("rules.seat.white", "rules.seat.black")  # the light discs and dark squares


BOARD = Rect(WIDTH, HEIGHT)
_index, _point, _name = BOARD.index, BOARD.point, BOARD.name
_on_board = BOARD.contains

SQUARES = range(WIDTH * HEIGHT)
NAMES = tuple(map(_name, SQUARES))
POINTS = tuple(map(_point, SQUARES))
# Moves are listed in notation order: by file, then rank, square after square.
ORDINAL = tuple(f * HEIGHT + r for f, r in map(_point, SQUARES))
DIRECTIONS = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

NEIGHBOURS: tuple[frozenset[int], ...] = tuple(
    frozenset(_index((f + df, r + dr)) for df, dr in DIRECTIONS if _on_board(f + df, r + dr))
    for f, r in map(_point, SQUARES)
)


@dataclass(frozen=True)
class Knight:
    """A piece's knight move; it makes the piece an eligible receiver again."""

    origin: int
    target: int


@dataclass(frozen=True)
class Chain:
    """One or more throws, as the squares the ball visits (the holder's square first)."""

    path: tuple[int, ...]


RazzleMove = Knight | Chain | Pass
# Chains are made afresh each time moves are listed: straight, not through __init__.
_chain = direct_constructor(Chain, ("path",))

# Every knight move from each square, built once: listing moves only filters these.
KNIGHT_MOVES: tuple[tuple[tuple[int, Knight], ...], ...] = tuple(
    tuple(
        (target, Knight(_index((f, r)), target))
        for target in sorted(
            (_index((f + df, r + dr)) for df, dr in KNIGHT_STEPS if _on_board(f + df, r + dr)),
            key=ORDINAL.__getitem__,
        )
    )
    for f, r in map(_point, SQUARES)
)


@lru_cache(maxsize=4096)
def path_highlight(seat: int, path: tuple[int, ...]) -> Highlight:
    """What a turn along `path` shows, made once per path: most turns repeat an earlier one."""
    return Highlight(
        seat, "-".join(map(NAMES.__getitem__, path)), tuple(map(POINTS.__getitem__, path))
    )


def start_board() -> str:
    cells = [EMPTY] * (WIDTH * HEIGHT)
    for seat in (1, 2):
        for file in START_FILES:
            cells[_index((file, HOME_RANK[seat]))] = PIECE[seat]
        cells[_index((BALL_FILE, HOME_RANK[seat]))] = BALL[seat]
    return "".join(cells)


def is_knight_step(origin: int, target: int) -> bool:
    (af, ar), (bf, br) = _point(origin), _point(target)
    return {abs(af - bf), abs(ar - br)} == {1, 2}


def squares_between(origin: int, target: int) -> tuple[int, ...] | None:
    """The squares strictly between two squares on one line, or None when not on a line."""
    (af, ar), (bf, br) = _point(origin), _point(target)
    df, dr = bf - af, br - ar
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return None
    steps = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return tuple(_index((af + k * sf, ar + k * sr)) for k in range(1, steps))


ALL_SQUARES = (1 << WIDTH * HEIGHT) - 1
# A board as a number whose bit `square` is set when that square is occupied (see occupied_bits).
OCCUPIED = str.maketrans({EMPTY: "0", **dict.fromkeys("xoXO", "1")})


def occupied_bits(board: str) -> int:
    return int(board.translate(OCCUPIED)[::-1], 2)


def _blockers(origin: int, target: int) -> int:
    """The squares a throw from `origin` to `target` flies over, as bits; every square when
    the two share no line, so that "can the ball fly there" is one test: no piece on them."""
    between = squares_between(origin, target)
    return ALL_SQUARES if between is None else sum(1 << square for square in between)


BLOCKERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_blockers(origin, target) for target in SQUARES) for origin in SQUARES
)


def throw_chains(holder: int, receivers: list[int], occupied: int, goal_rank: int) -> list[Chain]:
    """Every chain of throws from the holder to `receivers` (eligible, in notation order) over
    the `occupied` squares, in notation order; one stops at the goal."""
    chains: list[Chain] = []

    def extend(path: tuple[int, ...]) -> None:
        blockers = BLOCKERS[path[-1]]
        for receiver in receivers:
            if not occupied & blockers[receiver] and receiver not in path:
                longer = (*path, receiver)
                chains.append(_chain(longer))
                if receiver // WIDTH != goal_rank:
                    extend(longer)

    extend((holder,))
    return chains


# Per square: its knight targets as bits, and its knight moves by which of those targets are
# occupied, worked out on first use (at most 256 per square), so listing a piece's moves is
# one lookup instead of a test per target.
KNIGHT_TARGETS = tuple(sum(1 << target for target, _ in moves) for moves in KNIGHT_MOVES)
KNIGHT_MOVES_BY_BLOCKED: tuple[dict[int, tuple[Knight, ...]], ...] = tuple({} for _ in SQUARES)


def knight_moves(square: int, occupied: int) -> tuple[Knight, ...]:
    """The knight moves from `square` onto the squares `occupied` leaves empty."""
    blocked = occupied & KNIGHT_TARGETS[square]
    known = KNIGHT_MOVES_BY_BLOCKED[square]
    moves = known.get(blocked)
    if moves is None:
        moves = tuple(move for target, move in KNIGHT_MOVES[square] if not blocked >> target & 1)
        known[blocked] = moves
    return moves


def ball_square(board: str, seat: int) -> int:
    return board.index(BALL[seat])
