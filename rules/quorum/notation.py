"""Quorum's notation: a jump is the active stone's square and the target (`a1e3`), a
placement `place` (also typed `++`)."""

from __future__ import annotations

from rules.notation import squeezed
from rules.quorum.board import NAMES, Jump, Place, QuorumMove

PLACE_WORDS = frozenset({"++", "+", "place", "placement"})


def format_move(move: QuorumMove) -> str:
    if isinstance(move, Jump):
        return NAMES[move.active] + NAMES[move.target]
    return "place" if isinstance(move, Place) else "pass"


def move_tokens(move: QuorumMove) -> tuple[str, ...]:
    if isinstance(move, Jump):
        return (NAMES[move.active], NAMES[move.target])
    return (format_move(move),)


def normalize(text: str) -> str:
    cleaned = squeezed(text)
    return "place" if cleaned in PLACE_WORDS else cleaned
