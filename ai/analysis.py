"""Judging a finished game position by position, like a chess engine's analysis: each seat's
chance to win as the level-3 search sees it, the search's best move, and what the move played
cost its seat. Pure (rules and ai only): the bot queues, stores and posts. docs/analysis.md
explains the numbers.

`read_position` judges one position from its dump and is what a worker process runs, so the
bot can store each reading as it comes and resume where it stopped; `judgements` turns the
readings of a whole game into marked moves, and `judge` does both in one call.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import ai
from ai.base import Choice
from rules import get_game
from rules.game import Game
from rules.outcomes import Outcome

LEVEL = 3
"""The search that judges: the strongest level, on a budget of its own (`ANALYSIS_SECONDS`)."""

ANALYSIS_SECONDS = 0.5
"""CPU seconds per position (the issue's default; the bot's `ANALYSIS_SECONDS` setting).
A 100-turn game then costs about 50 s of CPU, whatever the game: Kyo's search keeps its budget
however many turns a position has (docs/ai.md)."""


class Mark(StrEnum):
    """How bad a move was, by the share of its seat's winning chance it threw away."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS: tuple[tuple[float, Mark], ...] = (
    (30.0, Mark.BLUNDER),
    (20.0, Mark.MISTAKE),
    (10.0, Mark.INACCURACY),
)
"""Percentage points of the mover's win chance lost, worst first: 30 a blunder, 20 a mistake,
10 an inaccuracy (issue 29's numbers). Measured in win chance, not in evaluation units, as
Lichess does, so that a piece thrown away in a lost position costs little and a five left
unblocked costs everything, in every game alike; the steps are wide enough that a 0.5 s
search's noise between two positions (a few points) rarely crosses the first one."""

ACCURACY_SCALE = 103.1668
ACCURACY_DECAY = 0.04354
ACCURACY_OFFSET = 3.1669
"""Accuracy = SCALE * exp(-DECAY * average loss) - OFFSET, clamped to 0-100: the curve of
Lichess's published move accuracy (lichess.org/page/accuracy), applied to a player's average
loss in percentage points. No loss gives 100, an average loss of 5 points 80, of 10
points 64, of 30 points 25."""


@dataclass(frozen=True)
class Reading:
    """What the search makes of one position: each seat's chance to win (0-1, by seat), its
    best move in notation (None once the game is over) and whether that move was the only one."""

    chances: tuple[float, ...]
    best: str | None = None
    forced: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"chances": list(self.chances), "best": self.best, "forced": self.forced}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        best = data.get("best")
        return cls(
            tuple(float(c) for c in data["chances"]),
            None if best is None else str(best),
            bool(data.get("forced", False)),
        )


@dataclass(frozen=True)
class Judgement:
    """One position of a game: the seats' chances there (0-1) and, when a move was played from
    it, who played it, what, the search's better idea, the points of win chance it lost (0-100)
    and its mark. The last position of a game has no move."""

    ply: int
    chances: tuple[float, ...]
    seat: int | None = None
    played: str | None = None
    best: str | None = None
    loss: float = 0.0
    mark: Mark | None = None
    forced: bool = False


@dataclass(frozen=True)
class Summary:
    """One seat's play over a game."""

    seat: int
    moves: int  # judged moves (forced ones are not)
    average_loss: float
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int


def classify(loss: float) -> Mark | None:
    """The mark a loss of `loss` percentage points earns, if any."""
    for threshold, mark in THRESHOLDS:
        if loss >= threshold:
            return mark
    return None


def accuracy(average_loss: float) -> float:
    """0-100 from the average loss in percentage points (see ACCURACY_SCALE)."""
    value = ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * average_loss) - ACCURACY_OFFSET
    return max(0.0, min(100.0, value))


