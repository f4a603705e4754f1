"""One background task for everything with a due time: reminders, timeouts, expiries, and
posts Discord did not take (a handler raises Retry: the job runs again after a backoff).

It sleeps until the earliest due time stored in the database, or until woken: by `wake()`
(this process scheduled a job) or by the store when another process added or moved jobs
(a vacation begun or ended in a direct message, which only shard 0's process receives).
It never sleeps longer than LOOK_EVERY without reading the due times again, so such a job
is acted on in time even where no notification comes. Then it claims due jobs, earliest
first, and hands each to the handler, several at once (a thousand timeouts that fell due
while the bot was down are not one long queue). A job is claimed (by this process's name)
before it acts and marked done after, in the database, so a restart neither loses nor
repeats it, and of several processes sharing the database exactly one runs it: the one
whose shards hold the match's server. The handler's own writes are guarded by the ply they
expect, so a move that lands first wins over its timeout.

While a job runs its claim is renewed, so it never looks abandoned. A claim never finished
belongs to a process that stopped mid-job: those of a process of this host that has ended are
recovered when this one starts, others once older than CLAIM_LEASE (a claim names its process's
lifetime, see `process_name`, so no other process ever takes a live one). Timeouts and
expiries run again (re-running a guarded write acts at most once); reminders count as done.
Finished jobs are forgotten after KEEP_DONE.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.clock import DAY, HOUR, MINUTE, Clock
from bot.operations.logs import about
from bot.operations.metrics import JOBS, SCHEDULER_LAG
from bot.service.delivery import retry_delay
from bot.store import JobKind, JobRow, Shards, Store

log = logging.getLogger(__name__)

# Run again after a restart if claimed and never finished: their writes are guarded.
# Posts (a replay, a board, an analysis, an abort's news) are not guarded, but a stop before
# one was posted must not lose it; a stop between its post and its record of being done (a
# moment) would post it twice.
RETRIED_AFTER_RESTART = (
    JobKind.TIMEOUT,
    JobKind.EXPIRY,
    JobKind.REPLAY,
    JobKind.BOARD,
    JobKind.ANALYSIS,
    JobKind.CLOSING,
)

# The longest the scheduler waits without reading the due times again: the bound on acting
# late on a job another process moved when no notification came (SQLite has none; a
# PostgreSQL listener misses those sent while its connection is down), and how soon it
# tries again after the database failed.
LOOK_EVERY = 30

# A claim not renewed for this long was left by a process that died.
CLAIM_LEASE = 10 * MINUTE
RENEW_EVERY = CLAIM_LEASE // 4

# Jobs run at once: each mostly waits on Discord and the database, and its pictures render
# off the event loop; more would only queue in the renderers' threads.
CONCURRENT_JOBS = 4

KEEP_DONE = 7 * DAY
PRUNE_EVERY = HOUR

Handler = Callable[[JobRow], Awaitable[None]]


class Retry(Exception):
    """Raised by a handler whose post Discord did not take: the job goes back in the queue,
    due after `retry_delay` of its attempts (bot/service/delivery.py), or `at` that time."""

    def __init__(self, reason: str, at: int | None = None) -> None:
        super().__init__(reason)
        self.at = at


def process_name(shard_ids: tuple[int, ...] | None) -> str:
    """Who claims jobs: the host, the shards it runs, its process id and a token drawn at
    start, so two processes on one host (a restart included) never share a claim."""
    shards = "all shards" if shard_ids is None else "shards " + ",".join(map(str, shard_ids))
    return f"{socket.gethostname()} ({shards}) pid {os.getpid()} {secrets.token_hex(6)}"


CLAIMER = re.compile(r"(?P<host>.*) \(.*\) pid (?P<pid>\d{1,9}) [0-9a-f]+")


def ended(claimer: str) -> bool:
    """Whether the process that claimed as `claimer` (a `process_name`) ran on this host and
    has ended, so its claims need not wait out their lease. A process id taken again by
    another process counts as running: that claim waits out the lease."""
    found = CLAIMER.fullmatch(claimer)
    if found is None or found["host"] != socket.gethostname():
        return False
    try:
        os.kill(int(found["pid"]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # running, as another user
        return False
    return False


class Scheduler:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        handler: Handler,
        owner: str,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.handler = handler
        self.owner = owner
        self.shards = shards  # None: this process acts for every server
        self._woken = asyncio.Event()
        self._draining = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._running: set[int] = set()  # the ids of the jobs being handled
        self._jobs: set[asyncio.Task[None]] = set()  # their tasks
        self._stopped = False
        self._pruned_at: int | None = None

    async def start(self) -> None:
        await self._recover(mine=True)
        await self.store.watch_jobs(self.wake)
        self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self, grace: float = 0.0) -> int:
        """Claim no more jobs; give those running up to `grace` seconds, then cancel the
        rest and release their claims at once, so no process waits out their lease (they
        run again, as after a restart). Returns how many were cut short."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        late: set[asyncio.Task[None]] = set()
        if self._jobs:
            _, late = await asyncio.wait(self._jobs, timeout=grace)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        if late:
            await self._recover(mine=True)
        return len(late)

    def wake(self) -> None:
        """Look at the database again: a job was scheduled (maybe earlier than the one
        being waited for)."""
        self._woken.set()

    async def next_due(self) -> int | None:
        """When there is next something to do: a job falls due or a claim goes stale."""
        return await self.store.next_due(CLAIM_LEASE, self.shards)

    async def run_due(self) -> int:
        """Run every job due by now, claimed earliest first, CONCURRENT_JOBS at once;
        returns how many ran. Jobs that fall due while this runs (scheduled by a handler)
        run too. A stopped scheduler runs none."""
        if self._stopped:
            return 0
        async with self._draining:
            await self._recover(mine=False)
            await self._prune()
            async with self._renewing():
                return await self._drain()

    async def _drain(self) -> int:
        ran = 0
        slots = asyncio.Semaphore(CONCURRENT_JOBS)
        running: set[asyncio.Task[None]] = set()
        while True:
            await slots.acquire()
            if self._stopped:
                job = None
            else:
                job = await self.store.claim_job(self.owner, self._now(), self.shards)
            if job is None:
                slots.release()
                if not running:
                    return ran
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()  # a database failure goes up to the loop
                continue  # a finished job may have scheduled one due now
            self._running.add(job.id)
            task = asyncio.create_task(self._run(job, slots), name=f"job-{job.id}")
            running.add(task)
            self._jobs.add(task)
            task.add_done_callback(self._jobs.discard)
            ran += 1

    async def _run(self, job: JobRow, slots: asyncio.Semaphore) -> None:
        SCHEDULER_LAG.observe(max(0, self._now() - job.due_at))
        outcome, again = "done", None
        try:
            with about(match=job.match_id):
                try:
                    await self.handler(job)
                except Retry as refused:
                    outcome, again = "retried", refused.at
                    what = (job.id, job.kind, job.match_id, refused)
                    log.info("job %s (%s of match #%s) runs again: %s", *what)
                except Exception:
                    outcome = "failed"
                    log.exception("job %s (%s of match #%s) failed", job.id, job.kind, job.match_id)
            JOBS.labels(job.kind, outcome).inc()
            if outcome == "retried":
                due = again or self._now() + retry_delay(job.attempts + 1)
                await self.store.retry_job(job.id, self.owner, due)
            else:
                await self.store.finish_job(job.id, self.owner, self._now())
        finally:
            self._running.discard(job.id)
            slots.release()

    @contextlib.asynccontextmanager
    async def _renewing(self) -> AsyncIterator[None]:
        """Renew the claims of the running jobs every RENEW_EVERY while the block runs."""
        stop = asyncio.Event()

        async def renew() -> None:
            while True:
                await self.clock.wait(stop, self.clock.now() + RENEW_EVERY)
                if stop.is_set():
                    return
                if not self._running:
                    continue
                try:
                    await self.store.renew_claims(self.owner, sorted(self._running), self._now())
                except Exception:  # the database failed: the next renewal may get through
                    log.exception("could not renew the claims of the running jobs")

        task = asyncio.create_task(renew(), name="scheduler-renewal")
        try:
            yield
        finally:
            stop.set()
            await task

    async def _recover(self, *, mine: bool) -> None:
        """Take back stale claims (and, on starting, those of ended processes of this host,
        and this process's own unfinished ones after a stop)."""
        owners: list[str | None] = [None]
        if mine:
            owners = [self.owner, *filter(ended, await self.store.claimers(self.shards))]
        recovered = 0
        for owner in owners:
            recovered += await self.store.recover_claims(
                RETRIED_AFTER_RESTART,
                at=self._now(),
                lease=CLAIM_LEASE,
                owner=owner,
                shards=self.shards,
            )
        if recovered:
            log.info("recovered %d unfinished job claims", recovered)

    async def _prune(self) -> None:
        """Forget jobs finished over KEEP_DONE ago, at most once every PRUNE_EVERY."""
        at = self._now()
        if self._pruned_at is not None and at < self._pruned_at + PRUNE_EVERY:
            return
        self._pruned_at = at
        pruned = await self.store.prune_jobs(at - KEEP_DONE)
        if pruned:
            log.info("forgot %d jobs finished over a week ago", pruned)

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
                next_due = None
            look = self.clock.now() + LOOK_EVERY
            await self.clock.wait(self._woken, look if next_due is None else min(next_due, look))
