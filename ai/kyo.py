"""Kyo's search: one ply over every turn, then the reply to the few turns worth one.

A Kyo position has hundreds of turns (each applied and scored in ~60 us, listed in ~6 ms),
so a full two-ply search costs tens of seconds. Instead every root turn is applied and
scored (a win is played at once); then, best-scored first, each turn is answered with every
reply of the opponent (strikes first) and valued at its worst reply, stopping a turn's
replies as soon as one refutes it below the best turn so far (alpha-beta's cut at two
plies). Where a turn leaves the opponent thousands of replies (a queen on a field of mana),
it is judged by those listed in a quarter of the time left, the shortest first, so every
piece's one-step strikes are among them. The turns examined so when the time ends are the
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
from ai.reference import Reference, Scored, Verdict, listed_moves
from rules.core import Game

# Of the time left, what listing one turn's replies may take: a few turns get examined even
# where every turn has thousands of replies.
REPLY_SHARE = 0.25


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
            if value > answered:
                answered, best = value, move
        if best is None:  # not one turn answered in time: the best one-ply turn
            return scored[0][0], scored[0][1], 1
        return answered, best, 2

    def _worst_reply(
        self, game: Game[Any, Any], after: Any, seat: int, floor: float, budget: Budget
    ) -> float:
        """The value of `after` for `seat` at the opponent's best reply, or any value at or
        below `floor` once a reply shows it is no better than that. Replies too many to list
        in REPLY_SHARE of the time left are judged by those listed, the shortest first."""
        if game.outcome(after) is not None:
            return static_value(game, self.evaluator, after, seat)
        replies = listed_moves(game, after, budget, REPLY_SHARE)
        if budget.exhausted():
            raise OutOfBudget
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
