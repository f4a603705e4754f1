"""Kyo's search: one ply over every turn, then the reply to the few turns worth one.

A Kyo position has hundreds of turns (each applied and scored in ~60 us, listed in ~6 ms),
so a full two-ply search costs tens of seconds. Instead every root turn is applied and
scored (a win is played at once); then, best-scored first, each turn is answered with every
reply of the opponent (strikes first) and valued at its worst reply, stopping a turn's
replies as soon as one refutes it below the best turn so far (alpha-beta's cut at two
plies). The turns examined so when the time ends are the ones worth a reply; the best of
them by its worst reply is played, or the best one-ply turn if not one was examined.
"""

from __future__ import annotations

import random
from typing import Any

from ai.alphabeta import WIN, value_chance
from ai.base import Budget, Choice, Evaluator, Limit, OutOfBudget, judged, seat_chances
from ai.reference import listed_moves
from rules.core import Game
from rules.playout import random_move


class SelectiveTwoPly:
    """The Bot for Kyo (any game whose positions have too many turns to search deeper)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        seat, players = game.to_move(state), game.players(state)
        moves = listed_moves(game, state, budget)
        if len(moves) <= 1:  # one move, or the time ran out before the lazy tree yielded one
            move = moves[0] if moves else random_move(game, state, rng)
            chances = judged(self.evaluator, state, players)
            return Choice(move, {"nodes": 0, "depth": 0, "chances": chances})
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        moves.sort(key=lambda m: -self.evaluator.priority(state, m))
        scored: list[tuple[float, Any, Any]] = []
        for move in moves:
            if scored and budget.exhausted():
                break
            budget.spend()
            after = game.apply(state, move, check=False)
            value = self._static(game, after, seat)
            if value >= WIN / 2:
                return self._choice(move, value, 1, budget, seat, players)
            scored.append((value, move, after))
        scored.sort(key=lambda entry: -entry[0])
        best_move, best_value, depth = scored[0][1], scored[0][0], 1
        answered = -WIN * 2
        for _, move, after in scored:
            try:
                value = self._worst_reply(game, after, seat, answered, budget)
            except OutOfBudget:
                break
            if value > answered:
                answered, best_move, depth = value, move, 2
        if depth == 2:
            best_value = answered
        return self._choice(best_move, best_value, depth, budget, seat, players)

    def _worst_reply(
        self, game: Game[Any, Any], after: Any, seat: int, floor: float, budget: Budget
    ) -> float:
        """The value of `after` for `seat` at the opponent's best reply, or any value at or
        below `floor` once a reply shows it is no better than that."""
        if game.outcome(after) is not None:
            return self._static(game, after, seat)
        replies = listed_moves(game, after, budget)
        if budget.exhausted():  # a cut listing would misjudge this turn
            raise OutOfBudget
        replies.sort(key=lambda m: -self.evaluator.priority(after, m))
        worst = WIN * 2
        for reply in replies:
            if budget.exhausted():
                raise OutOfBudget
            budget.spend()
            worst = min(worst, self._static(game, game.apply(after, reply, check=False), seat))
            if worst <= floor:
                break
        return worst

    def _static(self, game: Game[Any, Any], state: Any, seat: int) -> float:
        outcome = game.outcome(state)
        if outcome is None:
            return self.evaluator.score(state, seat)
        if outcome.is_draw:
            return 0.0
        return WIN if seat in outcome.winners else -WIN

    def _choice(
        self, move: Any, value: float, depth: int, budget: Budget, seat: int, players: int
    ) -> Choice:
        chances = seat_chances(seat, value_chance(value, self.evaluator.scale), players)
        info = {"nodes": budget.nodes, "depth": depth, "value": value, "chances": chances}
        return Choice(move, info)