def chances_from_search(choice: Choice) -> tuple[float, ...] | None:
    """Each seat's win chance as the search judged the position (its `info["chances"]`), or
    None if it gave none."""
    given = choice.info.get("chances")
    if given is None:
        return None
    return tuple(float(c) for c in given)


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
    seconds: float = ANALYSIS_SECONDS,
    seed: int = 0,
    nodes: int | None = None,
) -> Reading:
    """Judge one position, given as its dump so that a worker process can run it.

    A short search overrates the side it searches for (at 0.5 s, Boku's MCTS gives the mover
    70-80% in an even opening), so a position's chances are the mean of two searches, each on
    half the budget: one from the position, one from the position after its best move, where
    the next seat searches; their optimism pulls opposite ways and cancels. A forced position
    is worth what the position after its only move is worth."""
    game = get_game(game_name)
    state = game.load(dump)
    best: str | None = None
    forced = False
    half_seconds, half_nodes = seconds / 2, None if nodes is None else max(1, nodes // 2)
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            return Reading(returns(outcome, game.players(state)), best, forced)
        if is_forced(game, state):
            move = next(iter(game.move_tree(state).moves()))
            if best is None:
                best, forced = game.format_move(state, move), True
            state = game.apply(state, move, check=False)
            continue
        choice = ai.choose(
            game.name, state, level=LEVEL, seconds=half_seconds, seed=seed, nodes=half_nodes
        )
        here = chances_from_search(choice)
        there = _chances(
            game, game.apply(state, choice.move, check=False), half_seconds, seed, half_nodes
        )
        chances = (
            there if here is None else tuple((a + b) / 2 for a, b in zip(here, there, strict=True))
        )
        return Reading(chances, best or game.format_move(state, choice.move), forced)


def _chances(
    game: Game[Any, Any], state: Any, seconds: float, seed: int, nodes: int | None
) -> tuple[float, ...]:
    """Each seat's chances after a move, by one search (or by the end of the game); a position
    the search answers without searching (a win on the spot) by the position after its move."""
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            return returns(outcome, game.players(state))
        choice = ai.choose(game.name, state, level=LEVEL, seconds=seconds, seed=seed, nodes=nodes)
        chances = chances_from_search(choice)
        if chances is not None:
            return chances
        state = game.apply(state, choice.move, check=False)


def judgements(
    game_name: str,
    states: Sequence[Any],
    turns: Sequence[str],
    readings: Sequence[Reading],
) -> list[Judgement]:
    """The positions of a game (`states`, the setup first, as a record replays them), the
    `turns` between them (a record's turns: moves, resignations, timeouts) and a reading of
    each position, as judged positions. A move's loss is the drop of its seat's chance from
    its position to the next; the search's own best move loses nothing, a forced move is never
    marked, and a resignation or timeout is not a move."""
    if not len(states) == len(readings) == len(turns) + 1:
        raise ValueError("a game needs one reading per position and one turn between each two")
    game = get_game(game_name)
    judged = []
    for index, (state, reading) in enumerate(zip(states, readings, strict=True)):
        ply = game.ply(state)
        is_move = index < len(turns) and game.ply(states[index + 1]) == ply + 1
        if not is_move:
            judged.append(Judgement(ply, reading.chances))
            continue
        seat, played = game.to_move(state), turns[index]
        drop = reading.chances[seat - 1] - readings[index + 1].chances[seat - 1]
        best_played = reading.best is not None and game.normalize(played) == game.normalize(
            reading.best
        )
        loss = 0.0 if reading.forced or best_played else max(0.0, 100.0 * drop)
        mark = None if reading.forced else classify(loss)
        judged.append(
            Judgement(ply, reading.chances, seat, played, reading.best, loss, mark, reading.forced)
        )
    return judged


def judge(
    game_name: str,
    states: Sequence[Any],
    turns: Sequence[str],
    *,
    seconds: float = ANALYSIS_SECONDS,
    seed: int = 0,
    nodes: int | None = None,
) -> list[Judgement]:
    """A whole game judged in this process (see `judgements`); `nodes` instead of `seconds`
    makes it deterministic for a seed."""
    game = get_game(game_name)
    readings = [
        read_position(game.name, game.dump(state), seconds=seconds, seed=seed, nodes=nodes)
        for state in states
    ]
    return judgements(game.name, states, turns, readings)


def summarise(judged: Sequence[Judgement], players: int) -> tuple[Summary, ...]:
    """Each seat's accuracy and counts of marks over the moves it chose (forced ones aside)."""
    summaries = []
    for seat in range(1, players + 1):
        mine = [j for j in judged if j.seat == seat and not j.forced]
        average = sum(j.loss for j in mine) / len(mine) if mine else 0.0
        marks = [j.mark for j in mine]
        summaries.append(
            Summary(
                seat,
                len(mine),
                average,
                accuracy(average),
                marks.count(Mark.INACCURACY),
                marks.count(Mark.MISTAKE),
                marks.count(Mark.BLUNDER),
            )
        )
    return tuple(summaries)
