"""Alpha-beta for games whose playouts are too slow or too noisy (Boost, Kyo).

Paranoid search: the seat at the root maximises its evaluation, every other seat minimises
it, which turns any number of players into a two-sided search that alpha-beta can prune.
Iterative deepening with a transposition table: each iteration tries the previous best move
first, the rest ordered by the evaluator's cheap guess and, deeper in the tree, by the static
score of the position each leads to. When time runs out inside an iteration, its best move
is kept only if the previous best had been searched (it goes first), so it is never worse.
"""

from __future__ import annotations

import random
from typing import Any

from ai.base import Budget, Choice, Evaluator, Limit, OutOfBudget, judged, logistic, seat_chances
from rules.core import Game
from rules.playout import random_move

WIN = 1_000_000.0
EXACT, LOWER, UPPER = 0, 1, 2


# Of the time left, what listing one node's moves may take: the rest is for searching them.
LISTING_SHARE = 0.5


def searched_moves(game: Game[Any, Any], state: Any, budget: Budget) -> list[Any]:
    """The moves to search: every legal move, except where a position may have too many to
    list in time (Kyo); there, those the lazy move tree yields in the time left."""
    left = budget.seconds_left()
    if not game.may_list_slowly or left is None:
        return list(game.legal_moves(state))
    return list(game.move_tree(state).moves(left * LISTING_SHARE))


class AlphaBeta:
    """The Bot for games searched with an evaluation."""

    def __init__(self, evaluator: Evaluator, max_depth: int = 64) -> None:
        self.evaluator = evaluator
        self.max_depth = max_depth

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        moves = searched_moves(game, state, budget)
        players = game.players(state)
        if not moves:  # the time ran out before the lazy tree yielded one
            move = random_move(game, state, rng)
            return Choice(
                move, {"nodes": 0, "depth": 0, "chances": judged(self.evaluator, state, players)}
            )
        if len(moves) == 1:
            return Choice(
                moves[0],
                {"nodes": 0, "depth": 0, "chances": judged(self.evaluator, state, players)},
            )
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        moves.sort(key=lambda m: -self.evaluator.priority(state, m))
        search = _Search(game, self.evaluator, game.to_move(state), budget)
        best, value, depth = moves[0], 0.0, 0
        for target in range(1, self.max_depth + 1):
            found, found_value, complete, values = search.root(state, moves, target)
            if found is not None:
                best, value = found, found_value
                depth = target if complete else depth
            if not complete or abs(value) >= WIN / 2:
                break
            moves.sort(key=lambda m: -values[m])  # stable: the best first, ties kept
        chances = seat_chances(
            game.to_move(state), value_chance(value, self.evaluator.scale), players
        )
        info = {"nodes": search.budget.nodes, "depth": depth, "value": value, "chances": chances}
        return Choice(best, info)


def value_chance(value: float, scale: float) -> float:
    """A search value as the root seat's win probability: certain for a found win or loss."""
    if value >= WIN / 2:
        return 1.0
    if value <= -WIN / 2:
        return 0.0
    return logistic(value, scale)


class _Search:
    def __init__(self, game: Game[Any, Any], evaluator: Evaluator, seat: int, budget: Budget):
        self.game = game
        self.evaluator = evaluator
        self.seat = seat
        self.budget = budget
        self.table: dict[Any, tuple[int, float, int, Any]] = {}

    def root(
        self, state: Any, moves: list[Any], depth: int
    ) -> tuple[Any, float, bool, dict[Any, float]]:
        """The best root move at `depth`, its value, whether every move was searched, and each
        searched move's value (a bound for those that could not beat the best)."""
        best, best_value = None, -WIN * 2
        values: dict[Any, float] = {}
        for move in moves:
            child = self.game.apply(state, move, check=False)
            try:
                value = self._value(child, depth - 1, 1, best_value, WIN * 2)
            except OutOfBudget:
                return best, best_value, False, values
            values[move] = value
            if value > best_value:
                best, best_value = move, value
        return best, best_value, True, values

    def _value(self, state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The root seat's value of `state`, searched `depth` plies further."""
        if self.budget.exhausted():
            raise OutOfBudget
        self.budget.spend()
        outcome = self.game.outcome(state)
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return WIN - ply if self.seat in outcome.winners else -WIN + ply
        if depth <= 0:
            return self.evaluator.score(state, self.seat)
        key = self.evaluator.key(state)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored, flag, hint = entry
            if stored_depth >= depth and (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                return stored
        maximising = self.game.to_move(state) == self.seat
        children = self._ordered(state, hint, depth, maximising)
        start_alpha, start_beta = alpha, beta
        best_value = -WIN * 2 if maximising else WIN * 2
        best_move = None
        for move, child in children:
            value = self._value(child, depth - 1, ply + 1, alpha, beta)
            if maximising and value > best_value:
                best_value, best_move = value, move
                alpha = max(alpha, value)
            elif not maximising and value < best_value:
                best_value, best_move = value, move
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best_value <= start_alpha:
            flag = UPPER
        elif best_value >= start_beta:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (depth, best_value, flag, best_move)
        return best_value

    def _ordered(
        self, state: Any, hint: Any, depth: int, maximising: bool
    ) -> list[tuple[Any, Any]]:
        """Children, the stored best move first; deeper than one ply, best-looking next."""
        game, evaluator = self.game, self.evaluator
        found = searched_moves(game, state, self.budget)
        if self.budget.exhausted():  # a cut listing would misjudge this node
            raise OutOfBudget
        moves = sorted(found, key=lambda m: -evaluator.priority(state, m))
        children = []
        for move in moves:  # a Kyo node can have thousands: keep an eye on the clock
            if self.budget.exhausted():
                raise OutOfBudget
            children.append((move, game.apply(state, move, check=False)))
        if depth >= 2:
            sign = -1.0 if maximising else 1.0
            scores = {}
            for move, child in children:  # one evaluation each, the clock watched
                if self.budget.exhausted():
                    raise OutOfBudget
                scores[move] = sign * self._static(child)
            children.sort(key=lambda mc: scores[mc[0]])
        if hint is not None:
            for index, (move, _) in enumerate(children):
                if move == hint:
                    children.insert(0, children.pop(index))
                    break
        return children

    def _static(self, state: Any) -> float:
        outcome = self.game.outcome(state)
        if outcome is None:
            return self.evaluator.score(state, self.seat)
        if outcome.is_draw:
            return 0.0
        return WIN if self.seat in outcome.winners else -WIN
