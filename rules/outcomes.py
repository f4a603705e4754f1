"""How a game ended: the fixed vocabulary of reasons, who won, and how a result reads (as
phrases the bot words)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.phrases import Phrase, Words, chained, phrase


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

    def by_seat(self) -> Phrase:
        """`seat 2 wins (resignation)`, `draw (board-full)`: the result by seat numbers and the
        reason's code, for a record's Result header, where no names are known."""
        if self.is_draw:
            return phrase("rules.outcome.draw", reason=self.reason.value)
        seats = ", ".join(str(s) for s in self.winners)
        return phrase("rules.outcome.seats", seats=seats, reason=self.reason.value)


REASONS: Mapping[Reason, str] = {
    Reason.TOWER: "rules.reason.tower",
    Reason.CAPTURE: "rules.reason.capture",
    Reason.QUORUM: "rules.reason.quorum",
    Reason.FIVE: "rules.reason.five",
    Reason.GOAL: "rules.reason.goal",
    Reason.KING: "rules.reason.king",
    Reason.MANA: "rules.reason.mana",
    Reason.REPETITION: "rules.reason.repetition",
    Reason.BOARD_FULL: "rules.reason.board_full",
    Reason.MOVE_LIMIT: "rules.reason.move_limit",
    Reason.NO_MOVES: "rules.reason.no_moves",
    Reason.RESIGNATION: "rules.reason.resignation",
    Reason.TIMEOUT: "rules.reason.timeout",
    Reason.AGREEMENT: "rules.reason.agreement",
}
"""Each reason in words, for what people read (the stored strings are codes)."""


def described(outcome: Outcome | None, names: Sequence[Words]) -> Phrase:
    """How a match's result reads mid-sentence: `draw (agreement)`, `bob wins (resignation)`,
    `ivy and dan win (timeout)`, or that the game goes on; `names[seat - 1]` names a winner."""
    if outcome is None:
        return phrase("rules.outcome.goes_on")
    reason = phrase(REASONS[outcome.reason])
    if outcome.is_draw:
        return phrase("rules.outcome.draw", reason=reason)
    winners = chained([names[seat - 1] for seat in outcome.winners], "rules.list.pair")
    return phrase("rules.outcome.wins", winners=winners, reason=reason, count=len(outcome.winners))


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "reason": outcome.reason.value}


def outcome_from_json(data: Mapping[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(tuple(int(s) for s in data["winners"]), str(data["reason"]))
