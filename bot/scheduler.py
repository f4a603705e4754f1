"""One background task for everything with a due time: reminders, timeouts, expiries.

It sleeps until the earliest due time stored in the database, or until `wake()` (a new job
was scheduled), then claims due jobs one at a time and hands each to the handler. A job is
marked claimed before it acts and done after, in the database, so a restart neither loses
nor repeats it; the handler's own writes are guarded by the ply they expect, so a move that
lands first wins over its timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.store import JobKind, JobRow, Store

log = logging.getLogger(__name__)

# Run again after a restart if claimed and never finished: their writes are guarded.
RETRIED_AFTER_RESTART = (JobKind.TIMEOUT, JobKind.EXPIRY)

RETRY_SECONDS = 60

Handler = Callable[[JobRow], Awaitable[None]]


class Scheduler:
    def __init__(self, store: Store, clock: Clock, handler: Handler) -> None:
        self.store = store
        self.clock = clock
        self.handler = handler
        self._woken = asyncio.Event()
        self._draining = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.store.recover_claims(RETRIED_AFTER_RESTART)
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

    async def run_due(self) -> int:
        """Run every job due by now, earliest first; returns how many ran. Jobs that fall
        due while this runs (scheduled by a handler) run too."""
        ran = 0
        async with self._draining:
            while (job := await self.store.claim_job(int(self.clock.now()))) is not None:
                try:
                    await self.handler(job)
                except Exception:
                    log.exception("job %s (%s of match #%s) failed", job.id, job.kind, job.match_id)
                await self.store.finish_job(job.id, int(self.clock.now()))
                ran += 1
        return ran

    async def _loop(self) -> None:
        while True:
            self._woken.clear()
            try:
                await self.run_due()
                next_due = await self.store.next_due()
            except Exception:  # the database failed: say so, and try again in a while
                log.exception("the scheduler could not read its jobs")
                next_due = int(self.clock.now()) + RETRY_SECONDS
            await self.clock.wait(self._woken, None if next_due is None else float(next_due))
