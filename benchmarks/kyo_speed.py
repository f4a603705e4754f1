"""Kyo's player-facing calls, in CPU time: parse + apply of a typed turn, the pass check, one
picker click (a node's children with their labels), autocomplete and the hint under a refused
turn. Median, p99 and max over random games and over the busiest positions we know.

Random games pick each turn by walking the lazy picker tree at random (no complete listing),
so they reach positions a uniform choice over turns would rarely visit. Each call runs on a
fresh game object, so nothing is cached between calls.

Run: python -m benchmarks.kyo_speed [--games N] [--plies N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from fixtures.positions import diagram
from rules.kyo import Kyo, KyoState
from rules.movetree import MoveTree
from rules.state import PASS

# The busiest positions we know (fixtures/positions/kyo.json says where each comes from).
WORST = (
    "queen field",
    "tower road",
    "queen in a 5x5 mana field",
    "tower DSST in a 6x6 field",
    "heavy with one chip, 8x8 field",
)


def cpu(call: Callable[[], Any]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def random_turn(game: Kyo, state: KyoState, rng: random.Random, stop: float) -> Any:
    """A turn chosen by walking the picker tree: at each node stop (if a move ends there, with
    chance `stop`) or take a random child."""
    node: MoveTree = game.move_tree(state)
    while True:
        children = list(node.children)
        if node.move is not None and (not children or rng.random() < stop):
            return node.move
        node = node.children[rng.choice(children)]


def measure(
    samples: dict[str, list[float]], state: KyoState, rng: random.Random, stop: float = 0.4
) -> Any:
    """Time each call on `state`; return a turn to play on."""
    move = random_turn(Kyo(), state, rng, stop)
    text = str(move)
    samples["parse + apply"].append(cpu(lambda: Kyo().apply(state, Kyo().parse_move(state, text))))
    samples["pass check"].append(cpu(lambda: Kyo().must_pass(state)))
    tokens = move.tokens if move is not PASS else ("pass",)
    prefix = tokens[: rng.randrange(len(tokens))]

    def click() -> None:
        game = Kyo()
        node = game.move_tree(state).walk(prefix)
        assert node is not None
        for token in node.children:
            game.token_label(state, prefix, token)

    samples["picker click"].append(cpu(click))
    typed = text[: rng.randrange(2, len(text) + 1)]
    samples["autocomplete"].append(cpu(lambda: Kyo().completions(state, typed, 25)))
    samples["hint"].append(cpu(lambda: Kyo().nearest_moves(state, text + "-a1", 5)))
    return move


def report(title: str, samples: dict[str, list[float]]) -> None:
    print(f"\n{title}")
    print(f"{'call':14} {'n':>5} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for name, times in samples.items():
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        median, worst = statistics.median(ordered) * 1e3, ordered[-1] * 1e3
        print(f"{name:14} {len(ordered):5} {median:10.2f} {p99 * 1e3:8.2f} {worst:8.2f}")


def fresh() -> dict[str, list[float]]:
    return {k: [] for k in ("parse + apply", "pass check", "picker click", "autocomplete", "hint")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(13)
    game = Kyo()
    played = fresh()
    for number in range(args.games):
        state = game.new(variant=list(game.variants)[number % 3])
        while game.outcome(state) is None and state.ply < args.plies:
            state = game.apply(state, measure(played, state, rng), check=False)
    report(f"{args.games} random games of up to {args.plies} plies", played)
    worst = fresh()
    for name in WORST:
        state = game.parse_diagram(diagram("kyo", name))
        for _ in range(20):
            measure(worst, state, rng, stop=0.1)
    report(f"worst positions ({', '.join(WORST)}), 20 long turns each", worst)


if __name__ == "__main__":
    main()
