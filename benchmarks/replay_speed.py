"""Animated replay cost: CPU and wall seconds, size, frames and playing time of the GIF of
random games of every registered game (100 turns, shorter when a game ends sooner), then of
two long ones: a 444-turn four-player Boost game and a long Kyo game. A replay is made by
`replay_gif`, the worker-process entry point, from the positions' dumps, after a warm-up
replay fills the caches. Budgets: under 4 MB, playing at most 45 s.

Run: python -m benchmarks.replay_speed [--turns N] [--games N] [--kyo-turns N] [--theme NAME]
"""

from __future__ import annotations

import argparse
import io
import random
import time
from typing import Any

from PIL import Image, ImageSequence

from renderers import replay_gif
from rules import GAMES, get_game
from rules.playout import random_states

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def measure(name: str, states: list[Any], theme: str, label: str) -> None:
    game = get_game(name)
    dumps = [game.dump(state) for state in states]
    start, cpu_start = time.perf_counter(), time.process_time()
    data = replay_gif(name, dumps, names=NAMES, theme=theme)
    cpu, wall = time.process_time() - cpu_start, time.perf_counter() - start
    times = [
        frame.info["duration"] for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))
    ]
    seconds = sum(times) / 1000
    print(
        f"{label:16} {len(states):6} {len(times):7} {seconds:7.1f} {cpu:7.2f} {wall:7.2f}"
        f" {len(data) / 1_000_000:7.2f}"
    )


def long_states(name: str, players: int, turns: int, seed: int) -> list[Any]:
    """A random game of exactly `turns` turns: games that end sooner are set aside."""
    game, rng = get_game(name), random.Random(seed)
    while True:
        start = game.new(players=players, seed=rng.randrange(1 << 30))
        states = list(random_states(game, rng, start, bound=turns))
        if len(states) == turns + 1:
            return states


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
    for name, game in GAMES.items():
        rng = random.Random(1)
        games = [list(random_states(game, rng, bound=args.turns)) for _ in range(args.games)]
        replay_gif(name, [game.dump(state) for state in games[0][:2]], theme=args.theme)
        for states in games:
            measure(name, states, args.theme, name)
    measure("boost", long_states("boost", 4, 444, 1), args.theme, "boost 4p long")
    measure("kyo", long_states("kyo", 2, args.kyo_turns, 1), args.theme, "kyo long")


if __name__ == "__main__":
    main()
