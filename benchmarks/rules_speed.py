"""Rules speed for every registered game, in CPU time beside wall time.

Machines here are shared and noisy: CPU time (`time.thread_time`, this thread only) is the
figure to compare; wall time shows what waiting on a busy machine adds.

Default: median (and p90) microseconds per `legal_moves` and per checked `apply` over mid-game
positions from random games. Each call is timed once on a fresh game object, so a game that
caches its analysis per position (Kyo) is measured cold. Boku works out its legal moves when a
position is made, so its cost shows under apply, not legal_moves.

--playouts: whole random games from the start through the trusted path (rules.playout), for
`--seconds` of CPU time per game: playouts and plies per CPU second.

Run: python -m benchmarks.rules_speed [--playouts] [--positions N] [--seconds S] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from benchmarks.positions import mid_game_positions
from rules import GAMES
from rules.game import Game
from rules.playout import random_playout

T = TypeVar("T")


@dataclass(frozen=True)
class Spent:
    """Seconds of wall and CPU time one piece of work took."""

    wall: float
    cpu: float


def spent(work: Callable[[], T]) -> tuple[T, Spent]:
    """Run `work` once: its result, and the time it took on both clocks."""
    wall, cpu = time.perf_counter(), time.thread_time()
    result = work()
    return result, Spent(time.perf_counter() - wall, time.thread_time() - cpu)


def cold_call(game: Game[Any, Any], method: str, *args: Any) -> Spent:
    """One call on a new game object, so no per-position cache is warm."""
    return spent(partial(getattr(type(game)(), method), *args))[1]


def median_and_p90(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered) * 1e6:10.1f} {ordered[int(len(ordered) * 0.9)] * 1e6:9.1f}"


def per_call(games: dict[str, Game[Any, Any]], count: int) -> None:
    print(f"microseconds per call over {count} mid-game positions (median, p90)")
    print(
        f"{'game':8} {'legal cpu':>10} {'p90':>9} {'legal wall':>10} {'p90':>9}"
        f" {'apply cpu':>10} {'p90':>9} {'apply wall':>10} {'p90':>9} {'moves/pos':>9}"
    )
    for name, game in games.items():
        positions = mid_game_positions(game, count)
        rng = random.Random(2)
        legal = [cold_call(game, "legal_moves", s) for s in positions]
        chosen = [(s, rng.choice(game.legal_moves(s))) for s in positions]
        applied = [cold_call(game, "apply", s, m) for s, m in chosen]
        sizes = [len(game.legal_moves(s)) for s in positions]
        print(
            f"{name:8} {median_and_p90([t.cpu for t in legal])}"
            f" {median_and_p90([t.wall for t in legal])}"
            f" {median_and_p90([t.cpu for t in applied])}"
            f" {median_and_p90([t.wall for t in applied])} {statistics.mean(sizes):9.1f}"
        )


def playouts(games: dict[str, Game[Any, Any]], seconds: float) -> None:
    print(f"random games from the start, trusted path, {seconds:g} s of CPU time per game")
    print(
        f"{'game':8} {'games':>6} {'plies/game':>10} {'playouts/s cpu':>14}"
        f" {'playouts/s wall':>15} {'plies/s cpu':>11}"
    )
    for name, game in games.items():
        rng = random.Random(2)
        played, plies, total = 0, 0, Spent(0.0, 0.0)
        while total.cpu < seconds or played == 0:
            final, took = spent(partial(random_playout, game, rng))
            total = Spent(total.wall + took.wall, total.cpu + took.cpu)
            played, plies = played + 1, plies + game.ply(final)
        print(
            f"{name:8} {played:6} {plies / played:10.1f} {played / total.cpu:14.1f}"
            f" {played / total.wall:15.1f} {plies / total.cpu:11.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help=f"any of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--playouts", action="store_true", help="time whole random games")
    parser.add_argument("--positions", type=int, default=200, help="positions per game")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per game")
    args = parser.parse_args()
    unknown = [name for name in args.games if name not in GAMES]
    if unknown:
        parser.error(f"no game called {', '.join(unknown)}; choose from: {', '.join(GAMES)}")
    chosen = {name: GAMES[name] for name in args.games or GAMES}
    if args.playouts:
        playouts(chosen, args.seconds)
    else:
        per_call(chosen, args.positions)


if __name__ == "__main__":
    main()
