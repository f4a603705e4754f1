"""Calibrating the computer analysis on real play (issue 37), game by game.

1. Accuracy. `--games` games of a random player against level 3 (seats alternated) and as
   many of level 3 against itself, each judged by the analysis at `--seconds` a position:
   the random player's mean accuracy should be at most 60, level 3's at least 80. Also the
   analysis's CPU seconds per position (second looks included) and what a 100-turn game's
   analysis would cost: the most it may spend (`most_budgets`) times the largest share of
   its own most that a game spent (the target: under 180 s). A plain rate per position
   would overstate short games, where the two looks any game may spend weigh most.
2. Blunders. Positions of the self-play games where one move is a blunder and the judge's
   best move is not, confirmed by two deeper readings that agree: one with ten times the
   analysis's budget, then one with twenty (a search's readings move with its depth, so one
   deeper reading alone may be its own swing). In both, the position is still open (the
   mover's chance 15-95%), its best move loses under 5 points and a random other move at
   least 15 (or into a position found lost). Up to `--positions` of them; the analysis then
   judges each move alone (the position and the one after it, second looks included) and
   should mark at least 90% of the blunders as blunders and at most 10% of the best moves at
   all. A position met in several self-play games counts once (level 3 plays some seeds'
   games against itself alike: "distinct" counts its different games). "10x: marked" gives
   the blunders marked among every pair the first reading confirmed, those the second
   failed included.
3. The scale (`--fit`). Level 3's searches record their root value at every move they play;
   `--fit` prints, per game, the scale of the logistic from value to win chance that predicts
   who won its games against itself (the most likely, with the range within FIT_MARGIN of
   it), beside the scale ai/scales.py holds for it, which is set from this fit.

Level 3 plays at `--level-seconds` of CPU a move (its own 2 s by default) and a game stops
at `--plies` (a draw). Every search stops on CPU time only, so a busy machine slows the run
without changing the figures. Each game played, each analysis and each position examined is
appended to `--out`/<game>.jsonl as it finishes, and a run resumes from what is there: a
long calibration survives being stopped, and its figures are printed from the file (an
analysis is kept per `--seconds`, per version of ai/'s code and per scale of the game, so a
changed judgement judges again the games already played; a position's examination and its
confirming readings are kept per version of the code they depend on, everything in ai/ but
the judgement of readings, ai/analysis.py, so such a change judges the pairs again without
confirming them again). `--play-only` plays the games and stops;
`--judge-only` judges only the games already played. `--quick` plays 2 games of each kind
with level 3 at 0.25 s and looks for 4 blunder positions: a check that everything runs, not
a calibration.

Run: python -m benchmarks.analysis_calibration [--game boku ...] [--games 10]
     [--positions 20] [--seconds S] [--level-seconds 2.0] [--plies 200] [--jobs 2]
     [--out DIR] [--play-only] [--judge-only] [--fit] [--quick] [--details]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import ai
from ai.analysis import ANALYSIS_SECONDS, THRESHOLDS, Mark, judge, most_budgets, summarise
from ai.base import WIN, logistic
from ai.reading import Reading, is_forced, read_position
from ai.scales import SCALES
from rules import GAMES, get_game

CONFIRM = 10  # the confirming readings' budget, in analysis budgets
HOLD = 20  # the budget of the second confirming readings
OPEN = (0.15, 0.95)  # the mover's chance in a position where a blunder can be confirmed
CANDIDATES = 3  # random moves tried as blunders in a position
TURNS = 100  # the game length whose analysis cost is reported
OUT = Path("calibration")
FIT_MARGIN = 2.0  # log-likelihood: about a 95% interval for one parameter


def code(*left_out: str, also: bytes = b"") -> str:
    """A digest of ai/'s code but `left_out` and the scales (which versions give per game),
    and of `also`."""
    return hashlib.sha256(
        b"".join(
            path.read_bytes()
            for path in sorted(Path(ai.__file__).parent.glob("*.py"))
            if path.name not in ("scales.py", *left_out)
        )
        + also
    ).hexdigest()[:12]


JUDGE = code()  # a changed search or judgement judges again
# What an examination depends on (the readings, and the thresholds `keeps` and `spoils` take
# from the judgement): a changed search confirms again.
READER = code("analysis.py", also=repr(THRESHOLDS).encode())


def board(dump: Any) -> str:
    """A position's dump as a key: the same position met in two games is one."""
    return json.dumps(dump, sort_keys=True)


