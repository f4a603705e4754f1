"""What every game's state shares: the common fields, the last turn's highlight, the pass
move, and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.notation import Point
from rules.outcomes import Outcome, outcome_from_json, outcome_to_json


@dataclass(frozen=True)
class Pass:
    """The only legal turn of a player who cannot act; the match service plays it."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True)
class Highlight:
    """What the last turn did, kept in the state so any later render can mark it."""

    seat: int
    notation: str
    path: tuple[Point, ...] = ()
    captured: tuple[Point, ...] = ()
    changed: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "notation": self.notation,
            "path": [list(p) for p in self.path],
            "captured": [list(p) for p in self.captured],
            "changed": [list(p) for p in self.changed],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Highlight:
        def points(key: str) -> tuple[Point, ...]:
            return tuple((int(a), int(b)) for a, b in data.get(key, ()))

        return cls(
            int(data["seat"]),
            str(data["notation"]),
            points("path"),
            points("captured"),
            points("changed"),
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class CommonState:
    """The fields every game's state carries, declared once so the shared code can read them.

    Keyword-only, so a game's own fields (its board first) keep their positions in the
    constructor; frozen, so they read as read-only properties.
    """

    variant: str = "standard"
    players: int = 2
    turn: int = 1
    """The seat to move, 1-based."""
    ply: int = 0
    """Turns played so far, passes included."""
    result: Outcome | None = None
    """None while the game goes on."""
    last: Highlight | None = None
    """What the last turn did, for renderers."""


def next_seat(seat: int, players: int) -> int:
    return seat % players + 1


def highlight_to_json(highlight: Highlight | None) -> dict[str, Any] | None:
    return None if highlight is None else highlight.to_json()


def highlight_from_json(data: Mapping[str, Any] | None) -> Highlight | None:
    return None if data is None else Highlight.from_json(data)


def common_to_json(state: CommonState) -> dict[str, Any]:
    """The fields every state has, for a game's `_encode`."""
    return {
        "variant": state.variant,
        "players": state.players,
        "turn": state.turn,
        "ply": state.ply,
        "result": outcome_to_json(state.result),
        "last": highlight_to_json(state.last),
    }


def common_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for the common fields, for a game's `_decode`."""
    return {
        "variant": str(data["variant"]),
        "players": int(data["players"]),
        "turn": int(data["turn"]),
        "ply": int(data["ply"]),
        "result": outcome_from_json(data["result"]),
        "last": highlight_from_json(data["last"]),
    }
