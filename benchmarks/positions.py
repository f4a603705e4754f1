"""Mid-game positions from seeded random playouts, shared by the benchmarks."""

from __future__ import annotations

import random
from typing import Any

from rules.core import Game

PLY_BOUND = 400
MID_GAME = range(10, 81)


def playout(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> list[Any]:
    """Every state of one random game, until it ends or reaches the bound."""
    state = game.new(seed=rng.randrange(1 << 30)) if state is None else state
    states = [state]
    while game.outcome(state) is None and game.ply(state) < bound:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


def mid_game_positions(game: Game[Any, Any], count: int, seed: int = 1) -> list[Any]:
    """Running positions between the opening and the end (plies 10 to 80)."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        states = playout(game, rng, bound=MID_GAME.stop)
        running = [s for s in states if game.outcome(s) is None and game.ply(s) in MID_GAME]
        found.extend(rng.sample(running, min(len(running), 5)))
    return found[:count]
