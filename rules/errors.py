"""The refusals a player can cause, typed by cause, each a catalogue key and its values.

An error names what went wrong (`rules.quorum.no_stone`, `square="c3"`) and the bot words it
for the player in their language (bot/texts/en.toml [rules] in English): what was wrong and
what would be right. `key` and `values` have the shape of `rules.phrases.Phrase`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RulesError(ValueError):
    """Base of every error a player can cause: a catalogue key and its named values."""

    def __init__(self, key: str, /, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values: Mapping[str, Any] = values

    def __str__(self) -> str:
        """The key and its values, for logs; a player reads the catalogue's words."""
        shown = ", ".join(f"{name}={value!r}" for name, value in self.values.items())
        return f"{self.key}({shown})"


class UnknownGame(RulesError):
    """No game has that name."""


class UnknownVariant(RulesError):
    """The game has no such variant, or the variant not that many players."""


class InvalidMove(RulesError):
    """The text is not a move at all (syntax)."""


class IllegalMove(RulesError):
    """The text names a move the rules forbid here."""


class InvalidDiagram(RulesError):
    """The text is not a diagram of a position of the game."""


class InvalidState(RulesError):
    """A dumped state that cannot be loaded (wrong version, corrupt data)."""


class InvalidRecord(RulesError):
    """A game record that cannot be read or replayed."""
