"""Swiss pairing and standings cost by field size: the slowest round of a whole event with
random results, and the final table, in CPU and wall milliseconds. The bot pairs in a worker
thread; this says how large a field stays within a few milliseconds all the same.

Run: python -m benchmarks.pairing_speed [--events N]
"""

from __future__ import annotations

import argparse
import random
import time

from bot.service.pairing import DRAW, LOSS, WIN, Result, System, pair_swiss, standings, swiss_rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=5)
    args = parser.parse_args()
    print(f"{'players':>7} {'rounds':>6} {'round CPU ms':>12} {'wall ms':>8} {'table CPU ms':>12}")
    for count in (8, 16, 32, 64, 128):
        players = list(range(count))
        worst_cpu = worst_wall = table_cpu = 0.0
        for event in range(args.events):
            rng = random.Random(f"{count}:{event}")
            history: list[Result] = []
            for number in range(1, swiss_rounds(count) + 1):
                start, cpu_start = time.perf_counter(), time.process_time()
                pairings = pair_swiss(players, history)
                worst_cpu = max(worst_cpu, time.process_time() - cpu_start)
                worst_wall = max(worst_wall, time.perf_counter() - start)
                history += [
                    Result(number, p, WIN if p.bye else rng.choice([WIN, DRAW, LOSS]))
                    for p in pairings
                ]
            cpu_start = time.process_time()
            standings(players, history, System.SWISS)
            table_cpu = max(table_cpu, time.process_time() - cpu_start)
        print(
            f"{count:7} {swiss_rounds(count):6} {worst_cpu * 1000:12.1f}"
            f" {worst_wall * 1000:8.1f} {table_cpu * 1000:12.1f}"
        )


if __name__ == "__main__":
    main()
