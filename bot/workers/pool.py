"""Every worker process of the bot, in one pool shaped like concurrent.futures:
`await pool.submit(kind, owner, seconds, function, *args)` runs `function(*args)` in a worker of
that kind and returns what it returned, or raises what it raised. `choose`, `replay` and `read`
are the typed jobs on top.

Three kinds, most urgent first: the computer's moves (AI_WORKERS processes, and one more
that no single member can hold), replays' GIFs and analyses (one process each). Each kind has
processes of its own, so a move never queues behind a GIF or a position being judged, and a
CPU priority of its own (NICENESS), so on a busy machine the operating system runs the
searches first and the analyses last. A kind's processes start at its first job, not before.

Each job names the member it is for (its `owner`), and a kind's free places go to members in
turn (`Places`): one member's twelve queued searches or twenty analyses never hold up another
member's job by more than the one job ahead of it. One member holds at most AI_WORKERS
places for the computer's moves, so with one member's games filling them, another member's
move starts at once in the spare process (benchmarks/fair_queues.py measures it).

Every job has a deadline in wall seconds, counted from when a worker takes it. A worker that
dies (WorkerCrashed), passes the deadline (WorkerHung) or whose job is cancelled is killed, and
its place starts a fresh one at the next job; a job that raises leaves its worker serving.

Nothing here waits on a thread: each worker is an asyncio subprocess running ai.worker.serve,
and asyncio reads and writes its pipes without blocking the event loop (a large dump waits in
the pipe's buffer, not in the loop). A worker ends when its stdin closes, so none outlives the
bot, whether the bot stops or is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import sys
import time
from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ParamSpec, TypeVar

import ai
from ai.reading import Reading, read_position
from ai.worker import HEADER, RAISED, READY, SERVE, Search, fallback_dump, search_dump
from bot.operations import metrics
from renderers import PictureWords, record_gif
from rules.records import Record

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


class Kind(StrEnum):
    """The kinds of work, most urgent first."""

    MOVE = "move"
    REPLAY = "replay"
    ANALYSIS = "analysis"


# Each kind as the metrics and /server status name it.
METRIC_LABELS = {Kind.MOVE: "computer", Kind.REPLAY: "replay", Kind.ANALYSIS: "analysis"}

# How much lower than the bot's each kind's CPU priority is (os.nice in the worker).
NICENESS = {Kind.MOVE: 0, Kind.REPLAY: 5, Kind.ANALYSIS: 10}
# A fresh worker's imports, on a busy machine; the job's own deadline starts after them.
STARTUP_SECONDS = 60.0
# A search stops itself at its CPU budget, or at ai.base.WALL_SLACK (3.5) times it in wall
# time when starved; a move's deadline is this many times the budget, plus GRACE for loading
# the dump and pickling the answer.
DEADLINE_SHARE = 4.0
GRACE = 2.0
# A search by node budget (tests, reproducible offline scripts) has no time of its own; this
# is its deadline unless `seconds` is given.
NODE_SEARCH_SECONDS = 30.0
# A position's analysis: its two searches' CPU budget many times over (a niced process on a
# busy machine waits its turn), and never less than ANALYSIS_MINIMUM_SECONDS.
ANALYSIS_FACTOR = 20
ANALYSIS_MINIMUM_SECONDS = 60.0
# A replay: the longest game's GIF takes a few CPU seconds; this leaves room for a busy machine.
REPLAY_SECONDS = 120.0


class WorkerFailed(Exception):
    """A worker crashed or hung on a job; the next job of its kind gets a fresh one."""


class WorkerCrashed(WorkerFailed):
    pass


class WorkerHung(WorkerFailed):
    pass


@dataclass(frozen=True)
class PoolAnswer:
    """A move for the bot to play and what the search said of it (`info`, see ai.Choice);
    `fallback` says the search failed, why, and that the reference player chose instead."""

    move: Any
    info: dict[str, Any] = field(default_factory=dict)
    fallback: str | None = None


@dataclass(frozen=True)
class _Worker:
    process: asyncio.subprocess.Process
    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader

    def ended(self) -> bool:
        """Whether it died while idle (killed from outside, say)."""
        return self.process.returncode is not None or self.stdout.at_eof()

    async def exchange(self, data: bytes | None, seconds: float) -> Any:
        """Send a pickled message (if any) and return the answer, within `seconds`."""
        try:
            async with asyncio.timeout(seconds):
                if data is not None:
                    self.stdin.write(HEADER.pack(len(data)))
                    self.stdin.write(data)
                    await self.stdin.drain()
                (size,) = HEADER.unpack(await self.stdout.readexactly(HEADER.size))
                return pickle.loads(await self.stdout.readexactly(size))
        except TimeoutError:
            raise WorkerHung(f"hung (no answer in {seconds:.1f} s)") from None
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            raise WorkerCrashed(f"crashed ({error.__class__.__name__})") from error


Owner = Hashable  # whom a job is for: a member's id; None for the bot's own work


class Places:
    """A kind's places (each a worker, or None where a fresh one starts), given to the
    members waiting in turn: the member served longest ago (or never) goes first, so after a
    member's job gets a place, every other member waiting gets one before that member's
    next job does. One member holds at most `most` places."""

    def __init__(self, size: int, most: int, waiting: Callable[[int], None]) -> None:
        """`waiting` is told how many jobs wait, whenever that changes (for the metrics)."""
        self._free: deque[_Worker | None] = deque([None] * size)
        self._most = most
        self._told = waiting
        self._held: dict[Owner, int] = {}
        self._waiting: dict[Owner, deque[asyncio.Future[_Worker | None]]] = {}
        self._served: dict[Owner, int] = {}  # when each member was last given a place
        self._turns = 0

    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def take(self, owner: Owner) -> _Worker | None:
        """A place for a job of `owner`, when its turn comes."""
        future: asyncio.Future[_Worker | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(future)
        self._serve()
        self._told(self.waiting())
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given a place as it was cancelled
                self.give_back(owner, future.result())
            else:
                self._forget(owner, future)
            raise

    def give_back(self, owner: Owner, worker: _Worker | None) -> None:
        self._held[owner] -= 1
        if not self._held[owner]:
            del self._held[owner]
            if owner not in self._waiting:  # nothing of theirs is left: forget their turn
                del self._served[owner]
        self._free.append(worker)
        self._serve()

    def _serve(self) -> None:
        while self._free:
            ready = [o for o in self._waiting if self._held.get(o, 0) < self._most]
            if not ready:
                return
            owner = min(ready, key=lambda o: self._served.get(o, -1))
            queue = self._waiting[owner]
            future = queue.popleft()
            if not queue:
                del self._waiting[owner]
            self._held[owner] = self._held.get(owner, 0) + 1
            self._served[owner] = self._turns
            self._turns += 1
            future.set_result(self._warmest())
            self._told(self.waiting())

    def _warmest(self) -> _Worker | None:
        """A free place, a running worker's before one where a worker must start."""
        warm = next((worker for worker in self._free if worker is not None), None)
        self._free.remove(warm)
        return warm

    def _forget(self, owner: Owner, future: asyncio.Future[_Worker | None]) -> None:
        queue = self._waiting.get(owner)
        if queue is not None and future in queue:
            queue.remove(future)
            if not queue:
                del self._waiting[owner]
                if owner not in self._held:
                    self._served.pop(owner, None)
            self._told(self.waiting())


