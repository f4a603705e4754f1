"""Pure game logic: the registry of games and the shared rules API.

Every game is a package of the same shape (`rules/<game>/`): `board` (geometry, pieces, the
moves and their mechanics), `state` (the position), `game` (the Game subclass), `notation`
(move text in and out), `explain` (why typed text is refused), `diagram` (positions as
text) and `words` (what a move did and how the game stands). What they share is split by
job: `errors`, `outcomes`, `notation` (squares), `movetree`, `state`, `direct` (generated
constructors), `phrases`, `diagrams` and `game` (the base class).

The rules hold no sentences: refusals and descriptions are catalogue keys with named values
(`rules.phrases`), and help topics are names; the bot's catalogue (`bot/texts`) words them,
in English from `rules.toml` and `help.toml`.
"""

from __future__ import annotations

from typing import Any

from rules.boku import Boku
from rules.boost import Boost
from rules.errors import (
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidRecord,
    InvalidState,
    RulesError,
    UnknownGame,
    UnknownVariant,
)
from rules.game import Game, Variant
from rules.kyo import Kyo
from rules.movetree import MoveTree
from rules.outcomes import Outcome, Reason
from rules.quorum import Quorum
from rules.razzle import RazzleDazzle
from rules.records import Record
from rules.state import PASS, CommonState, Highlight, Pass

# The fixed order in which games are offered.
GAMES: dict[str, Game[Any, Any]] = {
    game.name: game for game in (Boost(), Quorum(), Boku(), RazzleDazzle(), Kyo())
}


def get_game(name: str) -> Game[Any, Any]:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise UnknownGame("rules.game.unknown", name=name, games=", ".join(GAMES)) from None


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
