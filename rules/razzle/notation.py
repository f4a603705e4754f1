"""Razzle Dazzle's notation: a knight move is two squares (`b1-c3`), a chain of throws the
squares the ball visits (`d1-e1-e5`); the seed's step form (`d1-e1, e1-e5, end`) is read too."""

from __future__ import annotations

import re

from rules.errors import InvalidMove
from rules.notation import split_squares, squeezed
from rules.razzle.board import NAMES, Chain, Knight, RazzleMove

_STEP_SEPARATORS = re.compile(r"[,;]")
_FILLER = re.compile(r"[\s\-]+")


def read_segments(text: str) -> list[list[str]]:
    """Typed text -> its comma-separated segments as squares ([['pass']] for a pass).

    The path form `d1-e1-e5` is one segment; the seed's step form `d1-e1, e1-e5, end` has one
    per throw. InvalidMove when the text is not squares at all.
    """
    parts = [_FILLER.sub("", s) for s in _STEP_SEPARATORS.split(text.strip().lower())]
    ended = bool(parts) and parts[-1].endswith("end")
    if ended:
        parts[-1] = parts[-1][: -len("end")]
    parts = [p for p in parts if p]
    if parts == ["pass"]:
        return [["pass"]]
    if not parts and ended:
        raise InvalidMove("rules.razzle.end_alone")
    garbled = InvalidMove("rules.razzle.unreadable", text=text.strip())
    if not parts and text.strip():
        raise garbled
    segments = []
    for part in parts:
        squares = split_squares(part)
        if "".join(squares) != part:
            raise garbled
        segments.append(squares)
    return segments


def broken_at(segments: list[list[str]]) -> int | None:
    """The first segment that does not start where the previous one ended, if any."""
    for number in range(1, len(segments)):
        squares = segments[number]
        if len(squares) > 1 and squares[0] != segments[number - 1][-1]:
            return number
    return None


def joined_path(segments: list[list[str]]) -> list[str]:
    """Continuing segments as one path, a square repeated at a joint written once."""
    path = [square for segment in segments for square in segment]
    return [s for i, s in enumerate(path) if i == 0 or s != path[i - 1]]


def move_tokens(move: RazzleMove) -> tuple[str, ...]:
    if isinstance(move, Knight):
        return (NAMES[move.origin], NAMES[move.target])
    if isinstance(move, Chain):
        return tuple(map(NAMES.__getitem__, move.path))
    return ("pass",)


def format_move(move: RazzleMove) -> str:
    return "-".join(move_tokens(move))


def normalize(text: str) -> str:
    try:
        segments = read_segments(text)
    except InvalidMove:
        return "?" + squeezed(text)
    if broken_at(segments) is not None:
        return "?" + squeezed(text)
    return "".join(joined_path(segments))
