"""AI strength: level against level, and against the one-ply reference player, in every game.

Seats alternate between games; a draw scores half, a game past PLY_CAP plies is a draw.
Searches stop on CPU time only (no wall-time stop), so a busy machine slows the benchmark
but does not weaken either side.
Prints each pairing's score with a 95% Wilson interval, the median length of its games in
plies, and the CPU and wall seconds per move of each side. The default pairings are the
targets of docs/ai.md: level 3 against the reference (ai/reference.py), level 3 against
level 2, level 2 against level 1.

Run: python -m benchmarks.ai_ladder [--games 20] [--game boost ...] [--pairing 3:ref 3:2]
     [--seconds 3=2.0 2=0.5] [--nodes 3=4000] [--jobs 2] [--start 10]
A side is a level (1-3), `ref` (the reference player) or `random`. `--seconds` overrides a
side's CPU time (`ref=4` caps the reference player, which otherwise looks at every move: a
Kyo position can have 20,000 turns), `--nodes` makes a level search by a node budget instead
(deterministic).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed

from ai.ladder import Times, make_player, play, wilson
from rules import GAMES

PAIRINGS = ("3:ref", "3:2", "2:1")


def one_game(
    name: str, pairing: str, index: int, seconds: dict[str, float], nodes: dict[str, int]
) -> tuple[float, Times, Times]:
    """Game `index` of a pairing, the first side's seat alternating: its score and both
    sides' times (first side, second side)."""
    first, second = pairing.split(":")
    first_seat = 1 + index % 2
    players = {
        first_seat: make_player(first, seconds, nodes),
        3 - first_seat: make_player(second, seconds, nodes),
    }
    times = {1: Times(), 2: Times()}
    seat_one = play(name, players, index, times)
    score = seat_one if first_seat == 1 else 1.0 - seat_one
    return score, times[first_seat], times[3 - first_seat]


def pairing_line(
    name: str,
    pairing: str,
    start: int,
    games: int,
    seconds: dict[str, float],
    nodes: dict[str, int],
    jobs: int,
) -> str:
    """One line of the table."""
    results = []
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(one_game, name, pairing, index, seconds, nodes)
            for index in range(start, start + games)
        ]
        for future in as_completed(futures):  # each game to stderr as it ends: runs are long
            results.append(future.result())
            print(f"{name} {pairing}: {results[-1][0]}", file=sys.stderr, flush=True)
    score = sum(result[0] for result in results)
    wins = sum(result[0] == 1.0 for result in results)
    draws = sum(result[0] == 0.5 for result in results)
    first, second = Times(), Times()
    for _, one, two in results:
        first.add(one)
        second.add(two)
    plies = statistics.median(len(one.cpu) + len(two.cpu) for _, one, two in results)
    low, high = wilson(score, games)
    label = pairing.replace(":", " vs ")
    return (
        f"{name:7} {label:10} {games:5} {wins:4} {draws:5} {score / games:6.0%}"
        f"  [{low:4.0%}, {high:4.0%}] {plies:5.0f}  {first.text()}  {second.text()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--game", action="append", choices=list(GAMES), help="default: all")
    parser.add_argument("--pairing", nargs="*", default=list(PAIRINGS), help="e.g. 3:ref 3:2")
    parser.add_argument("--seconds", nargs="*", default=[], help="side=seconds, e.g. 3=0.5 ref=4")
    parser.add_argument("--nodes", nargs="*", default=[], help="level=nodes, e.g. 3=4000")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--start", type=int, default=0, help="first game's number (a pairing split over runs)"
    )
    args = parser.parse_args()
    seconds = {k: float(v) for k, v in (item.split("=") for item in args.seconds)}
    nodes = {k: int(v) for k, v in (item.split("=") for item in args.nodes)}
    print(
        f"{'game':7} {'pairing':10} {'games':>5} {'wins':>4} {'draws':>5} {'score':>6}"
        f"  {'95% CI':12} {'plies':>5}  {'first: cpu med/max, wall med':28}  second"
    )
    for name in args.game or list(GAMES):
        for pairing in args.pairing:
            line = pairing_line(name, pairing, args.start, args.games, seconds, nodes, args.jobs)
            print(line, flush=True)


if __name__ == "__main__":
    main()
