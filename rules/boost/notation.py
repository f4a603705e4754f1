"""Boost's notation: a step is its start and end points (`a1b2`), a build or a promotion the
single point (`d2`)."""

from __future__ import annotations

from rules.boost.board import GEOMETRIES, BoostMove, Build, Promote, Step
from rules.notation import squeezed


def format_move(size: int, move: BoostMove) -> str:
    names = GEOMETRIES[size].names
    if isinstance(move, Step):
        return names[move.start] + names[move.end]
    if isinstance(move, Build | Promote):
        return names[move.point]
    return "pass"


def move_tokens(size: int, move: BoostMove) -> tuple[str, ...]:
    names = GEOMETRIES[size].names
    if isinstance(move, Step):
        return (names[move.start], names[move.end])
    return (format_move(size, move),)


def normalize(text: str) -> str:
    """Canonical notation is already in this form, so `parse_move` compares it as it is."""
    return squeezed(text).replace("x", "")
