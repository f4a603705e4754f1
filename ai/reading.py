"""One position of a game read by the judge's search: each seat's chance to win, its best move
and the line it expects. What a worker process runs for an analysis (ai/analysis.py turns the
readings of a game into marked moves), and all that the calibration's confirming readings
depend on: benchmarks/analysis_calibration.py keeps a confirmed position as long as this
module and the searches are unchanged (and the thresholds that define a blunder), however
the judgement of readings changes.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ai
from ai.base import Choice
from rules import get_game
from rules.game import Game
from rules.outcomes import Outcome

LEVEL = 3
"""The search that judges: the strongest level, on a budget of its own (the analysis's
`ANALYSIS_SECONDS`)."""

LINE_PLIES = 4
"""How much of the judge's line a reading keeps (its move and the replies it expects)."""

STORED_LOOK = 4
"""The budgets of a second look stored before readings kept their budgets (as `deeper`)."""


@dataclass(frozen=True)
class Reading:
    """What the search makes of one position: each seat's chance to win (0-1, by seat), its
    best move in notation (None once the game is over), whether that move was the only one,
    the line it expects (its move first, in notation) and how many budgets the search had
    (more than one for a second look)."""

    chances: tuple[float, ...]
    best: str | None = None
    forced: bool = False
    line: tuple[str, ...] = ()
    times: int = 1

    @property
    def deeper(self) -> bool:
        """Whether this is a second look."""
        return self.times > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "chances": list(self.chances),
            "best": self.best,
            "forced": self.forced,
            "line": list(self.line),
            "times": self.times,
            "deeper": self.deeper,  # what readings said before they kept their budgets
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        best = data.get("best")
        return cls(
            tuple(float(c) for c in data["chances"]),
            None if best is None else str(best),
            bool(data.get("forced", False)),
            tuple(str(move) for move in data.get("line", ())),
            int(data.get("times", STORED_LOOK if data.get("deeper") else 1)),
        )


def chances_from_search(choice: Choice) -> tuple[float, ...] | None:
    """Each seat's win chance as the search judged the position (its `info["chances"]`), or
    None if it gave none."""
    given = choice.info.get("chances")
    if given is None:
        return None
    return tuple(float(c) for c in given)


def proven(chances: Sequence[float]) -> bool:
    """Whether a search found the result (a seat certain to win or to lose)."""
    return any(c in (0.0, 1.0) for c in chances)


def returns(outcome: Outcome, players: int) -> tuple[float, ...]:
    """Each seat's share of a finished game: the winners share 1, a draw shares it among all."""
    if outcome.is_draw:
        return (1.0 / players,) * players
    share = 1.0 / len(outcome.winners)
    return tuple(share if seat in outcome.winners else 0.0 for seat in range(1, players + 1))


def is_forced(game: Game[Any, Any], state: Any) -> bool:
    """Whether the seat to move has exactly one legal move (found without listing them all)."""
    return len(list(itertools.islice(game.move_tree(state).moves(), 2))) == 1


def read_position(
    game_name: str,
    dump: Mapping[str, Any],
    *,
    seconds: float,
    seed: int = 0,
    nodes: int | None = None,
    cpu_only: bool = False,
) -> Reading:
    """Judge one position, given as its dump so that a worker process can run it.

    A short search overrates the side it searches for, so a position's chances are the mean
    of two searches, each on half the budget: one from the position, one from the position
    after its best move, where the next seat searches; their optimism pulls opposite ways and
    cancels. A found result outweighs a guess: the first search's when it finds one, the
    second's when it finds the mover's move wins (when it finds that move loses, the judge's
    own choice was wrong, which is what a second look is for). A forced position is worth
    what the position after its only move is worth. `cpu_only` as in `ai.choose`."""
    game = get_game(game_name)
    state = game.load(dump)
    line: list[str] = []
    forced = False
    half_seconds, half_nodes = seconds / 2, None if nodes is None else max(1, nodes // 2)
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            return Reading(returns(outcome, game.players(state)), _first(line), forced, tuple(line))
        if is_forced(game, state):
            move = next(iter(game.move_tree(state).moves()))
            forced = forced or not line
            line.append(game.format_move(state, move))
            state = game.apply(state, move, check=False)
            continue
        choice = ai.choose(
            game.name,
            state,
            level=LEVEL,
            seconds=half_seconds,
            seed=seed,
            nodes=half_nodes,
            cpu_only=cpu_only,
        )
        here = chances_from_search(choice)
        line.append(game.format_move(state, choice.move))
        after = game.apply(state, choice.move, check=False)
        there = _chances(game, after, Budget(half_seconds, seed, half_nodes, cpu_only), line)
        mover = game.to_move(state) - 1
        if here is None or there[mover] == 1.0:
            chances = there
        elif proven(here):
            chances = here
        else:
            chances = tuple((a + b) / 2 for a, b in zip(here, there, strict=True))
        return Reading(chances, line[0], forced, tuple(line[:LINE_PLIES]))


def _first(line: Sequence[str]) -> str | None:
    return line[0] if line else None


@dataclass(frozen=True)
class Budget:
    """One search's budget, as `ai.choose` takes it."""

    seconds: float
    seed: int
    nodes: int | None
    cpu_only: bool


def _chances(
    game: Game[Any, Any], state: Any, budget: Budget, line: list[str]
) -> tuple[float, ...]:
    """Each seat's chances after a move, by one search (or by the end of the game), whose
    expected line is added to `line`; a position the search answers without searching (a win
    on the spot) by the position after its move."""
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            return returns(outcome, game.players(state))
        choice = ai.choose(
            game.name,
            state,
            level=LEVEL,
            seconds=budget.seconds,
            seed=budget.seed,
            nodes=budget.nodes,
            cpu_only=budget.cpu_only,
        )
        chances = chances_from_search(choice)
        if chances is None:
            line.append(game.format_move(state, choice.move))
            state = game.apply(state, choice.move, check=False)
            continue
        for move in choice.info.get("line", (choice.move,)):
            if len(line) >= LINE_PLIES or game.outcome(state) is not None:
                break
            line.append(game.format_move(state, move))
            state = game.apply(state, move, check=False)
        return chances
