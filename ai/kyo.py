"""Kyo's search: one ply over every turn, then the reply to the few turns worth one.

A Kyo position has hundreds of turns (each applied and scored in ~60 us, listed in ~6 ms),
so a full two-ply search costs tens of seconds. Instead every root turn is applied and
scored (a win is played at once); then, best-scored first, each turn is answered with every
reply of the opponent (strikes first) and valued at its worst reply, stopping a turn's
replies as soon as one refutes it below the best turn so far (alpha-beta's cut at two
plies). A turn whose replies cannot all be listed in the time left is skipped, never judged
by part of them (the reply left out could be the refutation). The turns examined so when the
time ends are the ones worth a reply; the best of them by its worst reply is played, or the
best one-ply turn if not one was examined.
"""

from __future__ import annotations

from typing import Any

from ai.base import (
    WIN,
    Budget,
    OutOfBudget,
    static_value,
)
from ai.reference import Reference, Scored, Verdict, listing
from rules.core import Game


class SelectiveTwoPly(Reference):
    """The Bot for Kyo (any game whose positions have too many turns to search deeper): the
    reference player's first look, then the worst reply to the best-looking turns."""

    def second_look(self, game: Game[Any, Any], seat: int, scored: Scored, b: Budget) -> Verdict:
        answered, best = -WIN * 2, None
        for _, move, after in scored:
            try:
                value = self._worst_reply(game, after, seat, answered, b)
            except OutOfBudget:
                break
            if value is not None and value > answered:
                answered, best = value, move
        if best is None:  # not one turn answered in time: the best one-ply turn
            return scored[0][0], scored[0][1], 1
        return answered, best, 2

    def _worst_reply(
        self, game: Game[Any, Any], after: Any, seat: int, floor: float, budget: Budget
    ) -> float | None:
        """The value of `after` for `seat` at the opponent's best reply, or any value at or
        below `floor` once a reply shows it is no better than that; None when the replies
        could not all be listed in time (a reply left out could be the refutation)."""
        if game.outcome(after) is not None:
            return static_value(game, self.evaluator, after, seat)
        replies, complete = listing(game, after, budget)
        if budget.exhausted():
            raise OutOfBudget
        if not complete:
            return None
        if not replies:
            return static_value(game, self.evaluator, after, seat)
        replies.sort(key=lambda m: -self.evaluator.priority(after, m))
        worst = WIN * 2
        for reply in replies:
            if budget.exhausted():
                raise OutOfBudget
            budget.spend()
            answer = game.apply(after, reply, check=False)
            worst = min(worst, static_value(game, self.evaluator, answer, seat))
            if worst <= floor:
                break
        return worst
