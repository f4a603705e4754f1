"""Boku's notation: a placement is its cell (`e5`), a capturing one names the marble it
removes (`e5xf6`); input forgives capitals, spaces, leading zeros and other capture marks."""

from __future__ import annotations

import re

from rules.boku.board import COLUMNS, INDEX, NAMES, SIZE, SPAN, BokuMove, Place
from rules.errors import InvalidMove
from rules.notation import squeezed

MOVE = re.compile(r"([a-z])(\d{1,2})(?:x([a-z])(\d{1,2}))?")
# Forgiving input: "e05" is e5, and "e5f6", "e5:f6" or "e5*f6" mean e5xf6.
_LEADING_ZERO = re.compile(r"(?<=[a-z])0+(?=\d)")
_CAPTURE_MARK = re.compile(r"^([a-z]\d+)[x:*]?([a-z]\d+)$")


def parse_cell(text: str) -> int:
    """'E5' -> its cell number; InvalidMove names the column's range for cells off the board."""
    match = re.fullmatch(r"([a-z])(\d{1,2})", text.strip().lower())
    if not match:
        raise InvalidMove("rules.boku.not_cell", text=text)
    return cell_at(match[1], match[2])


def cell_at(letter: str, number: str) -> int:
    q, r = COLUMNS.find(letter), int(number) - 1
    if (q, r) in INDEX:
        return INDEX[q, r]
    name = f"{letter}{number}"
    if q < 0:
        raise InvalidMove("rules.boku.no_column", cell=name)
    low, high = max(0, q - SPAN) + 1, min(SIZE - 1, q + SPAN) + 1
    raise InvalidMove(
        "rules.boku.off_column",
        cell=name,
        column=letter,
        low=f"{letter}{low}",
        high=f"{letter}{high}",
    )


def format_move(move: BokuMove) -> str:
    if not isinstance(move, Place):
        return "pass"
    if move.removed is None:
        return NAMES[move.cell]
    return f"{NAMES[move.cell]}x{NAMES[move.removed]}"


def move_tokens(move: BokuMove) -> tuple[str, ...]:
    if isinstance(move, Place) and move.removed is not None:
        return (NAMES[move.cell], f"x{NAMES[move.removed]}")
    return (format_move(move),)


def normalize(text: str) -> str:
    cleaned = _LEADING_ZERO.sub("", squeezed(text))
    return _CAPTURE_MARK.sub(r"\1x\2", cleaned)
