"""Positions as text (DESIGN section 4): rows from the far side down, then `key: value` lines."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.errors import InvalidDiagram
from rules.notation import FILES

_KEY_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9 _-]*?)\s*:\s*(.*?)$")


def split_diagram(text: str) -> tuple[list[list[str]], dict[str, str]]:
    """Cell rows (labels still in) and trailing `key: value` lines, keys lower-cased."""
    rows: list[list[str]] = []
    keys: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("```"):
            continue
        key_match = _KEY_LINE.match(line)
        if key_match:
            keys[key_match[1].lower()] = key_match[2]
        else:
            rows.append(line.split())
    return rows, keys


def grid_rows(rows: list[list[str]], width: int, height: int) -> list[list[str]]:
    """Strip rank and file labels; return `height` rows of `width` cells, far side first."""
    letters = list(FILES[:width])
    cells: list[list[str]] = []
    for row in rows:
        if [t.lower() for t in row] == letters:
            continue
        trimmed = list(row)
        if len(trimmed) > width and trimmed[0].isdigit():
            trimmed = trimmed[1:]
        if len(trimmed) > width and trimmed[-1].isdigit():
            trimmed = trimmed[:-1]
        if len(trimmed) != width:
            raise InvalidDiagram(
                "rules.diagram.row", row=" ".join(row), cells=len(trimmed), width=width
            )
        cells.append(trimmed)
    if len(cells) != height:
        raise InvalidDiagram("rules.diagram.rows", rows=len(cells), height=height)
    return cells


def parse_seat(value: str, players: int, names: Mapping[str, int] | None = None) -> int:
    lowered = value.strip().lower()
    if names and lowered in names:
        return names[lowered]
    if lowered.isdigit() and len(lowered) <= 2 and 1 <= int(lowered) <= players:
        return int(lowered)
    choices = ", ".join([*(names or {}), *(str(s) for s in range(1, players + 1))])
    raise InvalidDiagram("rules.diagram.seat", value=value, choices=choices)
