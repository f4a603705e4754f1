"""Animated replay cost for every registered game: CPU and wall seconds and size of the GIF
of 100-turn random games (shorter when a game ends sooner), after a warm-up replay fills the
caches. The budget is 2 s of CPU and 8 MB for a 100-turn game.

Run: python -m benchmarks.replay_speed [--turns N] [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from renderers import render_replay
from rules import GAMES
from rules.playout import random_states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'game':8} {'frames':>7} {'CPU s':>7} {'wall s':>7} {'KB':>7}"
        f" {'CPU ms/frame':>13} {'KB/frame':>9}"
    )
    for name, game in GAMES.items():
        rng = random.Random(1)
        games = [list(random_states(game, rng, bound=args.turns)) for _ in range(args.games)]
        render_replay(name, games[0][:2])
        for states in games:
            start, cpu_start = time.perf_counter(), time.process_time()
            data = render_replay(name, states, names=["Alice", "Bob", "Carol", "Dave"])
            cpu = time.process_time() - cpu_start
            wall = time.perf_counter() - start
            kb = len(data) / 1024
            print(
                f"{name:8} {len(states):7} {cpu:7.2f} {wall:7.2f} {kb:7.0f}"
                f" {cpu * 1000 / len(states):13.1f} {kb / len(states):9.1f}"
            )
        longest = max(games, key=len)
        if len(longest) < args.turns + 1:
            lengths = statistics.median(len(g) for g in games)
            print(f"{'':8} (random {name} games ended sooner: median {lengths:.0f} frames)")


if __name__ == "__main__":
    main()
