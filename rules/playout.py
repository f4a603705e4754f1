"""Random play through the trusted-move path: the one copy for tests, benchmarks and the AI."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from rules.core import Game

PLY_BOUND = 400


def random_states(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> Iterator[Any]:
    """Every state of one uniformly random game, from `state` (a new game if None) until it
    ends or reaches ply `bound`. Moves come from `legal_moves`, so they are applied unchecked."""
    state = game.new(seed=rng.randrange(1 << 30)) if state is None else state
    yield state
    while game.outcome(state) is None and game.ply(state) < bound:
        state = game.apply(state, rng.choice(game.legal_moves(state)), check=False)
        yield state


def random_playout(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> Any:
    """The last state of one random game (see `random_states`)."""
    return deque(random_states(game, rng, state, bound), maxlen=1)[0]
