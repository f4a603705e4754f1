"""Alpha-beta over the rules' own API, for games with few moves a position (Quorum, Razzle).

Paranoid search: the seat at the root maximises its evaluation, every other seat minimises
it, which turns any number of players into a two-sided search that alpha-beta can prune.
Iterative deepening with a transposition table; a node's children are ordered without being
applied (the table's best move, then the evaluator's cheap guess, the killer moves of the
ply and the history of cut-offs) and each is applied only when its turn to be searched comes,
so what a cut-off skips costs nothing. When time runs out inside an iteration, its best move
is kept only if the previous best had been searched (it goes first), so it is never worse:
a move is always ready. Boost has its own faster version of this search (ai/boost.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from ai.base import (
    WIN,
    Budget,
    Choice,
    Evaluator,
    Limit,
    OutOfBudget,
    seat_chances,
    value_chance,
)
from ai.reference import forced, listed_moves
from rules.game import Game

EXACT, LOWER, UPPER = 0, 1, 2
# Ordering: the table's move, then the evaluator's guess (units of PRIORITY), killers, history.
FIRST, PRIORITY, KILLER = 1e12, 1e9, 1e8
LINE = 6  # moves of the expected line a choice reports (`info["line"]`)


# One iteration: (root moves in order, depth) -> (best move or None, value, complete).
Iteration = Callable[[list[Any], int], tuple[Any, float, bool]]


def deepen(iteration: Iteration, moves: list[Any], max_depth: int) -> tuple[Any, float, int]:
    """Iterative deepening: the best move, its value and the last depth searched completely.
    Each iteration tries the previous best first, so an unfinished one that got past it can
    only have found better: the move ready when the budget ends is never worse, and its
    value, the deeper one, is kept. But a loss is found only by a finished iteration: the
    moves searched seen to lose, the others not yet searched, prove nothing of those, so the
    value stays the last finished iteration's. Boku's search at 0.25 s had called a position
    lost where 0.5 s, at the same depth, found a defence."""
    best, value, depth = moves[0], 0.0, 0
    for target in range(1, max_depth + 1):
        try:
            found, found_value, complete = iteration(moves, target)
        except OutOfBudget:
            break
        if found is not None:
            if complete or found_value > -WIN / 2:
                value = found_value
            best = found
            depth = target if complete else depth
        if not complete or abs(value) >= WIN / 2:
            break
        moves.remove(best)
        moves.insert(0, best)
    return best, value, depth


class Window:
    """A node's alpha-beta window and its best move so far, from the root seat's view: the
    root seat maximises, every other seat minimises (paranoid)."""

    def __init__(self, alpha: float, beta: float, maximising: bool) -> None:
        self.alpha, self.beta, self.maximising = alpha, beta, maximising
        self.start = (alpha, beta)
        self.value = -WIN * 2 if maximising else WIN * 2
        self.move: Any = None

    def offer(self, value: float, move: Any) -> bool:
        """Take a child's value; True when the window closes (a cut-off)."""
        if self.maximising and value > self.value:
            self.value, self.move = value, move
            self.alpha = max(self.alpha, value)
        elif not self.maximising and value < self.value:
            self.value, self.move = value, move
            self.beta = min(self.beta, value)
        return self.alpha >= self.beta


class Table:
    """The transposition table: per position, the depth searched, the value, whether it is
    exact or a bound, and the best move (searched first when the position comes again)."""

    def __init__(self) -> None:
        self.entries: dict[Hashable, tuple[int, float, int, Any]] = {}

    def probe(self, key: Hashable, depth: int, alpha: float, beta: float) -> tuple[Any, Any]:
        """(a stored value good enough to return, or None; the stored best move, or None)."""
        entry = self.entries.get(key)
        if entry is None:
            return None, None
        stored_depth, stored, flag, hint = entry
        if stored_depth >= depth and (
            flag == EXACT
            or (flag == LOWER and stored >= beta)
            or (flag == UPPER and stored <= alpha)
        ):
            return stored, hint
        return None, hint

    def store(self, key: Hashable, depth: int, window: Window) -> None:
        alpha, beta = window.start
        if window.value <= alpha:
            flag = UPPER
        elif window.value >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self.entries[key] = (depth, window.value, flag, window.move)


