"""Computer analysis: what judging a whole game costs, and how much two runs agree.

For each game, a game of up to `--turns` turns is played by level 1 with every `--slip`th turn
a random move, so there are real mistakes to find (a node budget and a seed: the same game on
every run), then judged twice at the default budget with different seeds.
Prints the CPU and wall seconds of the first run (the target is under 60 s of CPU for 100
turns), the marks each run gave, and their agreement: the share of moves given the same mark
(none included), and of the moves either run marked, the share both marked alike.

Run: python -m benchmarks.analysis [--turns 100] [--seconds 0.5] [--game boku ...]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

import ai
from ai.analysis import ANALYSIS_SECONDS, Judgement, Mark, judge
from rules import GAMES, get_game


def played_game(name: str, turns: int, seed: int, slip: int) -> tuple[list[Any], list[str]]:
    """The positions and turns of a level-1 game with a random move every `slip` turns."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(seed=seed)
    states: list[Any] = [state]
    texts: list[str] = []
    while game.outcome(state) is None and len(texts) < turns:
        if len(texts) % slip == slip - 1:
            move = rng.choice(game.legal_moves(state))
        else:
            move = ai.choose_move(name, state, level=1, nodes=40, seed=seed)
        texts.append(game.format_move(state, move))
        state = game.apply(state, move, check=False)
        states.append(state)
    return states, texts


def counts(judged: list[Judgement]) -> str:
    marks = [j.mark for j in judged]
    return "/".join(str(marks.count(mark)) for mark in Mark)


def agreement(first: list[Judgement], second: list[Judgement]) -> tuple[float, float]:
    """Same mark on a move (none counts), and alike among the moves either run marked."""
    moves = [(a, b) for a, b in zip(first, second, strict=True) if a.seat is not None]
    same = sum(a.mark == b.mark for a, b in moves) / max(1, len(moves))
    marked = [(a, b) for a, b in moves if a.mark is not None or b.mark is not None]
    alike = sum(a.mark == b.mark for a, b in marked) / len(marked) if marked else 1.0
    return same, alike


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=ANALYSIS_SECONDS)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--seed", type=int, default=1, help="the played game's seed")
    parser.add_argument("--slip", type=int, default=8, help="a random move every N turns")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"{'game':7} {'turns':>5} {'cpu s':>7} {'wall s':>7} {'cpu/pos':>7}"
        f" {'marks i/m/b':>11} {'again':>11} {'same mark':>9} {'marked alike':>12}"
    )
    for name in args.game or list(GAMES):
        states, turns = played_game(name, args.turns, args.seed, args.slip)
        cpu, wall = time.process_time(), time.perf_counter()
        first = judge(name, states, turns, seconds=args.seconds, seed=1)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        second = judge(name, states, turns, seconds=args.seconds, seed=2)
        same, alike = agreement(first, second)
        print(
            f"{name:7} {len(turns):5} {cpu:7.1f} {wall:7.1f} {cpu / len(states):7.3f}"
            f" {counts(first):>11} {counts(second):>11} {same:9.0%} {alike:12.0%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
