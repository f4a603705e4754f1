"""Game records' cost per game, in CPU and wall milliseconds: writing one finished game as text
and as APGameRecord JSON (done on the event loop, once per match of `/export all`), reading
it back and replaying it (done in a thread), and zipping a thousand games' files (a thread).

Run: python -m benchmarks.records_speed [--games N]
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import Any

import rules
from bot.records import Export, json_record, read_record, replay, text_record
from bot.records.archive import archives
from fixtures.records import random_export

BOUND = {"kyo": 20}  # plies of a random game (Kyo's turns are costly to list)


def written(exports: list[Export]) -> None:
    for export in exports:
        text_record(export)
        json_record(export)


def read_back(texts: list[str]) -> None:
    for text in texts:
        replay(read_record(text.encode()))


def timed(work: Callable[[], Any], times: int) -> tuple[float, float]:
    """Milliseconds per call: CPU, wall."""
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(times):
        work()
    return (
        1000 * (time.process_time() - cpu) / times,
        1000 * (time.perf_counter() - start) / times,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<8} {'turns':>5} {'write CPU/wall ms':>18} {'read+replay CPU/wall ms':>24}")
    files: list[tuple[str, str]] = []
    for name in rules.GAMES:
        variant = rules.get_game(name).default_variant
        exports = [
            random_export(name, variant, 2, seed, BOUND.get(name, 200))[0]
            for seed in range(1, args.games + 1)
        ]
        turns = sum(len(e.turns) for e in exports) / len(exports)
        texts = [(text_record(e), json_record(e)) for e in exports]
        files += [(f"{e.stem}.txt", t) for e, (t, _) in zip(exports, texts, strict=True)]
        write = timed(functools.partial(written, exports), 3)
        read = timed(functools.partial(read_back, [t for t, _ in texts]), 1)
        per = len(exports)
        print(
            f"{name:<8} {turns:>5.0f} {write[0] / per:>9.2f} /{write[1] / per:>6.2f} "
            f"{read[0] / per:>14.1f} /{read[1] / per:>7.1f}"
        )
    many = [
        (f"{n}-{name}", text) for n in range(1000) for name, text in files[n % len(files) :][:1]
    ]
    cpu, wall = timed(lambda: archives(many, 10 * 1024 * 1024), 1)
    print(f"zip of 1,000 text records: {cpu:.0f} ms CPU, {wall:.0f} ms wall")


if __name__ == "__main__":
    main()
