"""Boost's board arithmetic: point tables, step walks, bit masks and move resolution.

A position is a tuple of integer bit masks, one bit per point (index = file * size + rank):
slot 0 holds the dragons, then every seat has three slots (pawns, knights, towers). With
masks, "is this point free", "what is next to it" and "which points could be built on" are a
few integer operations, which keeps move generation inside the bot's speed budget. Every
self-avoiding walk a piece could take is enumerated once per (point, step count) and kept as
the set of points it crosses, so checking a path is a single AND against the occupied points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rules.notation import square_name
from rules.state import Pass

PAWN, KNIGHT, TOWER = 0, 1, 2
KIND_NAMES = ("pawn", "knight", "tower")
# The seat colours on the board, one hue family each (renderers/boost.py).
SEAT_KEYS = ("rules.seat.blue", "rules.seat.red", "rules.seat.green", "rules.seat.yellow")
DRAGONS = 0
MAX_TOWERS = 2
MAX_SEATS = 4

Masks = tuple[int, ...]
# One reachable end of a walk table: (end, end bit, union of crossed points, crossed-point sets).
Reach = tuple[int, int, int, tuple[int, ...]]

# Move keys sort like the notation: by start point, then end point; a build or promotion
# (a single point) sorts after the steps starting there.
BUILD_CODE, PROMOTE_CODE = 254, 255


def slot(seat: int, kind: int) -> int:
    return 1 + 3 * (seat - 1) + kind


def slot_seat(index: int) -> int:
    return (index - 1) // 3 + 1


def slot_kind(index: int) -> int:
    return (index - 1) % 3


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True, order=True)
class Step:
    """A pawn, knight or dragon going from `start` to `end` (point indices)."""

    start: int
    end: int


@dataclass(frozen=True, order=True)
class Build:
    """A new tower on an empty point surrounded by the builder's pieces."""

    point: int


@dataclass(frozen=True, order=True)
class Promote:
    """A pawn next to its owner's tower becomes a knight."""

    point: int


Action = Step | Build | Promote
BoostMove = Action | Pass

_ZOBRIST_RNG = random.Random(0xB0057)
# Fixed random numbers per (slot, point): a position's key is the XOR of its pieces' numbers,
# so a move changes it with two XORs. The same numbers in every process, unlike hash().
ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ZOBRIST_RNG.getrandbits(64) for _ in range(81)) for _ in range(1 + 3 * MAX_SEATS)
)


def zobrist(masks: Masks) -> int:
    key = 0
    for index, mask in enumerate(masks):
        table = ZOBRIST[index]
        for point in bits(mask):
            key ^= table[point]
    return key


def rekey(key: int, before: Masks, after: Masks) -> int:
    """The Zobrist key of `after`, from `before`'s: only the points that changed are XORed."""
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        for point in bits(old ^ new):
            key ^= ZOBRIST[index][point]
    return key


class MoveTable(dict[int, Action]):
    """Move objects by key, made on first use and shared, so generation allocates nothing."""

    def __missing__(self, key: int) -> Action:
        point, code = divmod(key, 256)
        move: Action
        if code == BUILD_CODE:
            move = Build(point)
        elif code == PROMOTE_CODE:
            move = Promote(point)
        else:
            move = Step(point, code)
        self[key] = move
        return move


