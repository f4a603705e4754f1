"""Judging a finished game position by position, like a chess engine's analysis: each seat's
chance to win as the level-3 search sees it, the search's best move, and what the move played
cost its seat. Pure (rules and ai only): the bot queues, stores and posts. docs/analysis.md
explains the numbers.

A worker process reads one position at a time (ai/reading.py), so the bot can store each
reading as it comes and resume where it stopped; `judgements` turns the readings of a whole
game into marked moves, and `judge` does both in one call.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ai.reading import Reading, proven, read_position
from rules import get_game
from rules.game import Game

ANALYSIS_SECONDS = 0.5
"""CPU seconds per position (the bot's `ANALYSIS_SECONDS` setting), chosen with
`python -m benchmarks.analysis_calibration` (docs/analysis.md): with its second looks (four
or eight times this, `second_look`) a 100-turn game stays under 3 minutes of CPU (see
SECOND_LOOKS_BUDGET), and they find what a first look at this budget misses."""


class Mark(StrEnum):
    """How bad a move was, by the points of its seat's win percentage it threw away."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


THRESHOLDS: tuple[tuple[float, Mark], ...] = (
    (15.0, Mark.BLUNDER),
    (10.0, Mark.MISTAKE),
    (5.0, Mark.INACCURACY),
)
"""Points of the mover's win percentage lost, worst first: 15 a blunder, 10 a mistake, 5 an
inaccuracy. These are Lichess's (lila, modules/analyse/src/main/Advice.scala: a drop of 0.3,
0.2 and 0.1 in winning chances on its scale from -1 to 1, which is 15, 10 and 5 points of win
percentage). Our searches give win chances directly, so no centipawn curve is needed."""

LOST = THRESHOLDS[-1][0] / 100
"""A seat's chance under which its moves are not counted in its accuracy (the inaccuracy
threshold): from there a move loses too few points to be an inaccuracy, and only one into a
found loss is marked, a blunder; counted, such moves read as near perfect (a random Boost
player spent two thirds of its moves under it)."""

SECOND_LOOK = 4
"""Where a move would be marked (the judge's own choice losing more than the first threshold
among them), the position before it is searched again with this many times the budget..."""

LOOK_AFTER = 8
"""...and the position after a move the judge did not choose with this many (`second_look`).
The calibration's missed blunders came from the position after the move, where four budgets
still missed refutations that eight see (Boku's `d5` and `f1`: 10 and 0 points at four, 17 and
30 at eight)."""

SECOND_LOOKS_BUDGET = 2.25
"""Second looks spend at most this many budgets per position of a game, and the two looks of
one move whatever its length (the latest first, each where it fits), so a 100-turn game costs
at most 101 x 3.25 + 16 budgets: 172 s of CPU at the default 0.5 s, under the 3 minutes issue
37 allows, however many moves a random player spoils."""

ACCURACY_SCALE = 103.1668
ACCURACY_DECAY = 0.04354
ACCURACY_OFFSET = 3.1669
"""A move's accuracy = SCALE * exp(-DECAY * loss) - OFFSET, clamped to 0-100, with `loss` the
drop of the mover's win percentage: Lichess's published move-accuracy curve
(lichess.org/page/accuracy). No loss gives 100, 5 points 80, 10 points 64, 15 points 50,
30 points 25. A player's accuracy over a game is Lichess's too (lila, modules/analyse/src/main/
AccuracyPercent.scala, gameAccuracy): the mean of two means of their moves' accuracies, one
weighted by how much the win percentage swung around each move, one harmonic, so that a few
large losses count (a plain mean let a random Razzle Dazzle player score 68 on moves that were
mostly harmless and a few that lost the game)."""

VOLATILITY_WINDOW = (2, 8)
"""A move's weight is the standard deviation of its seat's win percentage over the positions
of a window ending just after the move, a tenth of the game long within these bounds..."""
VOLATILITY_WEIGHT = (0.5, 12.0)
"""...and clamped to these bounds (Lichess's numbers)."""


@dataclass(frozen=True)
class Look:
    """A second look: the position to search again and how many budgets it gets."""

    position: int
    times: int


@dataclass(frozen=True)
class Judgement:
    """One position of a game: the seats' chances there (0-1), the judge's line from it and,
    when a move was played from it, who played it, what, the judge's choice, the points of
    win percentage the move lost (0-100), its mark, and the judge's choice again as `better`
    when it is another move. The last position of a game has no move."""

    ply: int
    chances: tuple[float, ...]
    seat: int | None = None
    played: str | None = None
    best: str | None = None
    loss: float = 0.0
    mark: Mark | None = None
    forced: bool = False
    line: tuple[str, ...] = ()
    better: str | None = None  # the judge's move, when it is not the move played


@dataclass(frozen=True)
class Summary:
    """One seat's play over a game."""

    seat: int
    moves: int  # judged moves (not forced ones, nor those from a position found lost)
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


def accuracy(loss: float) -> float:
    """A move's accuracy, 0-100, from the points of win percentage it lost (ACCURACY_SCALE)."""
    value = ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * loss) - ACCURACY_OFFSET
    return max(0.0, min(100.0, value))


