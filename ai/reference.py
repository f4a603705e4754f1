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

from ai.base import Budget, Choice, Evaluator, Limit, judged, logistic, seat_chances
from rules.core import Game
from rules.playout import random_move

# Of the time left, what listing one position's moves may take (the rest is for scoring).
LISTING_SHARE = 0.5
# Scores of a finished game: a win shared with others (Boost, 3-4 seats) and a loss.
SHARED_WIN, LOSS = 500.0, -1000.0


def listed_moves(game: Game[Any, Any], state: Any, budget: Budget) -> list[Any]:
    """Every legal move, except where a position may have too many to list in time (Kyo);
    there, those the lazy move tree yields in part of the time left."""
    left = budget.seconds_left()
    if not game.may_list_slowly or left is None:
        return list(game.legal_moves(state))
    return list(game.move_tree(state).moves(left * LISTING_SHARE))


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


class Reference:
    """The Bot that looks one move ahead (see the module docstring)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        seat, players = game.to_move(state), game.players(state)
        moves = listed_moves(game, state, budget)
        if not moves:  # the time ran out before the lazy tree yielded one
            move = random_move(game, state, rng)
            return Choice(move, {"nodes": 0, "chances": judged(self.evaluator, state, players)})
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        scored: list[tuple[float, int, Any, Any]] = []
        for index, move in enumerate(moves):
            if scored and budget.exhausted():
                break
            budget.spend()
            after = game.apply(state, move, check=False)
            outcome = game.outcome(after)
            if outcome is not None and outcome.winners == (seat,):
                chances = seat_chances(seat, 1.0, players)
                return Choice(move, {"nodes": budget.nodes, "chances": chances})
            score = self._score(after, seat, outcome)
            scored.append((score, index, move, after))
        scored.sort(key=lambda entry: (-entry[0], entry[1]))
        chosen = scored[0]
        for entry in scored:
            if budget.exhausted():
                break
            if not hands_over_a_win(game, entry[3], budget):
                chosen = entry
                break
        score, _, move, _ = chosen
        chances = seat_chances(seat, logistic(score, self.evaluator.scale), players)
        return Choice(move, {"nodes": budget.nodes, "value": score, "chances": chances})

    def _score(self, after: Any, seat: int, outcome: Any) -> float:
        if outcome is None:
            return self.evaluator.score(after, seat)
        if outcome.is_draw:
            return 0.0
        return SHARED_WIN if seat in outcome.winners else LOSS
