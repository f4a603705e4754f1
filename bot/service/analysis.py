"""Computer analyses of finished matches: who may ask, one analysis per match, the queue.

A request on a finished match records the analysis (a second request joins the first) and
queues it in its asker's queue; each member's analyses run one at a time, position by
position, and the worker pool judges the positions of the members waiting in turn (so one
member's twenty analyses do not hold up another's), each position's reading stored as it
comes back, so a restart resumes at the first position without one. A reading is ai.reading's,
in the analysis worker process, and the judging is ai.analysis (pure); posting is the
caller's (`progressed`, `finished`), so this module knows nothing of Discord. An analysis is
finished only once its results are posted: a post that fails is an ANALYSIS job, tried again
until Discord takes it (bot/service/delivery.py), and asking again meanwhile posts it at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ai.analysis import (
    ANALYSIS_SECONDS,
    Judgement,
    Summary,
    judgements,
    second_look,
    summarise,
)
from ai.reading import Reading
from bot.clock import Clock
from bot.service.cache import MatchCache
from bot.service.deadlines import Deadlines
from bot.service.limits import MemberLimits
from bot.service.matches import Match, ServiceError
from bot.service.ratings import Ratings, Replay
from bot.store import AnalysisRow, JobKind, Shards, Status
from bot.texts import t

log = logging.getLogger(__name__)

TASK_PREFIX = "analysis"  # the offline harness waits for tasks named so
PROGRESS_SECONDS = 5.0  # the progress message is edited at most this often


Reader = Callable[[str, Mapping[str, Any], float, int, int | None, int], Awaitable[Reading]]
"""(game name, dump, seconds, seed, nodes, asker) -> the position's Reading, judged in a worker
process (bot/workers/pool.py) in the asker's turn."""


@dataclass(frozen=True)
class Progress:
    """How far a match's analysis is: `done` of `total` positions judged, then how many
    positions were `looked_again` (second looks, after all are judged)."""

    match: Match
    done: int
    total: int
    message_id: int | None
    looked_again: int = 0


@dataclass(frozen=True)
class Request:
    """What asking did: `started` a new analysis, or joined one; `finished` if it is done."""

    progress: Progress
    started: bool
    finished: bool


@dataclass(frozen=True)
class Analysis:
    """A finished analysis: the match's positions and turns, each position judged, and each
    seat's summary."""

    replay: Replay
    judged: tuple[Judgement, ...]
    summaries: tuple[Summary, ...]

    @property
    def match(self) -> Match:
        return self.replay.match


