"""Boost level 3 against the original Boost program's alpha-beta, at equal CPU time per move.

The original (github.com/friedev/boost, AGPL) is run, never copied: point `--original` at a
checkout of it (the folder holding its `boost_game` package). It searches to a fixed depth
(4 by default, its own default); our level 3 gets, each move, the mean CPU time the original
has spent per move so far in that game (when we move first, what the original spends on
the opening position, its move not played). Our rules referee: the
original is shown each position as its own board text, and its move is played through our
`parse_move`. A game stopped at `--plies` is adjudicated by our Boost evaluation (the lead in
material, towers and rings): a lead of more than a pawn counts as a win. Prints each game
and the score with a 95% Wilson interval.

Run: python -m benchmarks.boost_original --original /tmp/friedev [--games 6] [--plies 80]
     [--depth 4] [--jobs 2]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import ai
from ai.ladder import wilson
from bot.texts import say
from fixtures.boost_original import board_text
from rules import get_game
from rules.boost.state import BoostState

LEAD = 1.0  # an adjudicated game is won by a lead of more than this (a pawn)


class Original:
    """The original program's search, kept for a whole game (its caches persist, as in its
    own play)."""

    def __init__(self, folder: str, depth: int) -> None:
        sys.path.insert(0, folder)
        boost = importlib.import_module("boost_game.boost")
        rulesets = importlib.import_module("boost_game.rulesets")
        self.boost = boost
        self.game = boost.Game(rulesets.rulesets["p2"], depth=depth)

    def move_text(self, state: BoostState) -> str:
        """The original's move in our notation, e.g. `c1d3` or `e5`."""
        game = self.game
        board = self.boost.Board(game.ruleset)
        board.load(board_text(state))
        game.board = board
        game.turn = state.turn
        move = game.get_best_move()
        start = board.format_cell(move.start).lower()
        end = board.format_cell(move.end).lower()
        return str(start if start == end else start + end)


def play_one(folder: str, depth: int, plies: int, index: int) -> tuple[float, str, float, float]:
    """Game `index` (our seat alternating): our score, how it ended, and each side's mean
    CPU seconds per move (ours, the original's)."""
    game = get_game("boost")
    state = game.new(seed=index)
    original = Original(folder, depth)
    ours = 1 + index % 2
    spent: dict[int, list[float]] = {1: [], 2: []}
    if ours == 1:  # the original's time on the opening is our first budget
        start = time.process_time()
        original.move_text(state)
        first = time.process_time() - start
    while game.outcome(state) is None and game.ply(state) < plies:
        seat = game.to_move(state)
        start = time.process_time()
        if seat == ours:
            theirs = spent[3 - ours]
            budget = statistics.mean(theirs) if theirs else first
            move = ai.choose(
                "boost", state, level=3, seconds=budget, seed=index, cpu_only=True
            ).move
        else:
            move = game.parse_move(state, original.move_text(state))
        spent[seat].append(time.process_time() - start)
        state = game.apply(state, move)
    outcome = game.outcome(state)
    if outcome is not None:
        score = 0.5 if outcome.is_draw else 1.0 if ours in outcome.winners else 0.0
        how = f"{say(outcome.by_seat())} at ply {game.ply(state)}"
    else:
        lead = ai.EVALUATORS["boost"].score(state, ours)
        score = 1.0 if lead > LEAD else 0.0 if lead < -LEAD else 0.5
        how = f"stopped at ply {game.ply(state)}, our lead {lead:+.1f}"
    return score, how, statistics.mean(spent[ours]), statistics.mean(spent[3 - ours])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--original", required=True, help="folder holding boost_game/")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=80, help="adjudicate after this many")
    parser.add_argument("--depth", type=int, default=4, help="the original's search depth")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {
            pool.submit(play_one, args.original, args.depth, args.plies, index): index
            for index in range(args.games)
        }
        for future in as_completed(futures):  # each game as it ends: they are long
            index = futures[future]
            score, how, mine, theirs = future.result()
            results.append(score)
            print(
                f"game {index} (ours seat {1 + index % 2}): {score:.1f}  {how};"
                f" CPU s/move ours {mine:.2f}, original {theirs:.2f}",
                flush=True,
            )
    total = sum(results)
    low, high = wilson(total, args.games)
    print(f"level 3 vs original depth {args.depth}: {total}/{args.games}  [{low:.0%}, {high:.0%}]")


if __name__ == "__main__":
    main()
