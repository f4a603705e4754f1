"""Boost positions as text: the diagrams of docs/notation.md, also used for saved boards."""

from __future__ import annotations

from collections.abc import Collection

from rules.boost.board import (
    DRAGONS,
    GEOMETRIES,
    MAX_SEATS,
    Masks,
    owner_slot,
    slot,
    slot_kind,
    slot_seat,
)
from rules.boost.state import BoostState, settle
from rules.diagrams import grid_rows, parse_seat, split_diagram
from rules.errors import InvalidDiagram

LETTERS = "PKT"
SIZE_VARIANT = {9: "standard", 7: "mini"}
KEYS = ("players", "to move", "variant", "resigned")


def parse(text: str, variants: Collection[str]) -> BoostState:
    rows, keys = split_diagram(text)
    size = sum(1 for row in rows if [t.lower() for t in row] != list("abcdefghi"[: len(row)]))
    if size not in GEOMETRIES:
        raise InvalidDiagram("rules.boost.diagram.rows", rows=size)
    geo = GEOMETRIES[size]
    unknown = set(keys) - set(KEYS)
    if unknown:
        raise InvalidDiagram(
            "rules.boost.diagram.key", name=sorted(unknown)[0], keys=", ".join(KEYS)
        )
    pieces: dict[int, int] = {}
    highest = 2
    for row_number, row in enumerate(grid_rows(rows, size, size)):
        rank = size - 1 - row_number
        for file, cell in enumerate(row):
            point = geo.at(file, rank)
            if cell == ".":
                continue
            if cell == "D":
                index = DRAGONS
            else:
                seat, kind = _read_cell(cell, geo.names[point])
                highest = max(highest, seat)
                index = slot(seat, kind)
            pieces[index] = pieces.get(index, 0) | 1 << point
    players = int(keys["players"]) if keys.get("players", "").isdigit() else highest
    if not 2 <= players <= MAX_SEATS or highest > players:
        raise InvalidDiagram(
            "rules.boost.diagram.players",
            most=MAX_SEATS,
            highest=highest,
            players=str(keys.get("players")),
        )
    masks = tuple(pieces.get(index, 0) for index in range(1 + 3 * players))
    variant = keys.get("variant", SIZE_VARIANT[size]).strip().lower()
    if variant not in variants or (variant == "mini") != (size == 7):
        raise InvalidDiagram("rules.boost.diagram.variant", variant=variant, size=size)
    resigned = tuple(sorted({parse_seat(s, players) for s in keys.get("resigned", "").split()}))
    turn = parse_seat(keys.get("to move", "1"), players)
    return settle(BoostState(masks, variant=variant, players=players, turn=turn, resigned=resigned))


def format_text(state: BoostState) -> str:
    lines = rows(state, numbered=state.players > 2)
    if state.players != 2:
        lines.append(f"players: {state.players}")
    if state.variant != SIZE_VARIANT[state.size]:
        lines.append(f"variant: {state.variant}")
    if state.resigned:
        lines.append("resigned: " + " ".join(map(str, state.resigned)))
    lines.append(f"to move: {state.turn}")
    return "\n".join(lines)


def rows(state: BoostState, *, numbered: bool) -> list[str]:
    """The board lines, far rank first, then the file letters."""
    geo = GEOMETRIES[state.size]
    width = 2 if numbered else 1
    lines = []
    for rank in range(geo.size - 1, -1, -1):
        cells = [
            _cell(owner_slot(state.masks, geo.at(file, rank)), numbered).ljust(width)
            for file in range(geo.size)
        ]
        lines.append(f"{rank + 1} " + " ".join(cells).rstrip())
    lines.append("  " + " ".join(f.ljust(width) for f in "abcdefghi"[: geo.size]).rstrip())
    return lines


def key_text(masks: Masks) -> str:
    """An arrangement as exact, JSON-safe text: the masks in hexadecimal."""
    return ".".join(format(mask, "x") for mask in masks)


def key_masks(text: str, length: int) -> Masks:
    masks = tuple(int(part, 16) for part in text.split("."))
    if len(masks) != length:
        raise ValueError(f"history entry {text!r} does not fit the board")
    return masks


def _read_cell(cell: str, name: str) -> tuple[int, int]:
    """'p' / 'K' (two-player style) or 'T3' (numbered) -> (seat, kind)."""
    letter, number = cell[:1], cell[1:]
    kind = LETTERS.find(letter.upper())
    if kind < 0 or (number and not number.isdigit()):
        raise InvalidDiagram("rules.boost.diagram.cell", point=name, cell=cell)
    if number:
        seat = int(number)
        if not 1 <= seat <= MAX_SEATS:
            raise InvalidDiagram("rules.boost.diagram.seat", point=name, cell=cell, most=MAX_SEATS)
        return seat, kind
    return (1 if letter.islower() else 2), kind


def _cell(holder: int | None, numbered: bool) -> str:
    if holder is None:
        return "."
    if holder == DRAGONS:
        return "D"
    seat, letter = slot_seat(holder), LETTERS[slot_kind(holder)]
    if numbered:
        return f"{letter}{seat}"
    return letter.lower() if seat == 1 else letter
