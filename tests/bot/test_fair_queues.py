"""The worker pool's places go to members in turn (issue 38): one member's queue of jobs
never holds up another member's job by more than the one job ahead of it, and one member
never holds every place for the computer's moves."""

from __future__ import annotations

import asyncio
import os
import time

from bot.workers.pool import Kind, Places, WorkerPool


def test_members_waiting_are_served_in_turn() -> None:
    """alice queues five jobs, then bob and carol one each: as places free, bob and carol
    come before alice's third."""

    async def main() -> list[str]:
        places = Places(1, 1, lambda waiting: None)
        served: list[str] = []

        async def job(owner: str) -> None:
            worker = await places.take(owner)
            served.append(owner)
            await asyncio.sleep(0)
            places.give_back(owner, worker)

        held = await places.take("alice")
        served.append("alice")
        jobs = [asyncio.create_task(job("alice")) for _ in range(4)]
        await asyncio.sleep(0)
        jobs += [asyncio.create_task(job(name)) for name in ("bob", "carol")]
        await asyncio.sleep(0)
        places.give_back("alice", held)
        await asyncio.gather(*jobs)
        return served

    assert asyncio.run(main()) == ["alice", "bob", "carol", "alice", "alice", "alice", "alice"]


def test_a_cancelled_wait_gives_its_turn_away() -> None:
    async def main() -> None:
        places = Places(1, 1, lambda waiting: None)
        held = await places.take("alice")
        waiting = asyncio.create_task(places.take("bob"))
        after = asyncio.create_task(places.take("carol"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.sleep(0)
        assert places.waiting() == 1
        places.give_back("alice", held)
        assert await after is None and places.waiting() == 0

    asyncio.run(main())


def test_one_member_never_holds_every_place_for_the_computer() -> None:
    """With one AI worker, alice's searches fill it; bob's starts at once in the spare
    process, before alice's next, which waits for hers to end."""

    async def main() -> None:
        async with WorkerPool(1) as pool:
            done: list[str] = []

            async def job(owner: str, seconds: float) -> None:
                await pool.submit(Kind.MOVE, owner, 60, time.sleep, seconds)
                done.append(owner)

            alice = [asyncio.create_task(job("alice", 0.5)) for _ in range(3)]
            await asyncio.sleep(0.2)
            await job("bob", 0.0)
            assert done == ["bob"]
            await asyncio.gather(*alice)
            pids = {await pool.submit(Kind.MOVE, who, 60, os.getpid) for who in "ab"}
            assert len(pids) <= 2

    asyncio.run(main())
