"""Mid-game positions from seeded random playouts, shared by the benchmarks."""

from __future__ import annotations

import random
from typing import Any

from rules.game import Game
from rules.playout import random_states

MID_GAME = range(10, 81)


def mid_game_positions(game: Game[Any, Any], count: int, seed: int = 1) -> list[Any]:
    """Running positions between the opening and the end (plies 10 to 80)."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        states = list(random_states(game, rng, bound=MID_GAME.stop))
        running = [s for s in states if game.outcome(s) is None and game.ply(s) in MID_GAME]
        found.extend(rng.sample(running, min(len(running), 5)))
    return found[:count]
