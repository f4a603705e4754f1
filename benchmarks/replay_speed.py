"""Animated replay cost: CPU and wall seconds, size, frames and playing time of the GIF of
random games of every registered game (100 turns, shorter when a game ends sooner), then of
two long ones: a 444-turn four-player Boost game and a long Kyo game. A replay is made by
`record_gif`, the worker-process entry point, from the game's record (replayed where the GIF
is made), after a warm-up replay fills the caches. Budgets: under 4 MB, playing at most 45 s.

Run: python -m benchmarks.replay_speed [--turns N] [--games N] [--kyo-turns N] [--theme NAME]
"""

from __future__ import annotations

import argparse
import io
import random
import time

from PIL import Image, ImageSequence

from bot.posts.pictures import picture_words
from renderers import record_gif
from rules import GAMES, get_game
from rules.playout import random_turns
from rules.records import Record

WORDS = picture_words("en")

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def random_record(name: str, players: int, turns: int, seed: int) -> Record:
    """A random game of at most `turns` turns, as the record a finished match sends."""
    game = get_game(name)
    start = game.new(players=players, seed=seed)
    played = random_turns(game, random.Random(seed), start, bound=turns)
    moves = tuple(game.format_move(state, move) for state, move, _ in played)
    return Record(name, start.variant, players, seed, moves)


def measure(record: Record, theme: str, label: str) -> None:
    start, cpu_start = time.perf_counter(), time.process_time()
    data = record_gif(record, names=NAMES, theme=theme, words=WORDS)
    cpu, wall = time.process_time() - cpu_start, time.perf_counter() - start
    times = [
        frame.info["duration"] for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))
    ]
    seconds = sum(times) / 1000
    print(
        f"{label:16} {len(record.turns) + 1:6} {len(times):7} {seconds:7.1f} {cpu:7.2f}"
        f" {wall:7.2f} {len(data) / 1_000_000:7.2f}"
    )


def long_record(name: str, players: int, turns: int, seed: int) -> Record:
    """A random game of exactly `turns` turns: games that end sooner are set aside."""
    while True:
        record = random_record(name, players, turns, seed)
        if len(record.turns) == turns:
            return record
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--kyo-turns", type=int, default=160)
    parser.add_argument("--theme", default="classic")
    args = parser.parse_args()
    print(
        f"{'game':16} {'states':>6} {'frames':>7} {'plays s':>7} {'CPU s':>7} {'wall s':>7}"
        f" {'MB':>7}"
    )
    for name in GAMES:
        record_gif(random_record(name, 2, 1, 0), theme=args.theme, words=WORDS)
        for seed in range(1, args.games + 1):
            measure(random_record(name, 2, args.turns, seed), args.theme, name)
    measure(long_record("boost", 4, 444, 1), args.theme, "boost 4p long")
    measure(long_record("kyo", 2, args.kyo_turns, 1), args.theme, "kyo long")


if __name__ == "__main__":
    main()
