"""Kyo's takes against its complete listing, in CPU time: what the search's threat finder
(rules.kyo.turns.TakeFinder) saves. For each position: its turns and the time to list them
(`legal_turns`), the time to find the mover's takes with a fresh finder, and, over the
position's turns (up to --turns of them), the time to find the opponent's takes after each
turn with a fresh finder against the root's finder reused (what the search does).

Positions: the busiest ones we know (fixtures/positions/kyo.json) and positions of seeded random
games.

Run: python -m benchmarks.kyo_takes [--turns 300]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from fixtures.positions import diagram
from rules.kyo import Kyo, KyoState
from rules.kyo.board import SIDES
from rules.kyo.turns import TakeFinder, legal_turns
from rules.playout import random_states

# The busiest positions that list in seconds (the 5x5 queen field takes minutes).
BUSY = ("queen field", "tower road", "heavy with one chip, 8x8 field")
# Random games whose positions list in seconds (others reach 100,000 turns), as the tests'.
RANDOM_GAMES, PLIES = (1, 2, 4), (60, 90, 120)


def cpu(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def measure(name: str, state: KyoState, most: int) -> None:
    mover, other = SIDES[state.turn], SIDES[3 - state.turn]
    listing, finals = cpu(lambda: legal_turns(state.board, mover))
    finding, takes = cpu(lambda: TakeFinder(state.board, mover).takes(state.board))
    boards = list(finals.best)[:most]
    fresh, _ = cpu(lambda: [TakeFinder(b, other).takes(b) for b in boards])
    reused, _ = cpu(
        lambda: [finder.takes(b) for finder in [TakeFinder(state.board, other)] for b in boards]
    )
    print(
        f"{name:34} {len(finals.best):7} {listing * 1e3:9.1f} {len(takes):5} {finding * 1e3:8.2f}"
        f" {len(boards):6} {fresh / len(boards) * 1e3:9.3f} {reused / len(boards) * 1e3:9.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args()
    game = Kyo()
    print(
        f"{'position':34} {'turns':>7} {'list ms':>9} {'takes':>5} {'find ms':>8}"
        f" {'after':>6} {'fresh ms':>9} {'reused ms':>9}"
    )
    for name in BUSY:
        measure(name, game.parse_diagram(diagram("kyo", name)), args.turns)
    for seed in RANDOM_GAMES:
        for state in random_states(game, random.Random(seed), bound=max(PLIES)):
            if state.ply in PLIES and state.result is None:
                measure(f"random game {seed}, ply {state.ply}", state, args.turns)


if __name__ == "__main__":
    main()
