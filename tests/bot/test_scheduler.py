"""The scheduler on its own (on both backends): it sleeps until woken and runs what is due,
once, and takes back claims that a stopped process left unfinished."""

from __future__ import annotations

import asyncio
import json

from bot.clock import DAY, ManualClock
from bot.scheduler import CLAIM_LEASE, Scheduler
from bot.store import JobKind, JobRow, Store, open_store
from rules import get_game

HANG_GUARD = 30  # seconds; only stops a broken test from hanging, never measured


async def _match(store: Store) -> int:
    game = get_game("quorum")
    return await store.create_match(
        guild_id=1,
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