class Geometry:
    """Everything about one board size that never changes."""

    def __init__(self, size: int) -> None:
        self.size = size
        count = size * size
        self.count = count
        self.full = (1 << count) - 1
        self.names = tuple(square_name(divmod(i, size)) for i in range(count))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.center = count // 2
        self.not_top = sum(1 << i for i in range(count) if i % size != size - 1)
        self.not_bottom = sum(1 << i for i in range(count) if i % size != 0)
        self.interior = sum(
            1 << i for i in range(count) if 0 < i % size < size - 1 and 0 < i // size < size - 1
        )
        directions = ((0, 1), (1, 0), (0, -1), (-1, 0))
        neighbours: list[tuple[int, ...]] = []
        lines: list[tuple[tuple[int, int], ...]] = []
        for i in range(count):
            file, rank = divmod(i, size)
            near, line = [], []
            for df, dr in directions:
                if self.on_board(file + df, rank + dr):
                    near.append(self.at(file + df, rank + dr))
                    if self.on_board(file + 2 * df, rank + 2 * dr):
                        line.append(
                            (self.at(file + df, rank + dr), self.at(file + 2 * df, rank + 2 * dr))
                        )
            neighbours.append(tuple(sorted(near)))
            lines.append(tuple(line))
        self.neighbours = tuple(neighbours)
        self.neighbour_mask = tuple(sum(1 << n for n in near) for near in self.neighbours)
        self.lines = tuple(lines)
        self.reach: dict[int, tuple[Reach, ...]] = {}
        self.moves = MoveTable()

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.size and 0 <= rank < self.size

    def at(self, file: int, rank: int) -> int:
        return file * self.size + rank

    def point(self, index: int) -> tuple[int, int]:
        """(file, rank), as highlights and renderers use."""
        return divmod(index, self.size)

    def mirror(self, index: int) -> int:
        """The point opposite through the centre (a half turn)."""
        return self.count - 1 - index

    def adjacent(self, mask: int) -> int:
        """Every point orthogonally next to a point of `mask`."""
        size = self.size
        return (
            ((mask >> 1) & self.not_top)
            | ((mask << 1) & self.not_bottom)
            | (mask >> size)
            | ((mask << size) & self.full)
        )

    def surrounded(self, mask: int) -> int:
        """Interior points whose four neighbours all belong to `mask`."""
        size = self.size
        return self.interior & (mask >> 1) & (mask << 1) & (mask >> size) & (mask << size)

    def walks(self, start: int, steps: int) -> tuple[Reach, ...]:
        """Where a walk of exactly `steps` steps from `start` can end, never revisiting a point
        (the start included), with the sets of points each such walk crosses on the way."""
        key = start * 8 + steps
        table = self.reach.get(key)
        if table is None:
            crossed: dict[int, set[int]] = {}

            def extend(point: int, visited: int, left: int) -> None:
                for nxt in self.neighbours[point]:
                    bit = 1 << nxt
                    if visited & bit:
                        continue
                    if left == 1:
                        crossed.setdefault(nxt, set()).add(visited & ~(1 << start))
                    else:
                        extend(nxt, visited | bit, left - 1)

            extend(start, 1 << start, steps)
            table = tuple(
                (end, 1 << end, _union(paths), tuple(sorted(paths)))
                for end, paths in sorted(crossed.items())
            )
            self.reach[key] = table
        return table

    def route(self, start: int, end: int, steps: int, occupied: int) -> tuple[int, ...]:
        """One concrete path (start to end, points in order) of the given length that avoids
        `occupied` except at `end`; the first in a fixed order, for drawing the last move."""

        def extend(point: int, path: list[int], visited: int) -> list[int] | None:
            if len(path) == steps + 1:
                return path if point == end else None
            for nxt in self.neighbours[point]:
                bit = 1 << nxt
                if visited & bit or (occupied & bit and nxt != end):
                    continue
                if nxt == end and len(path) != steps:
                    continue
                found = extend(nxt, [*path, nxt], visited | bit)
                if found:
                    return found
            return None

        return tuple(extend(start, [start], 1 << start) or (start, end))


def _union(masks: set[int]) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total


GEOMETRIES = {size: Geometry(size) for size in (9, 7)}


# --- move generation ----------------------------------------------------------------------


def occupied(masks: Masks) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total


def own_mask(masks: Masks, seat: int) -> int:
    base = 1 + 3 * (seat - 1)
    return masks[base] | masks[base + 1] | masks[base + 2]


def step_count(geo: Geometry, point: int, occ: int) -> int:
    """1 + the number of occupied orthogonal neighbours (any piece, dragons included)."""
    return (geo.neighbour_mask[point] & occ).bit_count() + 1