class Analyses:
    """Queues and stores analyses. The app sets `read` (the worker), `progressed` and
    `finished` (the posts), and `seconds` and `nodes` (ANALYSIS_SECONDS, AI_NODES)."""

    def __init__(
        self,
        cache: MatchCache,
        ratings: Ratings,
        deadlines: Deadlines,
        clock: Clock,
        limits: MemberLimits,
    ) -> None:
        self.cache = cache
        self.ratings = ratings
        self.deadlines = deadlines
        self.clock = clock
        self.limits = limits
        self.read: Reader | None = None
        self.progressed: Callable[[Progress], Awaitable[None]] | None = None
        self.finished: Callable[[Analysis], Awaitable[None]] | None = None
        self.seconds = ANALYSIS_SECONDS
        self.nodes: int | None = None
        self._queues: dict[int, deque[int]] = {}  # each asker's analyses, in order
        self._askers: dict[int, int] = {}  # each analysis queued or running: who asked
        self._tasks: dict[int, asyncio.Task[None]] = {}  # each asker's queue running

    async def request(self, match: Match, user_id: int) -> Request:
        """Ask for `match`'s analysis: refused while it is played, joined if already asked."""
        if match.status is not Status.FINISHED:
            raise ServiceError(
                t("service.match.not_finished", game=match.title),
                t("service.analysis.not_finished_hint"),
            )
        replay = await self.ratings.positions(match.id)
        store = self.cache.store
        if await store.analysis(match.id) is None:
            self.limits.analysis(sum(asker == user_id for asker in self._askers.values()))
        started = await store.start_analysis(match.id, user_id, len(replay.states))
        row = await store.analysis(match.id)
        assert row is not None  # just recorded
        if not row.finished:
            self._enqueue(match.id, row.requested_by)
        progress = Progress(match, len(row.readings), row.positions, row.message_id)
        return Request(progress, started, row.finished)

    async def set_message(self, match_id: int, message_id: int) -> None:
        """Where the progress is shown (edited as the analysis runs)."""
        await self.cache.store.set_analysis_message(match_id, message_id)

    async def resume(self, shards: Shards | None = None) -> int:
        """Queue every analysis a stopped process left unfinished on these shards; how many."""
        unfinished = await self.cache.store.unfinished_analyses(shards)
        for match_id in unfinished:
            row = await self.cache.store.analysis(match_id)
            self._enqueue(match_id, 0 if row is None else row.requested_by)
        return len(unfinished)

    async def result(self, match_id: int, replay: Replay | None = None) -> Analysis | None:
        """The finished analysis of a match, if there is one (`replay`: its positions, when
        the caller has them already)."""
        row = await self.cache.store.analysis(match_id)
        if row is None or not row.finished:
            return None
        return await self._judged(row, replay or await self.ratings.positions(match_id))

    async def post(self, match_id: int) -> None:
        """Post a judged analysis's results, then record it finished (the match's lock
        keeps a second caller from posting it twice); a failed post goes up to the caller.
        One not yet judged in full is queued instead."""
        async with self.cache.lock(match_id):
            row = await self.cache.store.analysis(match_id)
            if row is None or row.finished:
                return
            if len(row.readings) < row.positions:
                self._enqueue(match_id, row.requested_by)
                return
            analysis = await self._judged(row, await self.ratings.positions(match_id))
            if self.finished is not None:
                await self.finished(analysis)
            await self.cache.store.finish_analysis(match_id)

    async def _judged(self, row: AnalysisRow, replay: Replay) -> Analysis:
        readings = [Reading.from_json(json.loads(row.readings[i])) for i in range(row.positions)]
        game = replay.match.game
        judged = await asyncio.to_thread(
            judgements, game.name, replay.states, replay.turns, readings
        )
        summaries = summarise(judged, len(replay.match.seats))
        return Analysis(replay, tuple(judged), summaries)

    async def close(self) -> None:
        """Stop judging: the positions not yet stored are judged after the next start-up."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _enqueue(self, match_id: int, asker: int) -> None:
        if match_id in self._askers:
            return
        self._askers[match_id] = asker
        self._queues.setdefault(asker, deque()).append(match_id)
        task = self._tasks.get(asker)
        if task is None or task.done():
            self._tasks[asker] = asyncio.create_task(
                self._drain(asker), name=f"{TASK_PREFIX}-queue-{asker}"
            )

    async def _drain(self, asker: int) -> None:
        """Run an asker's queued analyses one after another, then stop (a new request starts
        again)."""
        queue = self._queues[asker]
        while queue:
            match_id = queue.popleft()
            try:
                await self._run(match_id, asker)
            except Exception:
                log.exception(
                    "the analysis of match #%s stopped; asking again resumes it", match_id
                )
            finally:
                del self._askers[match_id]
        del self._queues[asker]

    async def _second_looks(self, match_id: int, replay: Replay, asker: int) -> None:
        """Search again, with more budget, each position the readings leave in doubt
        (ai.analysis.second_look: before a marked move, after a move the judge did not
        choose), storing each new reading and saying how many so far (they can take longer
        than the first readings)."""
        assert self.read is not None
        store, game = self.cache.store, replay.match.game
        row = await store.analysis(match_id)
        assert row is not None
        readings = [Reading.from_json(json.loads(row.readings[i])) for i in range(row.positions)]
        looked_again, reported = 0, None
        while (
            look := await asyncio.to_thread(
                second_look, game.name, replay.states, replay.turns, readings
            )
        ) is not None:
            nodes = None if self.nodes is None else self.nodes * look.times
            seconds, seed = self.seconds * look.times, replay.match.row.seed
            step = look.position
            reading = await self.read(
                game.name, game.dump(replay.states[step]), seconds, seed, nodes, asker
            )
            readings[step] = replace(reading, times=look.times)
            await store.save_second_look(match_id, step, json.dumps(readings[step].to_json()))
            looked_again += 1
            if self.progressed is not None and (
                reported is None or self.clock.now() - reported >= PROGRESS_SECONDS
            ):
                reported = self.clock.now()
                latest = await store.analysis(match_id)
                message_id = None if latest is None else latest.message_id
                total = row.positions
                progress = Progress(replay.match, total, total, message_id, looked_again)
                await self.progressed(progress)

    async def _run(self, match_id: int, asker: int) -> None:
        if self.read is None:
            raise RuntimeError("no analysis worker is set")
        store = self.cache.store
        row = await store.analysis(match_id)
        if row is None or row.finished:
            return
        replay = await self.ratings.positions(match_id)
        match, game = replay.match, replay.match.game
        done, reported = len(row.readings), self.clock.now()
        for step, state in enumerate(replay.states):
            if step in row.readings:
                continue
            reading = await self.read(
                game.name, game.dump(state), self.seconds, match.row.seed, self.nodes, asker
            )
            await store.save_reading(match_id, step, json.dumps(reading.to_json()))
            done += 1
            if self.progressed is not None and self.clock.now() - reported >= PROGRESS_SECONDS:
                reported = self.clock.now()
                latest = await store.analysis(match_id)  # the message may be new
                message_id = None if latest is None else latest.message_id
                await self.progressed(Progress(match, done, row.positions, message_id))
        await self._second_looks(match_id, replay, asker)
        try:
            await self.post(match_id)
        except Exception as error:  # Discord did not take it: an ANALYSIS job posts it later
            log.info("the analysis of match #%s is posted later: %s", match_id, error)
            await self.deadlines.post_later(match_id, JobKind.ANALYSIS, match.row.ply)
