"""Playing the computer's levels against each other: the match loop the ladder benchmark
(benchmarks/ai_ladder.py) runs and its tests check, kept apart from games and searches
(like OpenSpiel's `evaluate_bots`). Searches stop on CPU time only, so a busy machine slows
a game but does not weaken either side.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ai
from rules import get_game

PLY_CAP = 300  # a game still going after this many plies counts as a draw

# (game name, state, seed) -> move
Player = Callable[[str, Any, int], Any]


@dataclass
class Times:
    """CPU and wall seconds of each move of one side."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def add(self, other: Times) -> None:
        self.cpu += other.cpu
        self.wall += other.wall

    def text(self) -> str:
        if not self.cpu:
            return "      -"
        return (
            f"{statistics.median(self.cpu):6.2f}/{max(self.cpu):5.2f}"
            f" {statistics.median(self.wall):6.2f}"
        )


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_player(side: str, seconds: dict[str, float], nodes: dict[str, int]) -> Player:
    """The mover for one side of a pairing (see the module docstring)."""
    if side == "random":
        return lambda name, state, seed: random.Random(seed).choice(
            get_game(name).legal_moves(state)
        )
    if side == "ref":
        return lambda name, state, seed: (
            ai.reference(name, state, seconds=seconds.get(side), seed=seed, cpu_only=True).move
        )
    level = int(side)
    return lambda name, state, seed: (
        ai.choose(
            name,
            state,
            level=level,
            seconds=seconds.get(side),
            seed=seed,
            nodes=nodes.get(side),
            cpu_only=True,
        ).move
    )


def play(name: str, players: dict[int, Player], seed: int, times: dict[int, Times]) -> float:
    """One 2-player game (seat -> player); returns seat 1's score, each seat's times in
    `times`."""
    game = get_game(name)
    state = game.new(seed=seed)
    while game.outcome(state) is None and game.ply(state) < PLY_CAP:
        seat = game.to_move(state)
        cpu, wall = time.process_time(), time.perf_counter()
        move = players[seat](name, state, seed * 1000 + game.ply(state))
        times[seat].cpu.append(time.process_time() - cpu)
        times[seat].wall.append(time.perf_counter() - wall)
        state = game.apply(state, move, check=False)
    outcome = game.outcome(state)
    if outcome is None or outcome.is_draw:
        return 0.5
    return 1.0 if outcome.winners == (1,) else 0.0
