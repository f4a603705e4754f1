"""What every search shares: limits, the budget clock, choices, evaluators and chances."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.game import Game

# CPU time is what a search controls on a shared machine; wall time may run this much further
# before the search stops anyway with the move it has, so a process starved of CPU still
# answers well before the pool gives up on it (bot/workers/pool.py waits 4x the budget).
WALL_SLACK = 3.5
# A won position's value for the searches that count in evaluation units (lost: -WIN).
WIN = 1_000_000.0


@dataclass(frozen=True)
class Limit:
    """How much a search may do: `nodes` (simulations or positions) makes it deterministic for
    a seeded rng; `seconds` (CPU time, wall time at most `wall_slack` times more) bounds it
    when playing. A benchmark holding CPU time equal on a busy machine sets `wall_slack` to
    None: CPU time only."""

    nodes: int | None = None
    seconds: float | None = None
    wall_slack: float | None = WALL_SLACK

    def __post_init__(self) -> None:
        if self.nodes is None and self.seconds is None:
            raise ValueError("a search needs a node budget, a time budget or both")


@dataclass(frozen=True)
class Choice:
    """A search's answer: the move and what it learned (nodes, depth, value). `info` always
    holds "chances": each seat's win probability (seats 1..n in order) as the search judges
    the position it was asked about, with `move` its best move (ai/reading relies on it)."""

    move: Any
    info: dict[str, Any] = field(default_factory=dict)


class OutOfBudget(Exception):
    """Raised inside a search when its budget runs out, to unwind to the root."""


class Budget:
    """Counts nodes and watches the clocks of one search."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.nodes = 0
        self._cpu_start = time.process_time()
        self._wall_start = time.perf_counter()

    def spend(self) -> None:
        self.nodes += 1

    def exhausted(self) -> bool:
        limit = self.limit
        if limit.nodes is not None and self.nodes >= limit.nodes:
            return True
        if limit.seconds is None:
            return False
        return time.process_time() - self._cpu_start >= limit.seconds or (
            limit.wall_slack is not None
            and time.perf_counter() - self._wall_start >= limit.seconds * limit.wall_slack
        )

    def seconds_left(self) -> float | None:
        """Time left on the budget's tighter clock (None when searching by nodes only)."""
        if self.limit.seconds is None:
            return None
        cpu = self.limit.seconds - (time.process_time() - self._cpu_start)
        if self.limit.wall_slack is None:
            return max(0.0, cpu)
        wall = self.limit.seconds * self.limit.wall_slack - (time.perf_counter() - self._wall_start)
        return max(0.0, min(cpu, wall))

    def fraction_used(self) -> float:
        """How far into the time budget the search is (0 when searching by nodes only)."""
        if self.limit.seconds is None:
            return 0.0
        return (time.process_time() - self._cpu_start) / self.limit.seconds


class Evaluator(Protocol):
    """A game's static judgement of a position that is not over."""

    scale: float  # score units that make one seat about 73% likely to win (logistic)

    def score(self, state: Any, seat: int) -> float:
        """How good `state` is for `seat`: positive is good, in the evaluator's units."""
        ...

    def key(self, state: Any) -> Hashable:
        """What identifies a position for the transposition table."""
        ...

    def priority(self, state: Any, move: Any) -> float:
        """A cheap guess, before applying `move`, of how worth trying first it is."""
        ...


class Bot(Protocol):
    """A search: one call from a position to a move of `legal_moves(state)`."""

    def choose(
        self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random
    ) -> Choice: ...


def estimate(evaluator: Evaluator, state: Any, players: int) -> tuple[float, ...]:
    """Each seat's chance of winning as the evaluator guesses it (logistic of its score)."""
    return tuple(
        logistic(evaluator.score(state, seat), evaluator.scale) for seat in range(1, players + 1)
    )


GUESS_MARGIN = 1e-6
"""How far from 0 and 1 a chance read from an evaluation stays: only a found result is
certain (the analysis takes a 0 or a 1 for one, and a move into a 0 for a blunder), and
with Kyo's steep scale (ai/scales.py) a lead of 20 points would otherwise round to 1."""


def logistic(score: float, scale: float) -> float:
    """A score in evaluator units as a win probability: 0.5 at 0, ~73% at `scale`."""
    chance = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score / scale))))
    return min(max(chance, GUESS_MARGIN), 1.0 - GUESS_MARGIN)


def normalised(values: tuple[float, ...]) -> tuple[float, ...]:
    """Shares that sum to 1 (equal shares when all are 0)."""
    total = sum(values)
    if total <= 0:
        return (1.0 / len(values),) * len(values)
    return tuple(value / total for value in values)


def seat_chances(seat: int, chance: float, players: int) -> tuple[float, ...]:
    """Every seat's win probability when `seat` wins with `chance` and the others, as a
    paranoid search sees them, share the rest equally."""
    others = (1.0 - chance) / (players - 1)
    return tuple(chance if s == seat else others for s in range(1, players + 1))


def judged(evaluator: Evaluator, state: Any, players: int) -> tuple[float, ...]:
    """Each seat's win probability by the static evaluation alone (no search)."""
    return normalised(estimate(evaluator, state, players))


def value_chance(value: float, scale: float) -> float:
    """A search value as the root seat's win probability: certain for a found win or loss."""
    if value >= WIN / 2:
        return 1.0
    if value <= -WIN / 2:
        return 0.0
    return logistic(value, scale)


def static_value(game: Game[Any, Any], evaluator: Evaluator, state: Any, seat: int) -> float:
    """A position's value for `seat` without searching: WIN or -WIN when the game is over
    (a win shared with others counts as won), 0 for a draw, else the evaluation."""
    outcome = game.outcome(state)
    if outcome is None:
        return evaluator.score(state, seat)
    if outcome.is_draw:
        return 0.0
    return WIN if seat in outcome.winners else -WIN
