"""Monte Carlo tree search for any number of seats (each node keeps every seat's total).

Selection by UCB1 from the point of view of the seat to move, one child expanded per
simulation, a random playout cut after `playout_plies` and judged by the game's evaluator,
and the most visited root move played. Used where playouts are cheap (Boku, Quorum, Razzle).
"""

from __future__ import annotations

import math
import random
from typing import Any

from ai.base import (
    Budget,
    Choice,
    Evaluator,
    Limit,
    estimate,
    judged,
    normalised,
    returns,
    seat_chances,
)
from ai.reference import winning_move
from rules.core import Game
from rules.playout import random_playout

EXPLORATION = 0.8


class Node:
    __slots__ = ("state", "move", "seat", "children", "untried", "visits", "totals", "terminal")

    def __init__(self, game: Game[Any, Any], state: Any, move: Any, rng: random.Random) -> None:
        self.state = state
        self.move = move
        self.seat = game.to_move(state)
        self.children: list[Node] = []
        self.terminal = game.outcome(state) is not None
        # Shuffled so that generation order does not bias which moves get tried first.
        self.untried = [] if self.terminal else list(game.legal_moves(state))
        rng.shuffle(self.untried)
        self.visits = 0
        self.totals = [0.0] * game.players(state)

    def best_child(self) -> Node:
        log_visits = math.log(self.visits)
        index = self.seat - 1
        return max(
            self.children,
            key=lambda c: (
                c.totals[index] / c.visits + EXPLORATION * math.sqrt(log_visits / c.visits)
            ),
        )


def loses_at_once(game: Game[Any, Any], state: Any, move: Any) -> bool:
    """Whether after `move` the next seat has a move that wins on the spot."""
    after = game.apply(state, move, check=False)
    return (
        game.outcome(after) is None
        and winning_move(game, after, game.legal_moves(after)) is not None
    )


class MCTS:
    """The Bot for games with cheap playouts."""

    def __init__(self, evaluator: Evaluator, playout_plies: int) -> None:
        self.evaluator = evaluator
        self.playout_plies = playout_plies

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        moves = game.legal_moves(state)
        players = game.players(state)
        if len(moves) == 1:
            return Choice(moves[0], {"nodes": 0, "chances": judged(self.evaluator, state, players)})
        won = winning_move(game, state, moves)
        if won is not None:
            chances = seat_chances(game.to_move(state), 1.0, players)
            return Choice(won, {"nodes": 0, "reason": "wins at once", "chances": chances})
        root = Node(game, state, None, rng)
        root.untried = [
            m for m in root.untried if not loses_at_once(game, state, m)
        ] or root.untried
        budget = Budget(limit)
        while not budget.exhausted():
            budget.spend()
            self._simulate(game, root, rng)
        best = max(root.children, key=lambda c: c.visits)
        value = best.totals[root.seat - 1] / best.visits
        chances = normalised(tuple(total / best.visits for total in best.totals))
        info = {"nodes": budget.nodes, "value": round(value, 3), "chances": chances}
        return Choice(best.move, info)

    def _simulate(self, game: Game[Any, Any], root: Node, rng: random.Random) -> None:
        node, path = root, [root]
        while not node.untried and node.children:
            node = node.best_child()
            path.append(node)
        if node.untried:
            move = node.untried.pop()
            child = Node(game, game.apply(node.state, move, check=False), move, rng)
            node.children.append(child)
            node = child
            path.append(node)
        values = self._playout(game, node.state, rng)
        for visited in path:
            visited.visits += 1
            for index, value in enumerate(values):
                visited.totals[index] += value

    def _playout(self, game: Game[Any, Any], state: Any, rng: random.Random) -> tuple[float, ...]:
        end = random_playout(game, rng, state, bound=game.ply(state) + self.playout_plies)
        outcome = game.outcome(end)
        if outcome is not None:
            return returns(outcome, game.players(end))
        return estimate(self.evaluator, end, game.players(end))
