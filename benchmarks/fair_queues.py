"""Fair queues (issue 38): one member's level-3 games must not hold up another's level-1 reply.

One pool (bot/workers/pool.py, AI_WORKERS=1 unless --workers) and one member ("alice")
asking for --games level-3 moves at once, as twelve running games do; once her searches fill
the pool, another member ("bob") asks for a level-1 move, --replies times one after another.
Prints bob's wall seconds per reply (the target: his level's CPU budget plus one second),
the CPU seconds his searches took, and alice's moves per wall second meanwhile.

Run: python -m benchmarks.fair_queues [--games 12] [--replies 5] [--workers 1] [--game boku]
     [--bob alice]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai  # noqa: E402
from bot.workers.pool import WorkerPool  # noqa: E402
from rules import GAMES, get_game  # noqa: E402
from rules.playout import random_states  # noqa: E402


def position(name: str, seed: int) -> Any:
    """A running position some plies into a random game."""
    game = get_game(name)
    rng = random.Random(seed)
    while True:
        *_, state = random_states(game, rng, bound=rng.randrange(4, 12))
        if game.outcome(state) is None:
            return state


async def run(args: argparse.Namespace) -> None:
    game = get_game(args.game)
    dump = game.dump(position(args.game, 1))
    async with WorkerPool(args.workers) as pool:
        await asyncio.gather(
            pool.choose(args.game, dump, 1, seed=0, owner="alice"),
            pool.choose(args.game, dump, 1, seed=0, owner="bob"),
        )  # start the processes before measuring
        alice_done: list[float] = []
        started = time.perf_counter()

        async def alice(index: int) -> None:
            await pool.choose(args.game, dump, 3, seed=index, owner="alice")
            alice_done.append(time.perf_counter() - started)

        games = [asyncio.create_task(alice(index)) for index in range(args.games)]
        await asyncio.sleep(0.5)
        walls, cpus = [], []
        for index in range(args.replies):
            asked = time.perf_counter()
            answer = await pool.choose(args.game, dump, 1, seed=index, owner=args.bob)
            walls.append(time.perf_counter() - asked)
            cpus.append(answer.info.get("cpu", 0.0))
            await asyncio.sleep(0.3)
        await asyncio.gather(*games)
        elapsed = time.perf_counter() - started
    budget = ai.LEVELS[1].seconds
    print(f"{os.cpu_count()} cores; AI_WORKERS={args.workers}; {args.game}")
    print(f"alice: {args.games} level-3 moves in {elapsed:.1f} s wall")
    print(
        f"bob:   {args.replies} level-1 replies, wall s med/max "
        f"{statistics.median(walls):.2f}/{max(walls):.2f} (target <= {budget + 1:.2f}), "
        f"cpu s med/max {statistics.median(cpus):.2f}/{max(cpus):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--replies", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", choices=list(GAMES), default="boku")
    parser.add_argument(
        "--bob", default="bob", help="bob's name in the queue; 'alice' shows a shared queue"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
