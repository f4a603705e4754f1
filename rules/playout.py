"""Random play through the trusted-move path: the one copy for tests, benchmarks and the AI.

Moves come from `legal_moves`, so they are applied unchecked (`apply(..., check=False)`).
A game runs until it ends or reaches ply `bound`; with no starting state, a new game is made
with a seed drawn from `rng`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rules.game import Game

PLY_BOUND = 400


def _start(game: Game[Any, Any], rng: random.Random, state: Any | None) -> Any:
    return game.new(seed=rng.randrange(1 << 30)) if state is None else state


def random_turns(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> Iterator[tuple[Any, Any, Any]]:
    """Each turn of one uniformly random game as (position, move chosen, position after)."""
    state = _start(game, rng, state)
    while game.outcome(state) is None and game.ply(state) < bound:
        move = rng.choice(game.legal_moves(state))
        after = game.apply(state, move, check=False)
        yield state, move, after
        state = after


def random_states(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> Iterator[Any]:
    """Every state of one uniformly random game, the first and the last included."""
    state = _start(game, rng, state)
    yield state
    for _, _, after in random_turns(game, rng, state, bound):
        yield after


def random_playout(
    game: Game[Any, Any], rng: random.Random, state: Any | None = None, bound: int = PLY_BOUND
) -> Any:
    """The last state of one random game: the turns of `random_turns`, in a plain loop with
    the methods looked up once, since a search runs this loop more than anything else."""
    state = _start(game, rng, state)
    outcome, ply, legal_moves, apply, choice = (
        game.outcome,
        game.ply,
        game.legal_moves,
        game.apply,
        rng.choice,
    )
    while outcome(state) is None and ply(state) < bound:
        state = apply(state, choice(legal_moves(state)), check=False)
    return state


WALK_ATTEMPTS = 20


def random_move(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """Some legal move, found by a random walk down the lazy move tree, so a position with
    too many turns to list (Kyo) costs one path, not a listing. Not uniform over moves."""
    for _ in range(WALK_ATTEMPTS):
        node = game.move_tree(state)
        while True:
            tokens = list(node.children)
            options = len(tokens) + (node.move is not None)
            if options == 0:
                break  # a dead end: walk again from the root
            pick = rng.randrange(options)
            if pick == len(tokens):
                return node.move
            node = node.children[tokens[pick]]
    return rng.choice(game.legal_moves(state))