def version(name: str, by: str = JUDGE) -> str:
    """What an analysis of `name` was judged by (or, with READER, what its readings were made
    by): the code and the game's own scale (so a new fit of one game's scale judges that game
    again, not the others)."""
    return f"{by}-{SCALES[name]}"


@dataclass(frozen=True)
class Options:
    games: int
    positions: int
    seconds: float
    level_seconds: float
    plies: int
    out: Path
    play_only: bool
    judge_only: bool


class Log:
    """One game's results file: JSON lines, appended as each result comes, read back by key."""

    def __init__(self, out: Path, name: str) -> None:
        self.path = out / f"{name}.jsonl"
        self.records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                record = json.loads(line)
                self.records[record["key"]] = record

    def get(self, key: str) -> dict[str, Any] | None:
        return self.records.get(key)

    def add(self, record: dict[str, Any]) -> None:
        self.records[record["key"]] = record
        with self.path.open("a") as file:
            file.write(json.dumps(record) + "\n")

    def kind(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.records.values() if r["key"].startswith(kind + ":")]


def play(
    name: str, random_seat: int | None, seed: int, level_seconds: float, plies: int
) -> dict[str, Any]:
    """One game: level 3 in every seat but `random_seat` (None: level 3 against itself), as
    a record of its positions, turns, winners and level 3's root values."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(seed=seed)
    states, turns, values = [state], [], []
    start = time.process_time()
    while game.outcome(state) is None and game.ply(state) < plies:
        if game.to_move(state) == random_seat:
            move = rng.choice(game.legal_moves(state))
        else:
            choice = ai.choose(
                name, state, level=3, seconds=level_seconds, seed=seed, cpu_only=True
            )
            move = choice.move
            if "value" in choice.info:
                values.append((game.ply(state), game.to_move(state), choice.info["value"]))
        turns.append(game.format_move(state, move))
        state = game.apply(state, move, check=False)
        states.append(state)
    outcome = game.outcome(state)
    return {
        "dumps": [game.dump(s) for s in states],
        "turns": turns,
        "values": values,
        "winners": [] if outcome is None else list(outcome.winners),
        "cpu": time.process_time() - start,
    }


def confirmed(name: str, state: Any, seconds: float, seed: int, times: int = CONFIRM) -> Reading:
    """A reading with `times` the analysis's budget."""
    dump = get_game(name).dump(state)
    return read_position(name, dump, seconds=seconds * times, seed=seed, cpu_only=True)


def keeps(chance: float, after: float) -> bool:
    """Whether a move from a position of `chance` into one of `after` (the mover's) loses
    under the first threshold: a best move."""
    return chance - after < THRESHOLDS[-1][0] / 100


def spoils(chance: float, after: float) -> bool:
    """Whether such a move loses a blunder's points or more, or into a position found lost."""
    return after == 0.0 or chance - after >= THRESHOLDS[0][0] / 100


def holds(name: str, state: Any, pair: tuple[Any, Any], seconds: float) -> bool:
    """Whether a (best move, blunder) found at CONFIRM times the budget still reads so with
    HOLD times it: the position open (OPEN), the best move losing under 5 points, the blunder
    at least 15 or into a position found lost.
    A search's readings move with its depth (Quorum's ply-40 position of seed 0 reads 30%,
    10% and 40% at 1, 4 and 10 budgets): of the pairs the first reading found, 8 of 20 in
    Quorum did not read so at twenty times, so a blunder rests on both."""
    game = get_game(name)
    seat = game.to_move(state) - 1
    chance = confirmed(name, state, seconds, 1, HOLD).chances[seat]
    if not OPEN[0] <= chance <= OPEN[1]:
        return False
    best, blunder = (
        confirmed(name, game.apply(state, move, check=False), seconds, 2, HOLD).chances[seat]
        for move in pair
    )
    return keeps(chance, best) and spoils(chance, blunder)


