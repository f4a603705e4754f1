"""How a game ended: the fixed vocabulary of reasons, and who won."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Reason(StrEnum):
    """Why a game ended: the fixed vocabulary of outcomes, stored as these strings."""

    TOWER = "tower"
    """Boost: a player's tower stands ringed by dragons."""
    CAPTURE = "capture"
    """Boost: every other player has been beaten on the board."""
    QUORUM = "quorum"
    """Quorum: one player holds all four centre squares."""
    FIVE = "five"
    """Boku: five or more of one player's marbles in a row."""
    GOAL = "goal"
    """Razzle Dazzle: the ball reached the far rank."""
    KING = "king"
    """Kyo: the opponent's king was taken."""
    MANA = "mana"
    """Kyo: both of the opponent's mana pieces were taken."""
    REPETITION = "repetition"
    """A position recurred as often as the game's repetition rule allows: a draw."""
    BOARD_FULL = "board-full"
    """Boku: no empty cell is left: a draw."""
    MOVE_LIMIT = "move-limit"
    """The game ran past its longest allowed length: a draw."""
    NO_MOVES = "no-moves"
    """Nobody can act (everyone could only pass), or nobody is left standing: a draw."""
    RESIGNATION = "resignation"
    """A player resigned; the others win."""
    TIMEOUT = "timeout"
    """A player ran out of time."""
    AGREEMENT = "agreement"
    """The players agreed to a draw."""


@dataclass(frozen=True, init=False)
class Outcome:
    """Who won (`winners`, empty for a draw) and why."""

    winners: tuple[int, ...]
    reason: Reason

    def __init__(self, winners: tuple[int, ...], reason: Reason | str) -> None:
        """`reason` may be given as its string; anything outside `Reason` is a ValueError."""
        try:
            known = Reason(reason)
        except ValueError:
            raise ValueError(f"unknown outcome reason {reason!r}") from None
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "reason", known)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def describe(self) -> str:
        if self.is_draw:
            return f"draw ({self.reason})"
        seats = ", ".join(str(s) for s in self.winners)
        return f"seat {seats} wins ({self.reason})"


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "reason": outcome.reason.value}


def outcome_from_json(data: Mapping[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(tuple(int(s) for s in data["winners"]), str(data["reason"]))
