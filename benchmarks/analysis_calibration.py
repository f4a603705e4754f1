"""Calibrating the computer analysis on real play (issue 37), game by game.

1. Accuracy. `--games` games of a random player against level 3 (seats alternated) and as
   many of level 3 against itself, each judged by the analysis at `--seconds` a position:
   the random player's mean accuracy should be at most 60, level 3's at least 80. Also the
   analysis's CPU seconds per position (second looks included) and what a 100-turn game's
   analysis would cost at that rate (the target: under 180 s).
2. Blunders. Positions of the self-play games where one move is a blunder and the judge's
   best move is not, both confirmed by readings with ten times the analysis's budget: the
   position is still open (the mover's chance 15-95%), its best move loses under 5 points
   and a random other move at least 15 (or into a position found lost). Up to `--positions`
   of them; the analysis then judges each move alone (the position and the one after it,
   second looks included) and should mark at least 90% of the blunders as blunders and at
   most 10% of the best moves at all.

Level 3 plays at `--level-seconds` of CPU a move (its own 2 s by default) and a game stops
at `--plies` (a draw). Every search stops on CPU time only, so a busy machine slows the run
without changing the figures. `--quick` plays 2 games of each kind with level 3 at 0.25 s
and looks for 4 blunder positions: a check that everything runs, not a calibration.

Run: python -m benchmarks.analysis_calibration [--game boku ...] [--games 10]
     [--positions 20] [--seconds S] [--level-seconds 2.0] [--plies 200] [--jobs 2] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import ai
from ai.analysis import (
    ANALYSIS_SECONDS,
    THRESHOLDS,
    Judgement,
    Mark,
    Reading,
    is_forced,
    judge,
    read_position,
    summarise,
)
from rules import GAMES, get_game

CONFIRM = 10  # the confirming readings' budget, in analysis budgets
OPEN = (0.15, 0.95)  # the mover's chance in a position where a blunder can be confirmed
CANDIDATES = 3  # random moves tried as blunders in a position
TURNS = 100  # the game length whose analysis cost is reported


@dataclass(frozen=True)
class Options:
    games: int
    positions: int
    seconds: float
    level_seconds: float
    plies: int


@dataclass
class Figures:
    """One game's results."""

    name: str
    random_accuracy: list[float] = field(default_factory=list)
    level_accuracy_random: list[float] = field(default_factory=list)
    level_accuracy_self: list[float] = field(default_factory=list)
    cpu_per_position: list[float] = field(default_factory=list)
    blunders: int = 0
    blunders_marked: int = 0
    best_marked: int = 0
    tried: int = 0
    lengths: list[int] = field(default_factory=list)
    cpu: float = 0.0


def play(
    name: str, random_seat: int | None, seed: int, level_seconds: float, plies: int
) -> tuple[list[Any], list[str]]:
    """One game: level 3 in every seat but `random_seat` (None: level 3 against itself)."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(seed=seed)
    states, turns = [state], []
    while game.outcome(state) is None and game.ply(state) < plies:
        if game.to_move(state) == random_seat:
            move = rng.choice(game.legal_moves(state))
        else:
            move = ai.choose(
                name, state, level=3, seconds=level_seconds, seed=seed, cpu_only=True
            ).move
        turns.append(game.format_move(state, move))
        state = game.apply(state, move, check=False)
        states.append(state)
    return states, turns


def analysed(name: str, states: list[Any], turns: list[str], seconds: float) -> list[Judgement]:
    return judge(name, states, turns, seconds=seconds, seed=1, cpu_only=True)


def confirmed(name: str, state: Any, seconds: float, seed: int) -> Reading:
    """A reading with CONFIRM times the analysis's budget."""
    dump = get_game(name).dump(state)
    return read_position(name, dump, seconds=seconds * CONFIRM, seed=seed, cpu_only=True)


