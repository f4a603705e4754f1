"""The scheduler on its own (on both backends): it sleeps until woken and runs what is due,
once, and takes back claims that a stopped process left unfinished."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence

import pytest

from bot.clock import DAY, HOUR, ManualClock
from bot.jobs.scheduler import (
    CLAIM_LEASE,
    KEEP_DONE,
    LOOK_EVERY,
    PRUNE_EVERY,
    RENEW_EVERY,
    Scheduler,
    process_name,
)
from bot.store import JobKind, JobRow, PostgresStore, Shards, Store, VacationRow, open_store
from rules import get_game
from tests.bot.support import ended_process, execute_raw

HANG_GUARD = 30  # seconds; only stops a broken test from hanging, never measured


async def _match(store: Store, guild_id: int | None = 1) -> int:
    game = get_game("quorum")
    return await store.create_match(
        guild_id=guild_id,
        channel_id=2,
        game="quorum",
        variant="standard",
        seed=0,
        snapshot=json.dumps(game.dump(game.new())),
        seats=[(10, "alice", True, None), (11, "bob", True, None)],
        days_per_move=1,
    )


def test_the_loop_runs_a_job_when_woken_after_it_falls_due_and_only_once(
    database_url: str,
) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        clock = ManualClock(1000.0)
        ran: list[JobRow] = []
        done = asyncio.Event()

        async def handler(job: JobRow) -> None:
            ran.append(job)
            done.set()

        scheduler = Scheduler(store, clock, handler, "process-1")
        await scheduler.start()
        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 1000 + DAY)])
        scheduler.wake()
        assert await scheduler.run_due() == 0  # not due yet: nothing ran
        clock.advance(DAY)
        scheduler.wake()
        await asyncio.wait_for(done.wait(), HANG_GUARD)
        assert [job.kind for job in ran] == [JobKind.TIMEOUT]
        assert await scheduler.run_due() == 0 and await scheduler.next_due() is None
        await scheduler.stop()
        await store.close()

    asyncio.run(main())


def test_scheduling_twice_keeps_the_first_time_and_a_new_ply_drops_old_due_jobs(
    database_url: str,
) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 500)])
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 900)])
        assert await store.due_time(match_id, JobKind.TIMEOUT, 0) == 500
        await store.schedule(match_id, 1, [(JobKind.TIMEOUT, 700)])
        assert await store.due_time(match_id, JobKind.TIMEOUT, 0) is None
        assert await store.next_due(CLAIM_LEASE) == 700
        await store.close()

    asyncio.run(main())


def test_a_stale_claim_of_a_dead_process_is_recovered_after_the_lease(database_url: str) -> None:
    """Process 1 claims a timeout and a reminder, then dies. Process 2 leaves the claims
    alone while they are fresh; once they are older than the lease it runs the timeout
    (guarded, so safe to run again) and counts the reminder done (never sent twice)."""

    async def main() -> None:
        store = await open_store(database_url)
        clock = ManualClock(1000.0)
        ran: list[JobKind] = []

        async def handler(job: JobRow) -> None:
            ran.append(job.kind)

        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.REMINDER, 900), (JobKind.TIMEOUT, 950)])
        assert [(await store.claim_job("process-1", 1000)) is not None for _ in "ab"] == [
            True,
            True,
        ]
        survivor = Scheduler(store, clock, handler, "process-2")
        assert await survivor.run_due() == 0 and ran == []
        assert await survivor.next_due() == 1000 + CLAIM_LEASE  # when the claims go stale
        clock.advance(CLAIM_LEASE)
        assert await survivor.run_due() == 1 and ran == [JobKind.TIMEOUT]
        assert await survivor.next_due() is None
        columns, rows = await store.export_rows("jobs")
        jobs = {row[columns.index("kind")]: dict(zip(columns, row, strict=True)) for row in rows}
        assert jobs["timeout"]["claimed_by"] == "process-2" and jobs["timeout"]["done_at"]
        assert jobs["reminder"]["claimed_by"] == "process-1" and jobs["reminder"]["done_at"]
        await store.close()

    asyncio.run(main())


def test_a_live_claim_of_another_process_on_this_host_is_never_taken(database_url: str) -> None:
    """Two processes of one host run every shard: the second, starting while the first is
    mid-job, leaves that claim alone (it names the first's lifetime, not only host and
    shards); a process of this host that has ended has its claims taken back at once."""

    async def main() -> None:
        store = await open_store(database_url)
        clock = ManualClock(1000.0)
        ran: list[int] = []

        async def handler(job: JobRow) -> None:
            ran.append(job.id)

        first, second = process_name(None), process_name(None)
        assert first != second and first.startswith(second.split(" pid ")[0])
        await store.schedule(await _match(store), 0, [(JobKind.TIMEOUT, 900)])
        live = await store.claim_job(first, 1000)
        assert live is not None
        survivor = Scheduler(store, clock, handler, second)
        await survivor.start()
        assert await survivor.run_due() == 0 and ran == []
        await survivor.stop()
        await execute_raw(database_url, f"UPDATE jobs SET claimed_by = '{ended_process()}'")
        restarted = Scheduler(store, clock, handler, process_name(None))
        await restarted.start()
        assert await restarted.run_due() == 1 and ran == [live.id]
        await restarted.stop()
        await store.close()

    asyncio.run(main())


def _guild_on(shard: int, count: int, n: int) -> int:
    """The n-th made-up server id whose events arrive on `shard` of `count`."""
    return ((1000 + n * count + shard) << 22) | 12345


def test_two_processes_of_four_shards_run_every_job_once_each_its_own(database_url: str) -> None:
    """Processes A (shards 0, 1) and B (shards 2, 3) share one database: of jobs in servers
    on every shard and in DMs (shard 0), each runs exactly its own, once, and neither sees
    the other's as due."""

    async def main() -> None:
        count = 4
        stores = [await open_store(database_url), await open_store(database_url)]
        clock = ManualClock(1000.0)
        ran: dict[str, list[JobRow]] = {"A": [], "B": []}
        owner_of: dict[int, str] = {}
        for shard in range(count):
            for n in range(3):
                match_id = await _match(stores[0], _guild_on(shard, count, n))
                owner_of[match_id] = "A" if shard < 2 else "B"
                await stores[0].schedule(match_id, 0, [(JobKind.TIMEOUT, 1000 + n)])
        dm_match = await _match(stores[0], None)
        owner_of[dm_match] = "A"
        await stores[0].schedule(dm_match, 0, [(JobKind.REMINDER, 1000)])

        def handler(name: str) -> Callable[[JobRow], Awaitable[None]]:
            async def handle(job: JobRow) -> None:
                ran[name].append(job)
                await asyncio.sleep(0)  # let the other process claim meanwhile

            return handle

        a = Scheduler(stores[0], clock, handler("A"), "A", Shards(count, (0, 1)))
        b = Scheduler(stores[1], clock, handler("B"), "B", Shards(count, (2, 3)))
        assert await a.next_due() == 1000 and await b.next_due() == 1000
        clock.advance(10)
        await asyncio.gather(a.run_due(), b.run_due())
        for name in ("A", "B"):
            assert all(owner_of[job.match_id] == name for job in ran[name]), name
        handled = sorted(job.match_id for job in ran["A"] + ran["B"])
        assert handled == sorted(owner_of)  # every job, once
        assert await a.next_due() is None and await b.next_due() is None
        for store in stores:
            await store.close()

    asyncio.run(main())