def _gauge(kind: Kind) -> Callable[[int], None]:
    """What counts the jobs waiting for a worker of `kind`: the metrics and /server status."""
    return lambda waiting: metrics.set_queue(METRIC_LABELS[kind], waiting)


class WorkerPool:
    """The bot's worker processes: `submit` for any job, `choose`, `replay` and `read` for
    the three kinds. `search` and `read` are what the move and analysis jobs run (tests pass
    slow or broken ones)."""

    def __init__(
        self,
        ai_workers: int = 1,
        *,
        search: Search = search_dump,
        read: Callable[..., Reading] = read_position,
    ) -> None:
        """`ai_workers` comes from the AI_WORKERS setting (bot/settings.py)."""
        if ai_workers < 1:
            raise ValueError(f"AI_WORKERS must be at least 1, not {ai_workers}")
        self._search = search
        self._read = read
        most = {Kind.MOVE: ai_workers, Kind.REPLAY: 1, Kind.ANALYSIS: 1}
        spare = {Kind.MOVE: 1, Kind.REPLAY: 0, Kind.ANALYSIS: 0}
        self._places = {
            kind: Places(most[kind] + spare[kind], most[kind], _gauge(kind)) for kind in Kind
        }
        self._running: set[_Worker] = set()
        self._ending: set[asyncio.Task[int]] = set()
        self._closed = False

    async def submit(
        self,
        kind: Kind,
        owner: Owner,
        seconds: float,
        function: Callable[P, T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`function(*args, **kwargs)` run in a worker of `kind`, when `owner`'s turn comes,
        within `seconds` of wall time; what it returned, or what it raised, or WorkerFailed.
        `function` and its arguments must pickle (a module-level function, plain data)."""
        if self._closed:  # a stopping bot starts no job
            raise RuntimeError("the worker pool is closed")
        data = pickle.dumps((function, args, kwargs))
        places = self._places[kind]
        worker = await places.take(owner)
        try:
            if worker is not None and worker.ended():
                self._end(worker)
                worker = None
            if worker is None:
                worker = await self._start(kind)
            began = time.perf_counter()
            outcome, value = await worker.exchange(data, seconds)
            metrics.observe_work(METRIC_LABELS[kind], time.perf_counter() - began)
        except BaseException:  # crashed, hung or cancelled mid-job: never reuse it
            if worker is not None:
                self._end(worker)
            places.give_back(owner, None)
            raise
        places.give_back(owner, worker)
        if outcome == RAISED:
            raise value
        result: T = value
        return result

    async def _start(self, kind: Kind) -> _Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            SERVE,
            str(NICENESS[kind]),
            *sys.path,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdin is not None and process.stdout is not None  # PIPE gives both
        worker = _Worker(process, process.stdin, process.stdout)
        self._running.add(worker)
        try:
            if await worker.exchange(None, STARTUP_SECONDS) != READY:
                raise WorkerCrashed("crashed (it did not say it was ready)")
        except BaseException:
            self._end(worker)
            raise
        return worker

    def _end(self, worker: _Worker) -> None:
        """Kill a worker; its exit is awaited in the background (or by `close`)."""
        self._running.discard(worker)
        with contextlib.suppress(ProcessLookupError):  # it ended already
            worker.process.kill()
        ending = asyncio.create_task(worker.process.wait())
        self._ending.add(ending)
        ending.add_done_callback(self._ending.discard)

    async def close(self) -> None:
        self._closed = True
        for worker in list(self._running):
            self._end(worker)
        await asyncio.gather(*self._ending)

    async def __aenter__(self) -> WorkerPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def choose(
        self,
        game_name: str,
        dump: Mapping[str, Any],
        level: int = 2,
        seconds: float | None = None,
        seed: int | None = None,
        nodes: int | None = None,
        owner: Owner = None,
    ) -> PoolAnswer:
        """The computer's move, searched in `owner`'s turn (the member it plays). A search's
        budget is CPU time and it always has a move ready, which it returns when the time is
        up; on a busy machine that takes longer in wall time, so its deadline is
        DEADLINE_SHARE times the budget (plus GRACE) and a late move is played. A worker that
        crashes or hangs past that gives the one-ply reference player's move
        (ai/reference.py), worked out in a thread of this process, never a random move; each
        such fallback is logged with its reason."""
        if seconds is not None:
            budget = seconds
        else:
            budget = NODE_SEARCH_SECONDS if nodes is not None else ai.LEVELS[level].seconds
        deadline = budget * DEADLINE_SHARE + GRACE
        job = (game_name, dict(dump), level, seconds, seed, nodes)
        try:
            choice = await self.submit(Kind.MOVE, owner, deadline, self._search, *job)
        except WorkerFailed as error:
            problem = f"the search worker {error}"
        except Exception as error:  # a bug in the search: the player still gets a move
            problem = f"the search failed ({error!r})"
        else:
            return PoolAnswer(choice.move, choice.info)
        fallback = await asyncio.to_thread(fallback_dump, game_name, dump, seed)
        log.warning("AI fallback in %s: %s; playing the one-ply reference move", game_name, problem)
        return PoolAnswer(fallback.move, fallback.info, fallback=problem)

    async def replay(
        self,
        record: Record,
        *,
        names: Sequence[str] | None = None,
        perspective: int | None = None,
        theme: str | None = None,
        words: PictureWords,
    ) -> bytes:
        """The whole game of `record` as an animated GIF, drawn in `words`. The worker gets
        the record, not positions, so the bot does none of the replaying or encoding."""
        return await self.submit(
            Kind.REPLAY,
            None,
            REPLAY_SECONDS,
            record_gif,
            record,
            names=names,
            perspective=perspective,
            theme=theme,
            words=words,
        )

    async def read(
        self,
        game_name: str,
        dump: Mapping[str, Any],
        seconds: float,
        seed: int,
        nodes: int | None,
        owner: Owner,
    ) -> Reading:
        """One position of an analysis judged (ai.reading.read_position), in the turn of
        `owner` (who asked); an analysis is a queue of these, each stored as it comes back
        (bot/service/analysis.py)."""
        deadline = max(ANALYSIS_MINIMUM_SECONDS, seconds * ANALYSIS_FACTOR)
        return await self.submit(
            Kind.ANALYSIS,
            owner,
            deadline,
            self._read,
            game_name,
            dict(dump),
            seconds=seconds,
            seed=seed,
            nodes=nodes,
        )
