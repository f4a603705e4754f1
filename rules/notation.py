"""Notation every game shares: squares named by file letter and rank number (rank 1 at the
first player's side), and the form typed text and canonical notation are compared in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import InvalidMove

Point = tuple[int, int]

FILES = "abcdefghijklmnopqrstuvwxyz"
_SQUARE = re.compile(r"([a-z])(\d{1,2})")


def square_name(point: Point) -> str:
    return f"{FILES[point[0]]}{point[1] + 1}"


def parse_square(text: str, width: int, height: int) -> Point:
    """'c3' -> (2, 2); raises InvalidMove for anything that is not a square of the board."""
    match = _SQUARE.fullmatch(text.strip().lower())
    if not match:
        raise InvalidMove("rules.square.unreadable", text=text)
    point = (FILES.index(match[1]), int(match[2]) - 1)
    if not (0 <= point[0] < width and 0 <= point[1] < height):
        last = square_name((width - 1, height - 1))
        raise InvalidMove("rules.square.off_board", square=text, last=last)
    return point


@dataclass(frozen=True)
class Rect:
    """A rectangular board whose squares are numbered rank by rank from a1 (index 0)."""

    width: int
    height: int

    def index(self, point: Point) -> int:
        return point[1] * self.width + point[0]

    def point(self, index: int) -> Point:
        return index % self.width, index // self.width

    def name(self, index: int) -> str:
        return square_name(self.point(index))

    def contains(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height


def split_squares(text: str) -> list[str]:
    """'a1-E3', 'a1 e3', 'A1E3' -> ['a1', 'e3']."""
    return [m.group(0) for m in _SQUARE.finditer(text.lower())]


def squeezed(text: str) -> str:
    """Typed text as notation is compared: lower case, without spaces, dashes and commas."""
    return re.sub(r"[\s\-,]+", "", text.lower())
