"""Rules speed for every registered game: microseconds per legal_moves and per apply
(best of 5 calls on each position, median over mid-game positions from random games), and
random playouts per second.

Run: python -m benchmarks.rules_speed [--positions N] [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.positions import mid_game_positions, playout
from rules import GAMES


def best_microseconds(call: Callable[[], Any], repeat: int = 5) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return min(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per game")
    args = parser.parse_args()
    print(f"{'game':8} {'legal_moves us':>15} {'apply us':>9} {'moves/pos':>9} {'playouts/s':>11}")
    for name, game in GAMES.items():
        positions = mid_game_positions(game, args.positions)
        rng = random.Random(2)
        legal = [best_microseconds(lambda s=s, g=game: g.legal_moves(s)) for s in positions]
        chosen = [(s, rng.choice(game.legal_moves(s))) for s in positions]
        applied = [best_microseconds(lambda s=s, m=m, g=game: g.apply(s, m)) for s, m in chosen]
        sizes = [len(game.legal_moves(s)) for s in positions]
        start, playouts = time.perf_counter(), 0
        while time.perf_counter() - start < args.seconds:
            playout(game, rng)
            playouts += 1
        rate = playouts / (time.perf_counter() - start)
        print(
            f"{name:8} {statistics.median(legal):15.1f} {statistics.median(applied):9.1f}"
            f" {statistics.mean(sizes):9.1f} {rate:11.1f}"
        )


if __name__ == "__main__":
    main()