def judgements(
    game_name: str,
    states: Sequence[Any],
    turns: Sequence[str],
    readings: Sequence[Reading],
) -> list[Judgement]:
    """The positions of a game (`states`, the setup first, as a record replays them), the
    `turns` between them (a record's turns: moves, resignations, timeouts) and a reading of
    each position, as judged positions. A move's loss is the drop of its seat's chance from
    its position's reading to the next's, whoever chose it; a move into a position the judge
    finds lost from one it did not is a blunder whatever the numbers (even when the judge
    chose it: its own line then shows the loss); otherwise a move the judge chose again on
    its second look is not marked (nothing better is known), nor ever a forced move; a
    resignation or timeout is not a move."""
    if not len(states) == len(readings) == len(turns) + 1:
        raise ValueError("a game needs one reading per position and one turn between each two")
    game = get_game(game_name)
    moves = [
        index < len(turns) and game.ply(states[index + 1]) == game.ply(state) + 1
        for index, state in enumerate(states)
    ]
    chances = backed_up(game, states, moves, readings)
    judged = []
    for index, (state, reading) in enumerate(zip(states, readings, strict=True)):
        ply = game.ply(state)
        if not moves[index]:
            judged.append(Judgement(ply, chances[index], line=reading.line))
            continue
        seat, played = game.to_move(state), turns[index]
        before, after = chances[index][seat - 1], chances[index + 1][seat - 1]
        loss = 0.0 if reading.forced else max(0.0, 100.0 * (before - after))
        own = reading.best is not None and game.normalize(played) == game.normalize(reading.best)
        if reading.forced:
            mark = None
        elif before > 0.0 and after == 0.0:
            mark = Mark.BLUNDER
        elif reading.deeper and own:
            mark = None
        else:
            mark = classify(loss)
        better = None if own or reading.forced else reading.best
        judged.append(
            Judgement(
                ply,
                chances[index],
                seat,
                played,
                reading.best,
                loss,
                mark,
                reading.forced,
                reading.line,
                better,
            )
        )
    return judged


def backed_up(
    game: Game[Any, Any], states: Sequence[Any], moves: Sequence[bool], readings: Sequence[Reading]
) -> list[tuple[float, ...]]:
    """Each position's chances, no lower for the seat to move than those of the position its
    move led to (`moves[i]`: a move was played from position i), from the last position back.
    The seat could have played that move, so it was worth at least that much; a search that
    sees a loss only once the opponent has begun to take it (Boost's search at 0.25 s plays
    a captured piece's first move without seeing the capture six plies on) would otherwise
    give the loss to the opponent's move as a gain, and the move that caused it none."""
    chances = [reading.chances for reading in readings]
    for index in reversed(range(len(states) - 1)):
        seat = game.to_move(states[index]) - 1
        if moves[index] and chances[index + 1][seat] > chances[index][seat]:
            chances[index] = chances[index + 1]
    return chances


def second_look(
    game_name: str,
    states: Sequence[Any],
    turns: Sequence[str],
    readings: Sequence[Reading],
) -> Look | None:
    """The last position that needs a second look, if any, and its budgets:
    - a position that a move the judge did not choose led to, while the game was open for its
      mover (a chance between LOST and 1 - LOST) and is not decided there (LOOK_AFTER). A
      short search reads such a position without seeing the reply that refutes the move: of
      the calibration's blunders, Boku's `h3` and `i7` read as losing 13 and 2 points at
      0.5 s, and as 52 and 30 with such a look;
    - a position whose move the readings mark (SECOND_LOOK, or as many budgets as the
      position after it had, so that the move's loss compares two readings of one depth: a
      deeper reading after a move than before it made false losses, Quorum's `b1d3` at ply 6
      of seed 1000 35 points where readings of one depth at both ends find it the best
      move). That covers the judge's own choice losing more than the first threshold, and a
      move into a position the judge finds lost; doing it for every mark also keeps a short
      search's noise off good moves.
    A position that is both gets the larger look, or a smaller where only that fits in
    SECOND_LOOKS_BUDGET. Each position gets one at most, the latest first, because a
    position's new reading changes the loss of the move before it."""
    spent = len(readings) + sum(r.times for r in readings if r.deeper)
    left = most_budgets(len(readings)) - spent
    game = get_game(game_name)
    judged = judgements(game.name, states, turns, readings)
    for index in reversed(range(len(judged))):
        if readings[index].deeper:
            continue
        looks = []
        if (
            index > 0
            and _unexpected(judged[index - 1])
            and game.outcome(states[index]) is None
            and not proven(readings[index].chances)
        ):
            looks.append(LOOK_AFTER)
        if judged[index].mark is not None:
            looks.append(SECOND_LOOK)  # where the same depth as the position after does not fit
            looks.append(max(SECOND_LOOK, readings[index + 1].times))
        fitting = [times for times in looks if times <= left]
        if fitting:
            return Look(index, max(fitting))
    return None


