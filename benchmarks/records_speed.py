"""Game records' cost per game, in CPU and wall milliseconds: writing one finished game as text
and as APGameRecord JSON (done on the event loop, once per match of `/export all`), reading
it back and replaying it (done in a thread), and zipping a thousand games' files (a thread).

Run: python -m benchmarks.records_speed [--games N]
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from typing import Any

import rules
from bot.records import Export, Player, json_record, read_record, replay, text_record
from bot.records.archive import archives
from rules.playout import random_turns

BOUND = {"kyo": 20}  # plies of a random game (Kyo's turns are costly to list)


def game_export(name: str, seed: int) -> Export:
    game = rules.get_game(name)
    rng = random.Random(f"{name}:{seed}")
    turns, seats = [], []
    state = game.new(seed=seed)
    for before, move, after in random_turns(game, rng, state, BOUND.get(name, 200)):
        turns.append(game.format_move(before, move))
        seats.append(game.to_move(before))
        state = after
    return Export(
        match_id=seed,
        game=game,
        variant=state.variant,
        seed=seed,
        players=tuple(Player(f"p{n}", n, game.seat_phrase(n)) for n in (1, 2)),
        turns=tuple(turns),
        seats=tuple(seats),
        started="2026-11-20T10:00:00.000+00:00",
        ended="2026-11-21T10:00:00.000+00:00",
        generated="2026-11-22T10:00:00.000+00:00",
        days=3,
        result=game.outcome(state) or rules.Outcome((), rules.Reason.AGREEMENT),
        server="Board club",
    )


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
        exports = [game_export(name, seed) for seed in range(1, args.games + 1)]
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
