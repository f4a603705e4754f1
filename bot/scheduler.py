"""One background task for everything with a due time: reminders, timeouts, expiries.

It sleeps until the earliest due time stored in the database, or until `wake()` (a new job
was scheduled), then claims due jobs one at a time and hands each to the handler. A job is
claimed (by this process's name) before it acts and marked done after, in the database, so
a restart neither loses nor repeats it, and of several processes sharing the database
exactly one runs it. The handler's own writes are guarded by the ply they expect, so a move
that lands first wins over its timeout.

A claim never finished belongs to a process that stopped mid-job: this process's own are
recovered when it starts again, anyone's once older than CLAIM_LEASE. Timeouts and expiries
run again (re-running a guarded write acts at most once); reminders count as done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable

from bot.clock import MINUTE, Clock
from bot.store import JobKind, JobRow, Store

log = logging.getLogger(__name__)

# Run again after a restart if claimed and never finished: their writes are guarded.
RETRIED_AFTER_RESTART = (JobKind.TIMEOUT, JobKind.EXPIRY)

RETRY_SECONDS = 60

# A claim this old was left by a process that died: jobs take seconds (a post or two).
CLAIM_LEASE = 10 * MINUTE

Handler = Callable[[JobRow], Awaitable[None]]


def process_name(shard_ids: tuple[int, ...] | None) -> str:
    """Who claims jobs: the host and the shards it runs, the same again after a restart and
    different for every process of one deployment (each runs its own shards)."""
    shards = "all shards" if shard_ids is None else "shards " + ",".join(map(str, shard_ids))
    return f"{socket.gethostname()} ({shards})"


class Scheduler:
    def __init__(self, store: Store, clock: Clock, handler: Handler, owner: str) -> None:
        self.store = store
        self.clock = clock
        self.handler = handler
        self.owner = owner
        self._woken = asyncio.Event()
        self._draining = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._recover(mine=True)
        self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        """Look at the database again: a job was scheduled (maybe earlier than the one
        being waited for)."""
        self._woken.set()

    async def next_due(self) -> int | None:
        """When there is next something to do: a job falls due or a claim goes stale."""
        return await self.store.next_due(CLAIM_LEASE)

    async def run_due(self) -> int:
        """Run every job due by now, earliest first; returns how many ran. Jobs that fall
        due while this runs (scheduled by a handler) run too."""
        ran = 0
        async with self._draining:
            await self._recover(mine=False)
            while (job := await self.store.claim_job(self.owner, self._now())) is not None:
                try:
                    await self.handler(job)
                except Exception:
                    log.exception("job %s (%s of match #%s) failed", job.id, job.kind, job.match_id)
                await self.store.finish_job(job.id, self.owner, self._now())
                ran += 1
        return ran

    async def _recover(self, *, mine: bool) -> None:
        """Take back stale claims (and, on starting, this process's own unfinished ones)."""
        recovered = await self.store.recover_claims(
            RETRIED_AFTER_RESTART,
            at=self._now(),
            lease=CLAIM_LEASE,
            owner=self.owner if mine else None,
        )
        if recovered:
            log.info("recovered %d unfinished job claims", recovered)

    def _now(self) -> int:
        return int(self.clock.now())

    async def _loop(self) -> None:
        while True:
            self._woken.clear()
            try:
                await self.run_due()
                next_due = await self.next_due()
            except Exception:  # the database failed: say so, and try again in a while
                log.exception("the scheduler could not read its jobs")
                next_due = int(self.clock.now()) + RETRY_SECONDS
            await self.clock.wait(self._woken, None if next_due is None else float(next_due))
