"""Kyo's search: one ply over every turn, then the reply to the few turns worth one.

A Kyo position has hundreds of turns (each applied and scored in ~60 us, listed in ~6 ms),
so a full two-ply search costs tens of seconds. Instead every root turn is applied and
scored (a win is played at once); then, best-scored first, each turn is answered with every
reply of the opponent (strikes first) and valued at its worst reply, stopping a turn's
replies as soon as one refutes it below the best turn so far (alpha-beta's cut at two
plies). Where a turn leaves the opponent thousands of replies (a queen on a field of mana),
it is judged by those listed in a quarter of the time left, the shortest first, so every
piece's one-step strikes are among them; such a value is only an upper bound, so a turn
judged by all its replies is preferred whenever there is one. The turns examined so when the time ends are the
ones worth a reply; the best of them by its worst reply is played, or the best one-ply turn
if not one was examined.
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

# Of the time left, what listing one turn's replies may take: a few turns get examined even
# where every turn has thousands of replies.
REPLY_SHARE = 0.25


class SelectiveTwoPly(Reference):
    """The Bot for Kyo (any game whose positions have too many turns to search deeper): the
    reference player's first look, then the worst reply to the best-looking turns."""

    def second_look(self, game: Game[Any, Any], seat: int, scored: Scored, b: Budget) -> Verdict:
        """The best turn by its worst reply. A turn judged by only some of its replies has
        only an upper bound for a value, so it is played only when no turn was judged by all
        of them."""
        best = {True: (-WIN * 2, None), False: (-WIN * 2, None)}  # by all replies seen
        for _, move, after in scored:
            try:
                value, complete = self._worst_reply(game, after, seat, best, b)
            except OutOfBudget:
                break
            if value > best[complete][0]:
                best[complete] = (value, move)
        for complete in (True, False):
            value, found = best[complete]
            if found is not None:
                return value, found, 2
        return scored[0][0], scored[0][1], 1  # not one turn answered in time

    def _worst_reply(
        self,
        game: Game[Any, Any],
        after: Any,
        seat: int,
        floors: dict[bool, tuple[float, Any]],
        budget: Budget,
    ) -> tuple[float, bool]:
        """The value of `after` for `seat` at the opponent's best reply (or any value at or
        below the best so far of turns judged alike, once a reply shows it is no better),
        and whether every reply was seen: replies too many to list in REPLY_SHARE of the
        time left are judged by those listed, the shortest first."""
        if game.outcome(after) is not None:
            return static_value(game, self.evaluator, after, seat), True
        replies, complete = listing(game, after, budget, REPLY_SHARE)
        if budget.exhausted():
            raise OutOfBudget
        if not replies:
            return static_value(game, self.evaluator, after, seat), complete
        replies.sort(key=lambda m: -self.evaluator.priority(after, m))
        floor = floors[complete][0]
        worst = WIN * 2
        for reply in replies:
            if budget.exhausted():
                raise OutOfBudget
            budget.spend()
            answer = game.apply(after, reply, check=False)
            worst = min(worst, static_value(game, self.evaluator, answer, seat))
            if worst <= floor:
                break
        return worst, complete
