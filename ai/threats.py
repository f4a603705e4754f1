"""Threats that win by force within the opponent's next two turns, where a game has a cheap
way to see them: Boku's open three (and broken three), which one placement turns into two
winning cells where a block can close only one; Boost's tower in the making, a tower with two
dragons beside it that one move turns into three with a fourth the other seat cannot stop.

Every level checks its move with it (`ai.choose`): the searches at these budgets reach two or
three plies in a Boku middle game, one short of seeing a three become a five, and level 1's
40 nodes not even one.
Captures are left out: a capture that breaks the row would make a threat seen here a false
alarm, which costs a block the position may not have needed, never a lost game.
"""

from __future__ import annotations

from typing import Any

from rules import get_game
from rules.boku.board import EMPTY, LAYOUT, WINDOWS, put, wins
from rules.boost.board import DRAGONS, GEOMETRIES, TOWER, Masks, Step, bits, occupied, slot


def boku_forcing(state: Any) -> bool:
    """Whether the seat to move in a Boku position has a placement after which it has two
    winning cells or more (so that it wins next turn whatever is blocked) and the other seat
    has no five to make first."""
    lines: str = state.lines
    mover = str(state.turn)
    other = str(3 - state.turn)
    for cell in _threatening_cells(lines, mover):
        after = put(lines, cell, mover)
        winning = {
            place
            for start, _, end in WINDOWS[cell]
            for place in _empty_places(after, start, end)
            if wins(after, place, mover)
        }
        if len(winning) >= 2 and not _has_five(after, other):
            return True
    return False


def _threatening_cells(lines: str, mover: str) -> list[int]:
    """Empty cells with two of the mover's marbles in a stretch through them (where a
    placement may make a four with room)."""
    cells = []
    for pos, cell in enumerate(LAYOUT):
        if cell < 0 or lines[pos] != EMPTY:
            continue
        if any(lines.count(mover, start, end) >= 2 for start, _, end in WINDOWS[cell]):
            cells.append(cell)
    return sorted(set(cells))


def _empty_places(lines: str, start: int, end: int) -> list[int]:
    return [LAYOUT[pos] for pos in range(start, min(end, len(LAYOUT))) if lines[pos] == EMPTY]


def _has_five(lines: str, mark: str) -> bool:
    """Whether `mark` can make a five with one placement."""
    return any(
        wins(lines, LAYOUT[pos], mark)
        for pos in range(len(LAYOUT))
        if LAYOUT[pos] >= 0 and lines[pos] == EMPTY
    )


def boost_forcing(state: Any) -> bool:
    """Whether the seat to move in a two-player Boost game has a move after which it wins by
    a tower victory at its next turn whatever the other seat replies. Only a tower with two
    dragons beside it can become one with three and a free fourth point in one move, so any
    other position is answered at once; the replies that touch the tower's ring are tried
    first, as they are the ones that may stop it. Three or four players are left out: the
    seats in between make the next two turns a different question."""
    if state.players != 2 or not _rings(state.masks, state.size, state.turn, 2):
        return False
    game = get_game("boost")
    mover = state.turn
    for move in game.legal_moves(state):
        after = game.apply(state, move, check=False)
        if game.outcome(after) is not None:
            if _won(game, after, mover):
                return True
            continue
        holes = _rings(after.masks, after.size, mover, 3)
        if holes and _wins_after_every_reply(game, after, holes, mover):
            return True
    return False


def _rings(masks: Masks, size: int, seat: int, dragons: int) -> int:
    """The empty points beside the seat's towers that have at least `dragons` dragons beside
    them (each a point a dragon would fill for a tower victory)."""
    geo = GEOMETRIES[size]
    free = ~occupied(masks)
    holes = 0
    for tower in bits(masks[slot(seat, TOWER)]):
        ring = geo.neighbour_mask[tower]
        if ring.bit_count() == 4 and (ring & masks[DRAGONS]).bit_count() >= dragons:
            holes |= ring & free
    return holes


def _wins_after_every_reply(game: Any, after: Any, holes: int, mover: int) -> bool:
    """Whether every reply in `after` leaves `mover` a dragon step into a hole that wins."""
    geo = GEOMETRIES[after.size]
    near = geo.adjacent(holes | geo.adjacent(holes))  # the holes, the tower and its ring
    replies = sorted(
        game.legal_moves(after),
        key=lambda m: not (isinstance(m, Step) and (1 << m.start | 1 << m.end) & near),
    )
    for reply in replies:
        then = game.apply(after, reply, check=False)
        if game.outcome(then) is not None:
            return False
        left = _rings(then.masks, then.size, mover, 3)
        if not any(
            isinstance(m, Step)
            and 1 << m.end & left
            and then.masks[DRAGONS] >> m.start & 1
            and _won(game, game.apply(then, m, check=False), mover)
            for m in game.legal_moves(then)
        ):
            return False
    return True


def _won(game: Any, state: Any, seat: int) -> bool:
    outcome = game.outcome(state)
    return outcome is not None and outcome.winners == (seat,)