class CutMemory:
    """The moves that caused cut-offs: two killers a ply, and a history over the search."""

    def __init__(self) -> None:
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[Hashable, int] = {}

    def bonus(self, move: Hashable, ply: int) -> float:
        """KILLER for a killer of this ply, plus the move's history."""
        killer = KILLER if move in self.killers.get(ply, ()) else 0.0
        return killer + self.history.get(move, 0)

    def remember(self, move: Hashable, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth


class AlphaBeta:
    """The Bot for games searched with an evaluation."""

    def __init__(self, evaluator: Evaluator, max_depth: int = 64) -> None:
        self.evaluator = evaluator
        self.max_depth = max_depth

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        players = game.players(state)
        moves = listed_moves(game, state, budget)
        if len(moves) <= 1:
            return forced(game, state, moves, self.evaluator, rng)
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        moves.sort(key=lambda m: -self.evaluator.priority(state, m))
        search = _Search(game, self.evaluator, game.to_move(state), budget)
        best, value, depth = deepen(
            lambda ordered, target: search.root(state, ordered, target), moves, self.max_depth
        )
        chances = seat_chances(
            game.to_move(state), value_chance(value, self.evaluator.scale), players
        )
        info = {
            "nodes": budget.nodes,
            "depth": depth,
            "value": value,
            "chances": chances,
            "line": search.line(state, best, LINE),
        }
        return Choice(best, info)


class _Search:
    def __init__(self, game: Game[Any, Any], evaluator: Evaluator, seat: int, budget: Budget):
        self.game = game
        self.evaluator = evaluator
        self.seat = seat
        self.budget = budget
        self.table = Table()
        self.cuts = CutMemory()

    def line(self, state: Any, best: Any, plies: int) -> list[Any]:
        """The line the search expects: its move, then each position's best move from the
        table while the table has one that is legal there (at most `plies` moves)."""
        line = [best]
        state = self.game.apply(state, best, check=False)
        while len(line) < plies and self.game.outcome(state) is None:
            entry = self.table.entries.get(self.evaluator.key(state))
            if entry is None or entry[3] is None or entry[3] not in self.game.legal_moves(state):
                break
            line.append(entry[3])
            state = self.game.apply(state, entry[3], check=False)
        return line

    def root(self, state: Any, moves: list[Any], depth: int) -> tuple[Any, float, bool]:
        """The best root move at `depth`, its value, and whether every move was searched."""
        best, best_value = None, -WIN * 2
        for move in moves:
            try:
                child = self.game.apply(state, move, check=False)
                value = self._value(child, depth - 1, 1, best_value, WIN * 2)
            except OutOfBudget:
                return best, best_value, False
            if value > best_value:
                best, best_value = move, value
        return best, best_value, True

    def _value(self, state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The root seat's value of `state`, searched `depth` plies further."""
        game, budget = self.game, self.budget
        if budget.exhausted():
            raise OutOfBudget
        budget.spend()
        outcome = game.outcome(state)
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return WIN - ply if self.seat in outcome.winners else -WIN + ply
        if depth <= 0:
            return self.evaluator.score(state, self.seat)
        key = self.evaluator.key(state)
        stored, hint = self.table.probe(key, depth, alpha, beta)
        if stored is not None:
            return float(stored)
        moves = listed_moves(game, state, budget)
        if budget.exhausted():  # a cut listing would misjudge this node
            raise OutOfBudget
        window = Window(alpha, beta, game.to_move(state) == self.seat)
        for move in self._ordered(state, moves, hint, ply):
            child = game.apply(state, move, check=False)
            if window.offer(
                self._value(child, depth - 1, ply + 1, window.alpha, window.beta), move
            ):
                self.cuts.remember(move, ply, depth)
                break
        self.table.store(key, depth, window)
        return window.value

    def _ordered(self, state: Any, moves: list[Any], hint: Any, ply: int) -> list[Any]:
        """The moves in the order to search them, guessed without applying any."""
        priority, bonus = self.evaluator.priority, self.cuts.bonus

        def guess(move: Any) -> float:
            if move == hint:
                return FIRST
            return PRIORITY * priority(state, move) + bonus(move, ply)

        return sorted(moves, key=lambda m: -guess(m))