def find_blunder(
    name: str, state: Any, seconds: float, rng: random.Random
) -> tuple[tuple[Any, Any] | None, int]:
    """(best move, blunder) of a position where the first reading (CONFIRM times the budget)
    finds both (module docstring), or None, and how many candidate blunders were tried."""
    game = get_game(name)
    if game.outcome(state) is not None or is_forced(game, state):
        return None, 0
    seat = game.to_move(state) - 1
    before = confirmed(name, state, seconds, 1)
    chance = before.chances[seat]
    if not OPEN[0] <= chance <= OPEN[1] or before.best is None:
        return None, 0
    best = game.parse_move(state, before.best)
    after_best = confirmed(name, game.apply(state, best, check=False), seconds, 2)
    if not keeps(chance, after_best.chances[seat]):
        return None, 0
    others = [m for m in game.legal_moves(state) if m != best]
    tried = 0
    for move in rng.sample(others, min(CANDIDATES, len(others))):
        tried += 1
        after = confirmed(name, game.apply(state, move, check=False), seconds, 3)
        if spoils(chance, after.chances[seat]):
            return (best, move), tried
    return None, tried


def analyse_game(name: str, record: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The analysis of one played game: each seat's accuracy, marks, losses and the cost."""
    game = get_game(name)
    states = [game.load(d) for d in record["dumps"]]
    cpu, wall = time.process_time(), time.perf_counter()
    judged = judge(name, states, record["turns"], seconds=seconds, seed=1, cpu_only=True)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    summaries = summarise(judged, game.players(states[0]))
    return {
        "accuracy": [s.accuracy if s.moves else None for s in summaries],
        "marks": [[s.inaccuracies, s.mistakes, s.blunders] for s in summaries],
        "losses": [round(j.loss, 1) for j in judged if j.seat is not None],
        "chances": [[round(c, 3) for c in j.chances] for j in judged],
        "positions": len(states),
        "cpu": cpu,
        "wall": wall,
    }


def calibrate(name: str, options: Options, details: bool) -> str:
    """Everything the module docstring lists, for one game (run in a worker process),
    resumed from and saved to its results file; its line of figures."""
    options.out.mkdir(parents=True, exist_ok=True)
    log = Log(options.out, name)
    seconds = options.seconds
    selfplay: dict[str, tuple[str, int]] = {}  # each position once, by its dump
    for number in range(options.games):
        for random_seat in (1 + number % 2, None):
            seed = 1000 * number + (0 if random_seat is None else random_seat)
            key = f"game:{random_seat}:{seed}:{options.level_seconds}:{options.plies}"
            record = log.get(key)
            if record is None and options.judge_only:
                continue
            if record is None:
                played = play(name, random_seat, seed, options.level_seconds, options.plies)
                record = {"key": key, "random_seat": random_seat, "seed": seed, **played}
                log.add(record)
                print(f"{name} played {key}: {len(played['turns'])} plies", flush=True)
            if options.play_only:
                continue
            analysis_key = f"analysis:{key}:{seconds}:{version(name)}"
            analysis = log.get(analysis_key)
            if analysis is None:
                analysis = {"key": analysis_key, "game": key, **analyse_game(name, record, seconds)}
                log.add(analysis)
                if details:
                    print(f"{name} analysed {key}: {analysis['accuracy']}", flush=True)
            if random_seat is None:
                for index in range(1, len(record["dumps"]) - 1):
                    selfplay.setdefault(board(record["dumps"][index]), (key, index))
    if not options.play_only:
        blunders(name, log, list(selfplay.values()), seconds, options.positions, details)
    return figures(name, log, options, seconds)


def blunders(
    name: str,
    log: Log,
    selfplay: list[tuple[str, int]],
    seconds: float,
    wanted: int,
    details: bool,
) -> None:
    """Part 2 of the module docstring over the self-play positions in a fixed random order,
    each position examined once (saved, found or not) and each pair found judged. Level 3
    plays some seeds' games against itself move for move alike, so a position met in several
    games is one position (`selfplay` holds each once). An examination is kept while the
    readings' code (READER) stands and a pair's judgement while the judge's (JUDGE) does, so
    a change to the judgement only judges the pairs again."""
    game = get_game(name)
    rng = random.Random(name)
    rng.shuffle(selfplay)
    found = 0
    for game_key, index in selfplay:
        if found >= wanted:
            break
        where = f"{game_key}:{index}:{seconds}"
        key = f"position:{where}:{version(name, READER)}"
        record = log.get(key)
        state = game.load(log.records[game_key]["dumps"][index])
        if record is None:
            start = time.process_time()
            pair, tried = find_blunder(name, state, seconds, random.Random(key))
            record = {"key": key, "tried": tried, "cpu": time.process_time() - start}
            if pair is not None:
                record["ply"] = game.ply(state)
                record["pair"] = [game.format_move(state, move) for move in pair]
            log.add(record)
        if "pair" in record and "held" not in record:
            start = time.process_time()
            best, blunder = (game.parse_move(state, move) for move in record["pair"])
            record = {**record, "held": holds(name, state, (best, blunder), seconds)}
            record["cpu"] += time.process_time() - start
            log.add(record)
        judged = f"pair:{where}:{version(name)}"
        if "pair" in record and log.get(judged) is None:
            judge_pair(name, log, state, seconds, judged, record, details)
        found += bool(record.get("held"))


def judge_pair(
    name: str,
    log: Log,
    state: Any,
    seconds: float,
    key: str,
    position: dict[str, Any],
    details: bool,
) -> None:
    """The analysis's marks of a position's best move and blunder, each judged alone (the
    position and the one after it, second looks included), saved under `key`."""
    game = get_game(name)
    start = time.process_time()
    judged = []
    for turn in position["pair"]:
        after = game.apply(state, game.parse_move(state, turn), check=False)
        judged.append(
            judge(name, [state, after], [turn], seconds=seconds, seed=1, cpu_only=True)[0]
        )
    found = [{"move": j.played, "mark": j.mark, "loss": j.loss, "better": j.better} for j in judged]
    log.add({"key": key, "found": found, "cpu": time.process_time() - start})
    if details:
        words = [f"{m['move']} {m['mark']} {m['loss']:.0f}" for m in found]
        held = "confirmed twice" if position.get("held") else "confirmed once"
        print(
            f"{name} ply {position['ply']} ({held}): best {words[0]}; blunder {words[1]}",
            flush=True,
        )


def figures(name: str, log: Log, options: Options, seconds: float) -> str:
    """The game's line of figures, from its results file."""
    played = {
        r["key"]: r
        for r in log.kind("game")
        if r["key"].endswith(f":{options.level_seconds}:{options.plies}")
    }
    analyses = [
        a
        for a in log.kind("analysis")
        if a["game"] in played and a["key"].endswith(f":{seconds}:{version(name)}")
    ]
    random_accuracy, level_random, level_self, per_position, spent = [], [], [], [], []
    for analysis in analyses:
        seat = played[analysis["game"]]["random_seat"]
        per_position.append(analysis["cpu"] / analysis["positions"])
        spent.append(analysis["cpu"] / (most_budgets(analysis["positions"]) * seconds))
        for index, value in enumerate(analysis["accuracy"]):
            if value is None:
                continue
            if seat is None:
                level_self.append(value)
            elif index + 1 == seat:
                random_accuracy.append(value)
            else:
                level_random.append(value)
    positions, boards = [], set()  # one record a position, however many games met it
    for record in log.kind("position"):
        where, read_by = record["key"].removeprefix("position:").rsplit(":", 1)
        game_key, index, judged_at = where.rsplit(":", 2)
        if (judged_at, read_by) != (str(seconds), version(name, READER)):
            continue
        seen = board(log.records[game_key]["dumps"][int(index)])
        if seen not in boards:
            boards.add(seen)
            positions.append((record, log.get(f"pair:{where}:{version(name)}")))
    once = [judged["found"] for record, judged in positions if "pair" in record and judged]
    once_marked = sum(found[1]["mark"] == Mark.BLUNDER for found in once)
    agreed = [judged["found"] for record, judged in positions if record.get("held") and judged]
    marked = sum(found[1]["mark"] == Mark.BLUNDER for found in agreed)
    best_marked = sum(found[0]["mark"] is not None for found in agreed)
    worst = max(per_position, default=0.0)
    turns = max(spent, default=0.0) * most_budgets(TURNS + 1) * seconds
    cpu = (
        sum(r["cpu"] for r in played.values())
        + sum(a["cpu"] for a in analyses)
        + sum(record["cpu"] + (judged["cpu"] if judged else 0.0) for record, judged in positions)
    )
    lengths = [len(r["turns"]) for r in played.values()]
    distinct = len({tuple(r["turns"]) for r in played.values() if r["random_seat"] is None})
    return (
        f"{name:7} {seconds:4} {len(played):5} {distinct:8} {mean(random_accuracy):>6}"
        f" {mean(level_random):>7} {mean(level_self):>6} {worst:7.2f} {turns:9.0f}"
        f" {share(marked, len(agreed)):>16} {share(best_marked, len(agreed)):>12}"
        f" {share(once_marked, len(once)):>12}"
        f" {sum(record['tried'] for record, _ in positions):5}"
        f" {statistics.median(lengths) if lengths else 0:14.0f} {cpu:7.0f}"
    )


def fit(name: str, out: Path, level_seconds: float, plies: int) -> str:
    """The scale of the logistic from level 3's root values to its chance of winning, from
    who won its games against itself at `level_seconds` a move in the results file (each
    distinct game once; found wins and losses and drawn games left out): the most likely
    scale, and the range within FIT_MARGIN of it, beside the one ai/scales.py holds. The
    range takes each value as a sample of its own, while a game's values hang together, so
    it is narrower than the games warrant."""
    log = Log(out, name)
    samples = []
    games: set[tuple[str, ...]] = set()
    for record in log.kind("game"):
        if not record["key"].endswith(f":{level_seconds}:{plies}"):
            continue
        winners = record["winners"]
        turns = tuple(record["turns"])
        if record["random_seat"] is not None or not winners or turns in games:
            continue
        games.add(turns)
        for _, seat, value in record["values"]:
            if abs(value) < WIN / 2:
                samples.append((value, seat in winners))
    if not samples:
        return f"{name}: no decided game of level 3 against itself"

    def likelihood(scale: float) -> float:
        total = 0.0
        for value, won in samples:
            chance = min(max(logistic(value, scale), 1e-9), 1 - 1e-9)
            total += math.log(chance if won else 1.0 - chance)
        return total

    scales = [0.05 * 1.05**k for k in range(160)]
    fits = {scale: likelihood(scale) for scale in scales}
    best = max(scales, key=fits.__getitem__)
    near = [scale for scale in scales if fits[scale] >= fits[best] - FIT_MARGIN]
    return (
        f"{name}: scale {best:.3g} ({min(near):.3g}-{max(near):.3g}) from {len(samples)} values"
        f" of {len(games)} games (ai/scales.py: {SCALES[name]})"
    )


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
    parser.add_argument("--out", type=Path, default=OUT, help="where results are kept")
    parser.add_argument("--play-only", action="store_true", help="play the games, then stop")
    parser.add_argument("--judge-only", action="store_true", help="judge the games played")
    parser.add_argument("--fit", action="store_true", help="fit each game's scale, then stop")
    parser.add_argument("--quick", action="store_true", help="2 games, 4 positions, 0.25 s")
    parser.add_argument("--details", action="store_true", help="each blunder position's marks")
    args = parser.parse_args()
    names = args.game or list(GAMES)
    if args.fit:
        for name in names:
            print(fit(name, args.out, args.level_seconds, args.plies))
        return
    options = Options(
        args.games,
        args.positions,
        args.seconds,
        args.level_seconds,
        args.plies,
        args.out,
        args.play_only,
        args.judge_only,
    )
    if args.quick:
        options = replace(options, games=2, positions=4, level_seconds=0.25)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {options}")
    print(
        f"{'game':7} {'s':>4} {'games':>5} {'distinct':>8} {'random':>6} {'3 v rnd':>7}"
        f" {'3 v 3':>6} {'cpu/pos':>7} {f'{TURNS} turns':>9} {'blunders marked':>16}"
        f" {'best marked':>12} {f'{CONFIRM}x: marked':>12} {'tried':>5} {'plies (median)':>14}"
        f" {'cpu s':>7}"
    )
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = pool.map(calibrate, names, [options] * len(names), [args.details] * len(names))
        for line in jobs:
            print(line, flush=True)


if __name__ == "__main__":
    main()