class TickingClock(ManualClock):
    """A manual clock whose waiters wake when `advance` passes their time, as a real one's
    do: what a job's long run does to its claim can be watched."""

    def __init__(self, start: float) -> None:
        super().__init__(start)
        self._waiting: list[tuple[float, asyncio.Event]] = []

    def advance(self, seconds: float) -> None:
        super().advance(seconds)
        for until, woken in self._waiting:
            if until <= self.now():
                woken.set()

    async def wait(self, woken: asyncio.Event, until: float | None) -> None:
        if until is None or until > self.now():
            ticked = asyncio.Event()
            self._waiting.append((until or float("inf"), ticked))
            waiters = [asyncio.ensure_future(e.wait()) for e in (woken, ticked)]
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
            self._waiting.remove((until or float("inf"), ticked))


def test_a_job_running_longer_than_the_lease_keeps_its_claim(database_url: str) -> None:
    """Process 1's timeout runs for three leases (Discord failing and retrying, say); its
    claim is renewed meanwhile, so process 2 (same shards, restarted elsewhere) never takes
    it over, and the job runs once."""

    async def main() -> None:
        store = await open_store(database_url)
        clock = TickingClock(1000.0)
        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 1000)])
        started, release = asyncio.Event(), asyncio.Event()
        runs: list[str] = []

        async def slow(job: JobRow) -> None:
            runs.append("1")
            started.set()
            await release.wait()

        async def quick(job: JobRow) -> None:
            runs.append("2")

        renewed = asyncio.Event()
        renew_claims = store.renew_claims

        async def renewing(owner: str, job_ids: Sequence[int], at: int) -> None:
            await renew_claims(owner, job_ids, at)
            renewed.set()

        store.renew_claims = renewing  # type: ignore[method-assign]
        first = Scheduler(store, clock, slow, "process-1")
        second = Scheduler(store, clock, quick, "process-2")
        running = asyncio.create_task(first.run_due())
        await asyncio.wait_for(started.wait(), HANG_GUARD)
        for _ in range(12):  # three leases, a quarter at a time
            renewed.clear()
            clock.advance(RENEW_EVERY)
            await asyncio.wait_for(renewed.wait(), HANG_GUARD)  # however slow the database
            assert await asyncio.wait_for(second.run_due(), HANG_GUARD) == 0
        release.set()
        assert await asyncio.wait_for(running, HANG_GUARD) == 1
        assert runs == ["1"]
        await store.close()

    asyncio.run(main())


