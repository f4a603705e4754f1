"""The computer on a busy machine: no fallbacks, and the moves a quiet machine would play.

Starts N processes that burn CPU (default: twice the cores), then asks the bot's worker pool
(bot/workers/pool.py, one worker, the levels' own times) for moves in running positions of every
game at every level. Prints per game and level the fallbacks (the target is 0), the CPU and
wall seconds per move, and the share of moves equal to what the same seed picks, once the
burners are stopped, searching the same number of nodes as the loaded search reached (how
much the load changed besides the depth it allowed).

Run: python -m benchmarks.ai_under_load [--burners N] [--moves 20] [--game boost ...]
     [--level 3 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai  # noqa: E402
from bot.workers.pool import WorkerPool  # noqa: E402
from rules import GAMES, get_game  # noqa: E402
from rules.playout import random_states  # noqa: E402

# Random games run this far for the positions asked about (Kyo's grow slow to list).
PLIES = {"kyo": 12}
DEFAULT_PLIES = 60


@dataclass
class Row:
    """One game and level: what the pool answered."""

    fallbacks: int = 0
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    same: int = 0
    compared: int = 0


def burn(stop: Event) -> None:
    """A CPU burner: spins until told to stop."""
    count = 0
    while not stop.is_set():
        for _ in range(100_000):
            count += 1


def positions(name: str, count: int, seed: int) -> list[Any]:
    """`count` running positions of random games, spread over their plies."""
    game = get_game(name)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        bound = rng.randrange(0, PLIES.get(name, DEFAULT_PLIES))
        *_, state = random_states(game, rng, bound=bound)
        if game.outcome(state) is None:
            found.append(state)
    return found


def measure(name: str, level: int, states: list[Any], pool_answers: list[Any]) -> Row:
    """Fill a row from the answers (and their timings), comparing with quiet searches."""
    row = Row()
    for index, (state, (answer, wall)) in enumerate(zip(states, pool_answers, strict=True)):
        row.wall.append(wall)
        if answer.fallback is not None:
            row.fallbacks += 1
            continue
        row.cpu.append(answer.info.get("cpu", 0.0))
        nodes = answer.info.get("nodes")
        if nodes:
            quiet = ai.choose(name, state, level=level, seed=index, nodes=nodes)
            row.compared += 1
            row.same += quiet.move == answer.move
    return row


async def timed(pool: WorkerPool, name: str, level: int, states: list[Any]) -> list[Any]:
    """The pool's answer for each position, one at a time as the bot asks, with the wall
    seconds each took."""
    answers = []
    game = get_game(name)
    for index, state in enumerate(states):
        start = time.perf_counter()
        answer = await pool.choose(name, game.dump(state), level, seed=index)
        answers.append((answer, time.perf_counter() - start))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--burners", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--moves", type=int, default=20, help="moves asked per game and level")
    parser.add_argument("--game", action="append", choices=list(GAMES), help="default: all")
    parser.add_argument("--level", action="append", type=int, choices=[1, 2, 3])
    args = parser.parse_args()
    names = args.game or list(GAMES)
    levels = args.level or [1, 2, 3]
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    burners = [context.Process(target=burn, args=(stop,), daemon=True) for _ in range(args.burners)]
    for process in burners:
        process.start()
    asked: dict[tuple[str, int], tuple[list[Any], list[Any]]] = {}

    async def run() -> None:
        async with WorkerPool(1) as pool:
            for name in names:
                states = positions(name, args.moves, seed=1)
                for level in levels:
                    asked[name, level] = (states, await timed(pool, name, level, states))

    try:
        asyncio.run(run())
    finally:
        stop.set()
        for process in burners:
            process.join()
    print(f"{args.burners} burners on {os.cpu_count()} cores; {args.moves} moves a row")
    print(
        f"{'game':7} {'level':>5} {'fallbacks':>9} {'cpu s med/max':>14} "
        f"{'wall s med/max':>15} {'same as quiet':>14}"
    )
    for (name, level), (states, answers) in asked.items():
        row = measure(name, level, states, answers)
        cpu = f"{statistics.median(row.cpu):.2f}/{max(row.cpu):.2f}" if row.cpu else "-"
        wall = f"{statistics.median(row.wall):.2f}/{max(row.wall):.2f}"
        same = f"{row.same}/{row.compared}"
        print(f"{name:7} {level:5} {row.fallbacks:9} {cpu:>14} {wall:>15} {same:>14}")


if __name__ == "__main__":
    main()
