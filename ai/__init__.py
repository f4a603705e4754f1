"""Computer opponents for every game: `choose_move(game_name, state, level=..., seconds=...)`.

Depends on `rules` only. Each game has one search (`BOTS`), chosen for how the game plays;
levels differ in how much that search may do. Whatever the level, a win in one is played and
a win in one for the next seat is stopped when a move can, and so are the threats that win by
force within two turns that `THREATS` sees (`blocking`). docs/ai.md says why each game gets
its search.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.alphabeta import AlphaBeta
from ai.base import WALL_SLACK, WIN, Bot, Budget, Choice, Evaluator, Limit, seat_chances
from ai.boost import BoostSearch
from ai.heuristics import (
    BokuEvaluator,
    BoostEvaluator,
    KyoEvaluator,
    QuorumEvaluator,
    RazzleEvaluator,
)
from ai.kyo import KyoSearch
from ai.reference import Reference, hands_over_a_win, winning_move
from ai.threats import boku_forcing, boost_forcing
from rules import get_game
from rules.errors import IllegalMove
from rules.game import Game


@dataclass(frozen=True)
class Level:
    """What a level may spend: CPU seconds by default, and a node cap that makes the easy
    level weak by design (and deterministic), whatever the time."""

    name: str
    seconds: float
    nodes: int | None = None


LEVELS = {
    1: Level("easy", seconds=0.25, nodes=40),
    2: Level("medium", seconds=0.5),
    3: Level("hard", seconds=2.0),
}

# The reference player's time when none is given: enough to look at every move of a position.
UNHURRIED = 600.0

BOOST = BoostEvaluator()
EVALUATORS: dict[str, Evaluator] = {
    "boost": BOOST,
    "kyo": KyoEvaluator(),
    "quorum": QuorumEvaluator(),
    "razzle": RazzleEvaluator(),
    "boku": BokuEvaluator(),
}
BOTS: dict[str, Bot] = {
    "boost": BoostSearch(BOOST),
    "kyo": KyoSearch(EVALUATORS["kyo"]),
    "quorum": AlphaBeta(EVALUATORS["quorum"]),
    "razzle": AlphaBeta(EVALUATORS["razzle"]),
    "boku": AlphaBeta(EVALUATORS["boku"]),
}


REFERENCES: dict[str, Bot] = {name: Reference(e) for name, e in EVALUATORS.items()}
# Per game, whether the seat to move has a threat that wins by force within its next two
# turns (ai/threats.py): no level leaves one when a move stops it.
THREATS: dict[str, Callable[[Any], bool]] = {"boku": boku_forcing, "boost": boost_forcing}


def get_bot(game_name: str) -> Bot:
    return BOTS[get_game(game_name).name]


def reference(
    game_name: str,
    state: Any,
    *,
    seconds: float | None = None,
    seed: int | None = None,
    cpu_only: bool = False,
) -> Choice:
    """The one-ply reference player's move (ai/reference.py): the ladder's yardstick and the
    bot's fallback. `seconds` caps its CPU time; without it, it looks at every move."""
    game = get_game(game_name)
    if game.outcome(state) is not None:
        raise IllegalMove("rules.game.over")
    limit = Limit(
        seconds=UNHURRIED if seconds is None else seconds,
        wall_slack=None if cpu_only else WALL_SLACK,
    )
    rng = random.Random(f"{secrets.randbits(64) if seed is None else seed}:{game.ply(state)}")
    return REFERENCES[game.name].choose(game, state, limit, rng)


def level_limit(
    level: int, seconds: float | None = None, nodes: int | None = None, cpu_only: bool = False
) -> Limit:
    """The budget of one move: an explicit node budget searches by nodes only (deterministic);
    otherwise the level's time, or `seconds` if given, with the level's node cap. `cpu_only`
    drops the wall-time stop, for benchmarks that hold CPU time equal on a busy machine."""
    if level not in LEVELS:
        raise ValueError(f"there is no level {level}; choose 1 (easy), 2 (medium) or 3 (hard)")
    if nodes is not None:
        return Limit(nodes=nodes)
    chosen = LEVELS[level]
    return Limit(
        nodes=chosen.nodes,
        seconds=chosen.seconds if seconds is None else seconds,
        wall_slack=None if cpu_only else WALL_SLACK,
    )


def choose(
    game_name: str,
    state: Any,
    *,
    level: int = 2,
    seconds: float | None = None,
    seed: int | None = None,
    nodes: int | None = None,
    cpu_only: bool = False,
) -> Choice:
    """`choose_move` with what the search learned (nodes, depth, value, each seat's chances)
    in `info`; `cpu_only` as in `level_limit`."""
    game = get_game(game_name)
    if game.outcome(state) is not None:
        raise IllegalMove("rules.game.over")
    limit = level_limit(level, seconds, nodes, cpu_only)
    if seed is None:
        seed = secrets.randbits(64)
    rng = random.Random(f"{seed}:{game.ply(state)}")
    if game.may_list_slowly:  # Kyo: its search weighs every take, a king's first
        return get_bot(game.name).choose(game, state, limit, rng)
    won = winning_move(game, state, game.legal_moves(state))
    if won is not None:
        chances = seat_chances(game.to_move(state), 1.0, game.players(state))
        return Choice(won, {"nodes": 0, "depth": 1, "value": WIN, "chances": chances})
    choice = get_bot(game.name).choose(game, state, limit, rng)
    forcing = THREATS.get(game.name)
    return blocking(game, state, choice, limit, forcing)


def blocking(
    game: Game[Any, Any],
    state: Any,
    choice: Choice,
    limit: Limit,
    forcing: Callable[[Any], bool] | None = None,
) -> Choice:
    """The search's choice, unless it lets the next seat win at once, or (with `forcing`)
    leaves it a threat that wins by force within its next two turns, while another move does
    not: then the first such move in the evaluation's order. So every level, the node-capped
    easy one too, stops them (a search by time stops looking when its time is up)."""
    budget = Budget(limit)  # its clocks only: listing and applying moves spends no nodes

    def safe(move: Any) -> bool:
        after = game.apply(state, move, check=False)
        if hands_over_a_win(game, after, budget):
            return False
        return forcing is None or game.outcome(after) is not None or not forcing(after)

    if safe(choice.move):
        return choice
    evaluator = EVALUATORS[game.name]
    moves = sorted(game.legal_moves(state), key=lambda m: -evaluator.priority(state, m))
    for move in moves:
        if limit.seconds is not None and budget.exhausted():
            break
        if move != choice.move and safe(move):
            return Choice(move, {**choice.info, "line": [move]})
    if forcing is not None:  # nothing stops the threat: at least stop a win in one
        return blocking(game, state, choice, limit)
    return choice


def choose_move(
    game_name: str,
    state: Any,
    *,
    level: int = 2,
    seconds: float | None = None,
    seed: int | None = None,
    nodes: int | None = None,
) -> Any:
    """One move of `legal_moves(state)` for the seat to move, at `level` 1-3. `seconds` caps
    the CPU time (level default otherwise: 0.25, 0.5, 2); `nodes` searches by a node budget
    instead, so a given `seed` always gives the same move."""
    return choose(game_name, state, level=level, seconds=seconds, seed=seed, nodes=nodes).move


__all__ = [
    "BOTS",
    "LEVELS",
    "Choice",
    "Level",
    "Limit",
    "choose",
    "choose_move",
    "get_bot",
    "reference",
]