def _looks(store: Store) -> asyncio.Queue[int | None]:
    """What each look of a scheduler on `store` at its due times finds, in order. The
    scheduler waits straight after a look, so once a look is taken from the queue, its
    scheduler is asleep (until woken or its time comes)."""
    looks: asyncio.Queue[int | None] = asyncio.Queue()
    next_due = store.next_due

    async def looking(lease: int, shards: Shards | None = None) -> int | None:
        due = await next_due(lease, shards)
        looks.put_nowait(due)
        return due

    store.next_due = looking  # type: ignore[method-assign]
    return looks


async def _looked(looks: asyncio.Queue[int | None], due: int) -> None:
    """Wait for a look that finds `due` (those before it found an older time)."""
    while await asyncio.wait_for(looks.get(), HANG_GUARD) != due:
        pass


def test_a_vacation_begun_and_ended_in_another_process_moves_the_owners_timeout(
    database_url: str,
) -> None:
    """Process B (a DM lands on shard 0) begins and ends bob's vacation, moving a timeout
    that process A owns and sleeps towards. A never times bob out at the old time, and once
    the vacation is over it runs the timeout at most LOOK_EVERY after its new time. On
    PostgreSQL, A looks again at once, woken by B's notification, the clock standing still."""

    async def main() -> None:
        stores = [await open_store(database_url), await open_store(database_url)]
        postgres = stores[0].backend == "postgresql"
        start = 1000
        clock = TickingClock(float(start))
        ran: list[JobKind] = []
        done = asyncio.Event()

        async def handler(job: JobRow) -> None:
            ran.append(job.kind)
            done.set()

        match_id = await _match(stores[0])
        await stores[0].schedule(match_id, 0, [(JobKind.TIMEOUT, start + 20)])
        looks = _looks(stores[0])
        owner = Scheduler(stores[0], clock, handler, "A")
        await owner.start()
        await _looked(looks, start + 20)

        vacation_id = await stores[1].start_vacation(11, start, start + 7 * DAY)
        assert vacation_id is not None
        assert await stores[1].pause_jobs(match_id, 0, vacation_id, 7 * DAY) == 1
        if postgres:
            await _looked(looks, start + 7 * DAY + 20)
        clock.advance(20 + LOOK_EVERY)  # the old due time passes
        await _looked(looks, start + 7 * DAY + 20)
        clock.advance(HOUR)
        await _looked(looks, start + 7 * DAY + 20)
        assert ran == []

        now = int(clock.now())
        vacation = VacationRow(vacation_id, 11, start, start + 7 * DAY)
        assert await stores[1].end_vacation(vacation, now)
        if postgres:
            await _looked(looks, now + 20)
        clock.advance(20 + LOOK_EVERY)  # the new due time, and the longest A may sleep past it
        await asyncio.wait_for(done.wait(), HANG_GUARD)
        assert ran == [JobKind.TIMEOUT]
        await owner.stop()
        for store in stores:
            await store.close()

    asyncio.run(main())


