"""Rules speed for every registered game: median microseconds per legal_moves and per apply
over mid-game positions from random games, and random playouts per second.

Each call is timed once on a fresh game object, so a game that caches its analysis per
position (Kyo) is measured cold. Boku works out its legal moves when a position is made, so
its cost shows under apply, not legal_moves.

Run: python -m benchmarks.rules_speed [--positions N] [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from benchmarks.positions import mid_game_positions
from rules import GAMES
from rules.core import Game
from rules.playout import random_playout


def cold_microseconds(game: Game[Any, Any], method: str, *args: Any) -> float:
    """One call on a new game object, so no per-position cache is warm."""
    call = getattr(type(game)(), method)
    start = time.perf_counter()
    call(*args)
    return (time.perf_counter() - start) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per game")
    args = parser.parse_args()
    header = f"{'game':8} {'legal_moves us':>15} {'p90 us':>9} {'apply us':>9}"
    print(f"{header} {'moves/pos':>9} {'playouts/s':>11}")
    for name, game in GAMES.items():
        positions = mid_game_positions(game, args.positions)
        rng = random.Random(2)
        legal = sorted(cold_microseconds(game, "legal_moves", s) for s in positions)
        chosen = [(s, rng.choice(game.legal_moves(s))) for s in positions]
        applied = [cold_microseconds(game, "apply", s, m) for s, m in chosen]
        sizes = [len(game.legal_moves(s)) for s in positions]
        start, playouts = time.perf_counter(), 0
        while time.perf_counter() - start < args.seconds or playouts == 0:
            random_playout(game, rng)
            playouts += 1
        rate = playouts / (time.perf_counter() - start)
        print(
            f"{name:8} {statistics.median(legal):15.1f} {legal[int(len(legal) * 0.9)]:9.1f}"
            f" {statistics.median(applied):9.1f} {statistics.mean(sizes):9.1f} {rate:11.2f}"
        )


if __name__ == "__main__":
    main()
