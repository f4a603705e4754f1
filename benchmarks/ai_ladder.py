"""AI strength: level against level (or a uniformly random player) in every game.

Seats alternate between games; a draw scores half. Prints each pairing's score with a 95%
Wilson interval and the CPU time per AI move (median and max).

Run: python -m benchmarks.ai_ladder [--games N] [--seconds 3=2.0 2=0.5] [--game boku ...]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import ai
from rules import GAMES, get_game

RANDOM = 0  # the uniformly random player, as a level
PAIRINGS = ((3, RANDOM), (3, 1), (2, RANDOM))
PLY_CAP = 300  # a game still going after this many plies counts as a draw


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(
    name: str, levels: dict[int, int], seconds: dict[int, float], seed: int, times: list[float]
) -> float:
    """One game (seat -> level); returns seat 1's score. The AI's CPU times go to `times`."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(seed=seed)
    while game.outcome(state) is None and game.ply(state) < PLY_CAP:
        seat = game.to_move(state)
        level = levels[seat]
        if level == RANDOM:
            move = rng.choice(game.legal_moves(state))
        else:
            start = time.process_time()
            move = ai.choose_move(name, state, level=level, seconds=seconds.get(level), seed=seed)
            times.append(time.process_time() - start)
        state = game.apply(state, move, check=False)
    outcome = game.outcome(state)
    if outcome is None or outcome.is_draw:
        return 0.5
    return 1.0 if outcome.winners == (1,) else 0.0


def pairing(name: str, strong: int, weak: int, games: int, seconds: dict[int, float]) -> str:
    """One line of the table; the times are of both AI sides' moves."""
    score, wins, draws = 0.0, 0, 0
    times: list[float] = []
    for index in range(games):
        strong_seat = 1 + index % 2
        levels = {strong_seat: strong, 3 - strong_seat: weak}
        seat_one = play(name, levels, seconds, seed=index, times=times)
        result = seat_one if strong_seat == 1 else 1.0 - seat_one
        score += result
        wins += result == 1.0
        draws += result == 0.5
    low, high = wilson(score, games)
    label = f"L{strong} vs {'random' if weak == RANDOM else f'L{weak}'}"
    median = statistics.median(times) if times else 0.0
    return (
        f"{name:7} {label:13} {games:5} {wins:4} {draws:5} {score / games:6.0%}"
        f"  [{low:4.0%}, {high:4.0%}]  {median:7.3f} {max(times, default=0.0):7.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--game", action="append", choices=list(GAMES), help="default: all")
    parser.add_argument(
        "--seconds", nargs="*", default=[], help="level=seconds overrides, e.g. 3=0.5 2=0.2"
    )
    args = parser.parse_args()
    seconds = {int(k): float(v) for k, v in (item.split("=") for item in args.seconds)}
    print(
        f"{'game':7} {'pairing':13} {'games':>5} {'wins':>4} {'draws':>5} {'score':>6}"
        f"  {'95% CI':12}  {'med s':>7} {'max s':>7}"
    )
    for name in args.game or list(GAMES):
        for strong, weak in PAIRINGS:
            print(pairing(name, strong, weak, args.games, seconds), flush=True)


if __name__ == "__main__":
    main()