def most_budgets(positions: int) -> float:
    """The most budgets an analysis of so many positions may spend: one a position and its
    second looks' (SECOND_LOOKS_BUDGET)."""
    return positions * (1 + SECOND_LOOKS_BUDGET) + 2 * LOOK_AFTER


def _unexpected(move: Judgement) -> bool:
    """Whether a move was not the judge's choice, from a position open for its mover."""
    return (
        move.better is not None
        and move.seat is not None
        and LOST <= move.chances[move.seat - 1] <= 1 - LOST
    )


def judge(
    game_name: str,
    states: Sequence[Any],
    turns: Sequence[str],
    *,
    seconds: float = ANALYSIS_SECONDS,
    seed: int = 0,
    nodes: int | None = None,
    cpu_only: bool = False,
) -> list[Judgement]:
    """A whole game judged in this process, second looks included (see `judgements`);
    `nodes` instead of `seconds` makes it deterministic for a seed; `cpu_only` as in
    `ai.choose`."""
    game = get_game(game_name)
    readings = [
        read_position(
            game.name, game.dump(state), seconds=seconds, seed=seed, nodes=nodes, cpu_only=cpu_only
        )
        for state in states
    ]
    while (look := second_look(game.name, states, turns, readings)) is not None:
        reading = read_position(
            game.name,
            game.dump(states[look.position]),
            seconds=seconds * look.times,
            seed=seed,
            nodes=None if nodes is None else nodes * look.times,
            cpu_only=cpu_only,
        )
        readings[look.position] = replace(reading, times=look.times)
    return judgements(game.name, states, turns, readings)


def summarise(judged: Sequence[Judgement], players: int) -> tuple[Summary, ...]:
    """Each seat's counts of marks, and its accuracy (`game_accuracy`) over the moves it chose
    freely: not the forced ones, nor those from a position where its chance is under the
    inaccuracy threshold (LOST), which lose too few points to read as anything but perfect
    (which would flatter a player who has lost already)."""
    summaries = []
    for seat in range(1, players + 1):
        mine = [
            j for j in judged if j.seat == seat and not j.forced and j.chances[seat - 1] >= LOST
        ]
        average = sum(j.loss for j in mine) / len(mine) if mine else 0.0
        marks = [j.mark for j in judged if j.seat == seat]
        summaries.append(
            Summary(
                seat,
                len(mine),
                average,
                game_accuracy(judged, seat, mine),
                marks.count(Mark.INACCURACY),
                marks.count(Mark.MISTAKE),
                marks.count(Mark.BLUNDER),
            )
        )
    return tuple(summaries)


def game_accuracy(judged: Sequence[Judgement], seat: int, counted: Sequence[Judgement]) -> float:
    """The seat's accuracy over the game (ACCURACY_SCALE): the mean of the volatility-weighted
    mean and the harmonic mean of its `counted` moves' accuracies (100 without any)."""
    if not counted:
        return 100.0
    series = [100.0 * j.chances[seat - 1] for j in judged]
    low, high = VOLATILITY_WINDOW
    window = min(max(len(judged) // 10, low), high)
    place = {id(j): index for index, j in enumerate(judged)}
    accuracies, weights = [], []
    for move in counted:
        start = max(0, place[id(move)] + 2 - window)
        swing = statistics.pstdev(series[start : start + window])
        weights.append(min(max(swing, VOLATILITY_WEIGHT[0]), VOLATILITY_WEIGHT[1]))
        accuracies.append(accuracy(move.loss))
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    return (weighted + statistics.harmonic_mean(accuracies)) / 2
