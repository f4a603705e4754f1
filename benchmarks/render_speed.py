"""Render speed and size for every registered game: median wall and CPU milliseconds and KB
per PNG on mid-game positions (after a warm-up render fills the caches).

Run: python -m benchmarks.render_speed [--positions N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.positions import mid_game_positions
from renderers import render_png
from rules import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    print(
        f"{'game':8} {'median ms':>10} {'p95 ms':>8} {'CPU ms':>8} {'median KB':>10} {'max KB':>8}"
    )
    for name, game in GAMES.items():
        positions = mid_game_positions(game, args.positions)
        render_png(name, positions[0], names=["Warm", "Up"])
        times, cpu_times, sizes = [], [], []
        for state in positions:
            start, cpu_start = time.perf_counter(), time.process_time()
            data = render_png(name, state, names=["Alice", "Bob", "Carol", "Dave"])
            times.append((time.perf_counter() - start) * 1000)
            cpu_times.append((time.process_time() - cpu_start) * 1000)
            sizes.append(len(data) / 1024)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{name:8} {statistics.median(times):10.2f} {p95:8.2f}"
            f" {statistics.median(cpu_times):8.2f}"
            f" {statistics.median(sizes):10.1f} {max(sizes):8.1f}"
        )


if __name__ == "__main__":
    main()
