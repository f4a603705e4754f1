"""Pure game logic: the registry of games and the shared rules API."""

from __future__ import annotations

from typing import Any

from rules.boku import Boku
from rules.boost import Boost
from rules.core import (
    PASS,
    CommonState,
    Game,
    Highlight,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidRecord,
    InvalidState,
    MoveTree,
    Outcome,
    Pass,
    Reason,
    RulesError,
    UnknownGame,
    UnknownVariant,
    Variant,
)
from rules.kyo import Kyo
from rules.quorum import Quorum
from rules.razzle import RazzleDazzle
from rules.records import Record

# The fixed order in which games are offered.
GAMES: dict[str, Game[Any, Any]] = {
    game.name: game for game in (Boost(), Quorum(), Boku(), RazzleDazzle(), Kyo())
}


def get_game(name: str) -> Game[Any, Any]:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise UnknownGame(f"no game called {name!r}; choose from: {', '.join(GAMES)}") from None


__all__ = [
    "GAMES",
    "PASS",
    "CommonState",
    "Game",
    "Highlight",
    "IllegalMove",
    "InvalidDiagram",
    "InvalidMove",
    "InvalidRecord",
    "InvalidState",
    "MoveTree",
    "Outcome",
    "Pass",
    "Reason",
    "Record",
    "RulesError",
    "UnknownGame",
    "UnknownVariant",
    "Variant",
    "get_game",
]
