"""Render speed and size for every registered game: median wall and CPU milliseconds and KB
per PNG on mid-game positions (after a warm-up render fills the caches), in one theme.

With --cold, the first render of every game in a fresh process instead (one subprocess per
game, in every theme, three times over, the median shown): what a bot's first board of a game
costs after a start. The budget is 50 ms of CPU each; importing the renderers is counted apart.

Run: python -m benchmarks.render_speed [--positions N] [--theme NAME] [--cold]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from benchmarks.positions import mid_game_positions
from bot.posts.pictures import picture_words
from rules import GAMES, get_game

WORDS = picture_words("en")

NAMES = ["Alice", "Bob", "Carol", "Dave"]
COLD_RUNS = 3


def warm(positions: int, theme: str) -> None:
    from renderers import render_png

    print(
        f"{'game':8} {'median ms':>10} {'p95 ms':>8} {'CPU ms':>8} {'median KB':>10} {'max KB':>8}"
    )
    for name, game in GAMES.items():
        states = mid_game_positions(game, positions)
        render_png(name, states[0], names=["Warm", "Up"], theme=theme, words=WORDS)
        times, cpu_times, sizes = [], [], []
        for state in states:
            start, cpu_start = time.perf_counter(), time.process_time()
            data = render_png(name, state, names=NAMES, theme=theme, words=WORDS)
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


def cold() -> None:
    """Each game's first render in a fresh interpreter, given a mid-game position's dump."""
    print(
        f"{'game':8} {'theme':14} {'import CPU ms':>13} {'render CPU ms':>14} {'max':>6}"
        f" {'wall ms':>8}"
    )
    worst = 0.0
    for name, game in GAMES.items():
        dump = json.dumps(game.dump(mid_game_positions(game, 1)[0]))
        for theme in ("classic", "dark", "high-contrast"):
            child = [sys.executable, "-m", "benchmarks.render_speed", "--child", name, theme]
            runs = [
                json.loads(
                    subprocess.run(
                        child, input=dump, capture_output=True, text=True, check=True
                    ).stdout
                )
                for _ in range(COLD_RUNS)
            ]
            cpu = statistics.median(run["cpu"] for run in runs)
            worst = max(worst, cpu)
            print(
                f"{name:8} {theme:14} {statistics.median(run['import'] for run in runs):13.1f}"
                f" {cpu:14.1f} {max(run['cpu'] for run in runs):6.1f}"
                f" {statistics.median(run['wall'] for run in runs):8.1f}"
            )
    print(f"worst median first render: {worst:.1f} ms CPU (budget 50)")


def child(name: str, theme: str) -> None:
    """Runs in the fresh process: load the position, import, time the first render."""
    state = get_game(name).load(json.loads(sys.stdin.read()))
    cpu_start = time.process_time()
    from renderers import render_png

    imported = time.process_time() - cpu_start
    start, cpu_start = time.perf_counter(), time.process_time()
    render_png(name, state, names=NAMES, theme=theme, words=WORDS)
    cpu, wall = time.process_time() - cpu_start, time.perf_counter() - start
    print(json.dumps({"import": imported * 1000, "cpu": cpu * 1000, "wall": wall * 1000}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("GAME", "THEME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
    elif args.cold:
        cold()
    else:
        warm(args.positions, args.theme)


if __name__ == "__main__":
    main()
