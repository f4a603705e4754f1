"""Threats that win by force within the opponent's next two turns, where a game has a cheap
way to see them: Boku's open three (and broken three), which one placement turns into two
winning cells where a block can close only one.

Every level checks its move with it (`ai.choose`): the searches at these budgets reach two or
three plies in a Boku middle game, one short of seeing a three become a five, and level 1's
40 nodes not even one.
Captures are left out: a capture that breaks the row would make a threat seen here a false
alarm, which costs a block the position may not have needed, never a lost game.
"""

from __future__ import annotations

from typing import Any

from rules.boku.board import EMPTY, LAYOUT, WINDOWS, put, wins


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
