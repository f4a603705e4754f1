"""The scheduler on its own: it sleeps until woken and runs what is due, once."""

from __future__ import annotations

import asyncio
import json

from bot.clock import DAY, ManualClock
from bot.scheduler import Scheduler
from bot.store import JobKind, JobRow, Store
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
        seats=[(10, "alice", True), (11, "bob", True)],
        days_per_move=1,
    )


def test_the_loop_runs_a_job_when_woken_after_it_falls_due_and_only_once() -> None:
    async def main() -> None:
        store = await Store.open(":memory:")
        clock = ManualClock(1000.0)
        ran: list[JobRow] = []
        done = asyncio.Event()

        async def handler(job: JobRow) -> None:
            ran.append(job)
            done.set()

        scheduler = Scheduler(store, clock, handler)
        await scheduler.start()
        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 1000 + DAY)])
        scheduler.wake()
        assert await scheduler.run_due() == 0  # not due yet: nothing ran
        clock.advance(DAY)
        scheduler.wake()
        await asyncio.wait_for(done.wait(), HANG_GUARD)
        assert [job.kind for job in ran] == [JobKind.TIMEOUT]
        assert await scheduler.run_due() == 0 and await store.next_due() is None
        await scheduler.stop()
        await store.close()

    asyncio.run(main())


def test_scheduling_twice_keeps_the_first_time_and_a_new_ply_drops_old_due_jobs() -> None:
    async def main() -> None:
        store = await Store.open(":memory:")
        match_id = await _match(store)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 500)])
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 900)])
        assert await store.due_time(match_id, JobKind.TIMEOUT, 0) == 500
        await store.schedule(match_id, 1, [(JobKind.TIMEOUT, 700)])
        assert await store.due_time(match_id, JobKind.TIMEOUT, 0) is None
        assert await store.next_due() == 700
        await store.close()

    asyncio.run(main())