def find_blunder(
    name: str, state: Any, seconds: float, rng: random.Random, figures: Figures
) -> tuple[Any, Any] | None:
    """(best move, blunder) of a position where both are confirmed (module docstring)."""
    game = get_game(name)
    if game.outcome(state) is not None or is_forced(game, state):
        return None
    seat = game.to_move(state) - 1
    before = confirmed(name, state, seconds, 1)
    chance = before.chances[seat]
    if not OPEN[0] <= chance <= OPEN[1] or before.best is None:
        return None
    best = game.parse_move(state, before.best)
    after_best = confirmed(name, game.apply(state, best, check=False), seconds, 2)
    if chance - after_best.chances[seat] >= THRESHOLDS[-1][0] / 100:
        return None
    others = [m for m in game.legal_moves(state) if m != best]
    for move in rng.sample(others, min(CANDIDATES, len(others))):
        figures.tried += 1
        after = confirmed(name, game.apply(state, move, check=False), seconds, 3)
        lost = after.chances[seat] == 0.0
        if lost or chance - after.chances[seat] >= THRESHOLDS[0][0] / 100:
            return best, move
    return None


def calibrate(name: str, options: Options, details: bool) -> Figures:
    """Everything the module docstring lists, for one game (run in a worker process)."""
    start = time.process_time()
    figures = Figures(name)
    game = get_game(name)
    selfplay: list[Any] = []
    for number in range(options.games):
        for random_seat in (1 + number % 2, None):
            seed = 1000 * number + (0 if random_seat is None else random_seat)
            states, turns = play(name, random_seat, seed, options.level_seconds, options.plies)
            figures.lengths.append(len(turns))
            cpu = time.process_time()
            summaries = summarise(analysed(name, states, turns, options.seconds), 2)
            figures.cpu_per_position.append((time.process_time() - cpu) / len(states))
            for summary in summaries:
                if summary.moves == 0:
                    continue
                if random_seat is None:
                    figures.level_accuracy_self.append(summary.accuracy)
                elif summary.seat == random_seat:
                    figures.random_accuracy.append(summary.accuracy)
                else:
                    figures.level_accuracy_random.append(summary.accuracy)
            if random_seat is None:
                selfplay += states[1:-1]
    rng = random.Random(name)
    rng.shuffle(selfplay)
    for state in selfplay:
        if figures.blunders >= options.positions:
            break
        found = find_blunder(name, state, options.seconds, rng, figures)
        if found is None:
            continue
        figures.blunders += 1
        best, blunder = found
        judged = []
        for move in (blunder, best):
            after = game.apply(state, move, check=False)
            turn = game.format_move(state, move)
            judged.append(analysed(name, [state, after], [turn], options.seconds)[0])
        figures.blunders_marked += judged[0].mark is Mark.BLUNDER
        figures.best_marked += judged[1].mark is not None
        if details:
            words = [f"{j.played} {j.mark} {j.loss:.0f} (better {j.better})" for j in judged]
            print(f"{name} ply {game.ply(state)}: blunder {words[0]}; best {words[1]}", flush=True)
    figures.cpu = time.process_time() - start
    return figures


def mean(values: list[float]) -> str:
    return f"{statistics.mean(values):5.1f}" if values else "    -"


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} {part / whole:4.0%}" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=ANALYSIS_SECONDS)
    parser.add_argument("--level-seconds", type=float, default=ai.LEVELS[3].seconds)
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="2 games, 4 positions, 0.25 s")
    parser.add_argument("--details", action="store_true", help="each blunder position's marks")
    args = parser.parse_args()
    options = Options(args.games, args.positions, args.seconds, args.level_seconds, args.plies)
    if args.quick:
        options = Options(2, 4, args.seconds, 0.25, args.plies)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {options}")
    print(
        f"{'game':7} {'random':>6} {'3 v rnd':>7} {'3 v 3':>6} {'cpu/pos':>7}"
        f" {f'{TURNS} turns':>9} {'blunders marked':>16} {'best marked':>12} {'tried':>5}"
        f" {'plies (median)':>14} {'cpu s':>7}"
    )
    names = args.game or list(GAMES)
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = pool.map(calibrate, names, [options] * len(names), [args.details] * len(names))
        for figures in jobs:
            per_position = max(figures.cpu_per_position)
            print(
                f"{figures.name:7} {mean(figures.random_accuracy):>6}"
                f" {mean(figures.level_accuracy_random):>7} {mean(figures.level_accuracy_self):>6}"
                f" {per_position:7.2f} {per_position * (TURNS + 1):9.0f}"
                f" {share(figures.blunders_marked, figures.blunders):>16}"
                f" {share(figures.best_marked, figures.blunders):>12} {figures.tried:5}"
                f" {statistics.median(figures.lengths):14.0f} {figures.cpu:7.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
