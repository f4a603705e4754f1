"""The one-ply reference player: it takes a win in one, never hands a win in one to the next
seat (unless every move does), and otherwise plays the move whose position the game's
evaluation likes best.

Two jobs: the opponent `benchmarks.ai_ladder` measures every level against (a level worth
playing must beat it), and the bot's fallback when a search worker dies or hangs (cheap, and
never a random move). Under a time budget it stops checking replies when the time is up and
plays the best-scored move found so far; a game whose positions may take long to list (Kyo)
is listed through the lazy move tree within the time left.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ai.base import (
    WIN,
    Budget,
    Choice,
    Evaluator,
    Limit,
    judged,
    seat_chances,
    static_value,
    value_chance,
)
from rules.game import Game
from rules.playout import random_move

# Of the time left, what listing one position's moves may take (the rest is for scoring).
LISTING_SHARE = 0.5
# Each move's (value for the mover, move, position after), best first.
Scored = list[tuple[float, Any, Any]]
# What a second look after the one-ply scores settles on: value, move, depth looked.
Verdict = tuple[float, Any, int]


def listed_moves(game: Game[Any, Any], state: Any, budget: Budget) -> list[Any]:
    """A position's moves. Where a position may have too many to list in time (Kyo), a timed
    search takes the lazy move tree's moves, the shortest first, while LISTING_SHARE of its
    time left lasts, on the budget's own clocks (CPU time, so a busy machine does not shorten the
    list, and the wall-time stop when it has one); a search by nodes takes all of them, in
    the same order, so that it repeats what a timed one that reached as many nodes played."""
    if not game.may_list_slowly:
        return list(game.legal_moves(state))
    moves = game.move_tree(state).moves(breadth_first=True)
    left = budget.seconds_left()
    if left is None:
        return list(moves)
    reserve = left * (1 - LISTING_SHARE)
    found = []
    for move in moves:
        found.append(move)
        if (budget.seconds_left() or 0.0) <= reserve:
            break
    return found


def winning_move(game: Game[Any, Any], state: Any, moves: Iterable[Any]) -> Any | None:
    """A move that wins on the spot for the seat to move, if there is one."""
    seat = game.to_move(state)
    for move in moves:
        outcome = game.outcome(game.apply(state, move, check=False))
        if outcome is not None and outcome.winners == (seat,):
            return move
    return None


def hands_over_a_win(game: Game[Any, Any], after: Any, budget: Budget) -> bool:
    """Whether in `after` (a move just played) the next seat has a move that wins at once."""
    return (
        game.outcome(after) is None
        and winning_move(game, after, listed_moves(game, after, budget)) is not None
    )


def forced(
    game: Game[Any, Any], state: Any, moves: list[Any], evaluator: Evaluator, rng: random.Random
) -> Choice:
    """The choice when there is nothing to search: the only move, or, when the time ran out
    before the lazy move tree yielded one, a random walk down it (the one random move any
    search plays, and only when not one move could be listed in time)."""
    move = moves[0] if moves else random_move(game, state, rng)
    chances = judged(evaluator, state, game.players(state))
    return Choice(move, {"nodes": 0, "depth": 0, "chances": chances})


def scored_moves(
    game: Game[Any, Any], state: Any, moves: list[Any], evaluator: Evaluator, budget: Budget
) -> Scored:
    """(value for the mover, move, position after) of each move, best first, as many as the
    budget allows (one at least); a win in one ends the list's making and comes first."""
    seat = game.to_move(state)
    scored: Scored = []
    for move in moves:
        if scored and budget.exhausted():
            break
        budget.spend()
        after = game.apply(state, move, check=False)
        scored.append((static_value(game, evaluator, after, seat), move, after))
        if scored[-1][0] >= WIN / 2:
            break
    scored.sort(key=lambda entry: -entry[0])  # stable: ties keep the shuffled order
    return scored


class Reference:
    """The Bot that looks one move ahead (see the module docstring): every move scored, a
    win in one played, then the best move that hands no win over."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        seat, players = game.to_move(state), game.players(state)
        moves = listed_moves(game, state, budget)
        if len(moves) <= 1:
            return forced(game, state, moves, self.evaluator, rng)
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        moves.sort(key=lambda m: -self.evaluator.priority(state, m))
        scored = scored_moves(game, state, moves, self.evaluator, budget)
        value, move, depth = scored[0][0], scored[0][1], 1
        if value < WIN / 2:  # no win in one
            value, move, depth = self.second_look(game, seat, scored, budget)
        chances = seat_chances(seat, value_chance(value, self.evaluator.scale), players)
        info = {"nodes": budget.nodes, "depth": depth, "value": value, "chances": chances}
        return Choice(move, info)

    def second_look(self, game: Game[Any, Any], seat: int, scored: Scored, b: Budget) -> Verdict:
        """The best-scored move that hands no win in one over (the best one if all do)."""
        for value, move, after in scored:
            if b.exhausted():
                break
            if not hands_over_a_win(game, after, b):
                return value, move, 1
        return scored[0][0], scored[0][1], 1