def action_keys(geo: Geometry, masks: Masks, seat: int) -> list[int]:
    """Every action of `seat` allowed by the board alone (repetition not considered), as keys
    (start * 256 + end for a step, point * 256 + BUILD_CODE or PROMOTE_CODE), sorted."""
    base = 1 + 3 * (seat - 1)
    pawns, knights, towers = masks[base], masks[base + 1], masks[base + 2]
    occ = 0
    for mask in masks:
        occ |= mask
    own = pawns | knights | towers
    keys: list[int] = []
    append = keys.append
    # Pawns and dragons end on an empty point; knights may end on another player's piece.
    _add_walks(append, geo, pawns | (masks[DRAGONS] & geo.adjacent(own)), occ, occ)
    _add_walks(append, geo, knights, occ, own | masks[DRAGONS])
    if towers.bit_count() < MAX_TOWERS:
        for point in bits(geo.surrounded(own) & ~occ):
            append(point << 8 | BUILD_CODE)
    if knights.bit_count() < towers.bit_count():
        for point in bits(pawns & geo.adjacent(towers)):
            append(point << 8 | PROMOTE_CODE)
    keys.sort()
    return keys


def _add_walks(
    append: Callable[[int], None], geo: Geometry, movers: int, occ: int, end_blocked: int
) -> None:
    """Append the step keys of every mover: an end point not in `end_blocked`, reached by a
    path of empty points of the mover's exact length."""
    near, cache, walks = geo.neighbour_mask, geo.reach, geo.walks
    while movers:
        low = movers & -movers
        start = low.bit_length() - 1
        movers ^= low
        steps = (near[start] & occ).bit_count() + 1
        table = cache.get(start * 8 + steps) or walks(start, steps)
        head = start << 8
        for end, end_bit, union, paths in table:
            if end_blocked & end_bit:
                continue
            if not occ & union:
                append(head | end)
                continue
            for path in paths:
                if not occ & path:
                    append(head | end)
                    break


# --- resolving a move ---------------------------------------------------------------------


def owner_slot(masks: Sequence[int], point: int) -> int | None:
    bit = 1 << point
    for index, mask in enumerate(masks):
        if mask & bit:
            return index
    return None


def resolve(geo: Geometry, masks: Masks, seat: int, move: Action) -> tuple[Masks, tuple[int, ...]]:
    """The masks after a legal move, and the points whose pieces were captured."""
    after = list(masks)
    captured: list[int] = []
    base = 1 + 3 * (seat - 1)
    if isinstance(move, Build):
        after[base + TOWER] |= 1 << move.point
        return tuple(after), ()
    if isinstance(move, Promote):
        after[base + PAWN] &= ~(1 << move.point)
        after[base + KNIGHT] |= 1 << move.point
        return tuple(after), ()
    mover = owner_slot(masks, move.start)
    assert mover is not None
    end_bit = 1 << move.end
    after[mover] ^= (1 << move.start) | end_bit
    if mover == base + KNIGHT:
        victim = owner_slot(masks, move.end)
        if victim is not None:
            after[victim] &= ~end_bit
            captured.append(move.end)
        return tuple(after), tuple(captured)
    own = after[base] | after[base + 1] | after[base + 2]
    anvil = own | after[DRAGONS]
    for neighbour, beyond in geo.lines[move.end]:
        if not anvil >> beyond & 1:
            continue
        victim = owner_slot(after, neighbour)
        if victim is not None and victim != DRAGONS and not base <= victim < base + 3:
            after[victim] &= ~(1 << neighbour)
            captured.append(neighbour)
    return tuple(after), tuple(captured)


def irreversible(before: Masks, after: Masks) -> bool:
    """True when a pawn or knight left the board or a pawn was promoted.

    Pawns are never created, and knights only by promoting a pawn, so after such a change no
    earlier arrangement can ever come back: the repetition history can start afresh.
    """
    for index in range(1, len(before), 3):
        for kind in (index + PAWN, index + KNIGHT):
            if before[kind].bit_count() != after[kind].bit_count():
                return True
    return False