def test_finished_jobs_are_forgotten_after_a_week(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        clock = ManualClock(1000.0)

        async def nothing(job: JobRow) -> None:
            pass

        scheduler = Scheduler(store, clock, nothing, "process-1")
        old, recent = await _match(store), await _match(store)
        await store.schedule(old, 0, [(JobKind.TIMEOUT, 1000)])
        assert await scheduler.run_due() == 1
        clock.advance(KEEP_DONE - DAY)
        await store.schedule(recent, 0, [(JobKind.TIMEOUT, int(clock.now()))])
        assert await scheduler.run_due() == 1
        clock.advance(DAY + PRUNE_EVERY)
        await scheduler.run_due()
        assert await store.due_time(old, JobKind.TIMEOUT, 0) is None
        assert await store.due_time(recent, JobKind.TIMEOUT, 0) is not None
        await store.close()

    asyncio.run(main())


def test_start_up_finds_only_the_matches_of_its_own_shards(database_url: str) -> None:
    """Unposted boards, the computer's matches, missing expiries and unrated results: each
    start-up query of a process of shards 0 and 1 (of 4) finds the matches of servers on
    those shards and of direct messages (shard 0), never another process's."""

    async def main() -> None:
        store = await open_store(database_url)
        mine: list[int] = []
        for shard in range(4):
            match_id = await _match(store, _guild_on(shard, 4, 0))
            mine += [match_id] if shard < 2 else []
        dm = await _match(store, None)
        await execute_raw(
            database_url,
            "UPDATE matches SET status = 'active'",
            "UPDATE seats SET engine = 2 WHERE seat = 2",
        )
        shards = Shards(4, (0, 1))
        assert await store.unposted_boards(shards) == [*mine, dm]
        assert await store.matches_with_engines(shards) == [*mine, dm]
        assert await store.boards_due(0, shards) == 3  # a BOARD job for each unposted board
        boards = [await store.due_time(m, JobKind.BOARD, 0) for m in [*mine, dm]]
        assert boards == [0, 0, 0]
        assert await store.boards_due(0) == 2  # the other process's: one each, once
        await execute_raw(database_url, "UPDATE matches SET status = 'pending'")
        assert await store.unscheduled(shards) == [*mine, dm]
        assert len(await store.unscheduled()) == 5  # one process running every shard
        await execute_raw(database_url, "UPDATE matches SET status = 'finished'")
        # DMs are rated too (in a pool of their own), on shard 0
        assert await store.unrated_matches(shards) == [*mine, dm]
        await store.close()

    asyncio.run(main())


@pytest.mark.postgresql_only
def test_a_dropped_listener_is_opened_again_and_wakes_its_process(database_url: str) -> None:
    """PostgreSQL: the server ends the connection that listens for other processes' job
    changes; it is opened again at once, and a job another process adds then wakes this
    one (here within HANG_GUARD, well under LOOK_EVERY). SQLite has one process and no
    listener."""

    async def main() -> None:
        mine, other = await open_store(database_url), await open_store(database_url)
        try:
            assert isinstance(mine, PostgresStore)
            woken = asyncio.Event()
            await mine.watch_jobs(woken.set)
            listener = mine._listener
            assert listener is not None
            await execute_raw(
                database_url, f"SELECT pg_terminate_backend({listener.get_server_pid()})"
            )
            await asyncio.wait_for(woken.wait(), HANG_GUARD)  # back, and looks again
            assert mine._listener is not listener
            woken.clear()
            match_id = await _match(other)
            await other.schedule(match_id, 0, [(JobKind.TIMEOUT, 1000)])
            await asyncio.wait_for(woken.wait(), HANG_GUARD)
        finally:
            await mine.close()
            await other.close()

    asyncio.run(main())
