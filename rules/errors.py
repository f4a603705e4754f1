"""The refusals a player can cause: typed by cause, each worded for the player."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error a player can cause; the message is written for the player."""


class UnknownGame(RulesError):
    pass


class UnknownVariant(RulesError):
    pass


class InvalidMove(RulesError):
    """The text is not a move at all (syntax)."""


class IllegalMove(RulesError):
    """The text names a move the rules forbid here."""


class InvalidDiagram(RulesError):
    pass


class InvalidState(RulesError):
    """A dumped state that cannot be loaded (wrong version, corrupt data)."""


class InvalidRecord(RulesError):
    pass
