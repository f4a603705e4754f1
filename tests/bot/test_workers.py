"""The worker pool (bot/workers/pool.py): each kind runs in its own niced processes, a job's
error comes back, a worker that dies or hangs mid-job is replaced for every kind, sending never
blocks the event loop, and no worker outlives a killed bot."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ai.reading import Reading
from bot.posts.pictures import picture_words
from bot.workers.pool import NICENESS, Kind, WorkerCrashed, WorkerHung, WorkerPool
from rules import get_game
from rules.records import Record

WORDS = picture_words("en")

QUORUM = get_game("quorum")
needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
# A pool's owner that prints its workers' pids (one per kind, each busy with a job) and waits.
OWNER = """
import asyncio, json, os, time
from bot.workers.pool import Kind, WorkerPool

async def main():
    pool = WorkerPool()
    pids = await asyncio.gather(*(pool.submit(kind, None, 60, os.getpid) for kind in Kind))
    busy = [asyncio.create_task(pool.submit(kind, None, 600, time.sleep, 600)) for kind in Kind]
    await asyncio.sleep(0.5)
    print(json.dumps(pids), flush=True)
    await asyncio.gather(*busy)

asyncio.run(main())
"""


def opening() -> tuple[Any, tuple[str, ...]]:
    """A position three turns in, and the turns to it."""
    state, turns = QUORUM.new(), []
    for _ in range(3):
        move = QUORUM.legal_moves(state)[0]
        turns.append(QUORUM.format_move(state, move))
        state = QUORUM.apply(state, move)
    return state, tuple(turns)


async def a_job_of(kind: Kind, pool: WorkerPool) -> None:
    """The kind's own job, on a fresh worker, works."""
    state, turns = opening()
    if kind is Kind.MOVE:
        answer = await pool.choose("quorum", QUORUM.dump(state), level=1, seconds=10, seed=1)
        assert answer.fallback is None and answer.move in QUORUM.legal_moves(state)
    elif kind is Kind.REPLAY:
        gif = await pool.replay(
            Record("quorum", "standard", 2, 0, turns), names=["a", "b"], words=WORDS
        )
        assert gif.startswith(b"GIF89a")
    else:
        reading = await pool.read("quorum", QUORUM.dump(state), 0.1, 1, 50, owner=7)
        assert isinstance(reading, Reading) and len(reading.chances) == 2


def test_each_kind_has_its_own_worker_at_its_own_priority() -> None:
    async def main() -> None:
        async with WorkerPool() as pool:
            pids = {kind: await pool.submit(kind, None, 60, os.getpid) for kind in Kind}
            niceness = {kind: await pool.submit(kind, None, 60, os.nice, 0) for kind in Kind}
        assert len(set(pids.values())) == len(Kind) and os.getpid() not in pids.values()
        ours = os.nice(0)
        assert niceness == {kind: min(19, ours + NICENESS[kind]) for kind in Kind}
        assert NICENESS[Kind.MOVE] < NICENESS[Kind.REPLAY] < NICENESS[Kind.ANALYSIS]

    asyncio.run(main())


def test_a_jobs_error_comes_back_and_its_worker_keeps_serving() -> None:
    async def main() -> None:
        async with WorkerPool() as pool:
            before = await pool.submit(Kind.REPLAY, None, 60, os.getpid)
            with pytest.raises(ValueError, match="invalid literal"):
                await pool.submit(Kind.REPLAY, None, 60, int, "seven")
            assert await pool.submit(Kind.REPLAY, None, 60, os.getpid) == before

    asyncio.run(main())


async def killed_mid_job(pool: WorkerPool, kind: Kind, pid: int) -> None:
    busy = asyncio.create_task(pool.submit(kind, None, 600, time.sleep, 600))
    await asyncio.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(WorkerCrashed):
        await busy


async def hung_past_its_deadline(pool: WorkerPool, kind: Kind, pid: int) -> None:
    with pytest.raises(WorkerHung):
        await pool.submit(kind, None, 0.5, time.sleep, 600)


@pytest.mark.parametrize("failure", [killed_mid_job, hung_past_its_deadline])
@pytest.mark.parametrize("kind", list(Kind))
def test_a_failed_worker_is_replaced_and_the_next_job_works(
    kind: Kind, failure: Callable[[WorkerPool, Kind, int], Awaitable[None]]
) -> None:
    async def main() -> None:
        async with WorkerPool() as pool:
            pid = await pool.submit(kind, None, 60, os.getpid)
            await failure(pool, kind, pid)
            await a_job_of(kind, pool)
            assert await pool.submit(kind, None, 60, os.getpid) != pid

    asyncio.run(main())


@needs_proc
def test_a_worker_that_died_idle_is_replaced_before_the_next_job() -> None:
    async def main() -> None:
        async with WorkerPool() as pool:
            pid = await pool.submit(Kind.MOVE, None, 60, os.getpid)
            os.kill(pid, signal.SIGKILL)
            while not gone(pid):
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)  # the loop hears of it
            await a_job_of(Kind.MOVE, pool)

    asyncio.run(main())


def test_a_large_job_waits_in_the_pipe_not_in_the_event_loop() -> None:
    """The worker is stopped, so it reads nothing: a blocking send would hold the loop until
    the safety timer wakes the worker, and the loop would find it already awake."""
    payload = b"x" * 8_000_000  # far more than a pipe holds

    async def main() -> None:
        async with WorkerPool() as pool:
            pid = await pool.submit(Kind.ANALYSIS, None, 60, os.getpid)
            os.kill(pid, signal.SIGSTOP)
            woken = threading.Event()

            def wake() -> None:
                woken.set()
                os.kill(pid, signal.SIGCONT)

            safety = threading.Timer(5.0, wake)
            safety.start()
            try:
                sending = asyncio.create_task(pool.submit(Kind.ANALYSIS, None, 60, len, payload))
                await asyncio.sleep(0.3)
                assert not woken.is_set() and not sending.done()
            finally:
                safety.cancel()
                os.kill(pid, signal.SIGCONT)
            assert await sending == len(payload)

    asyncio.run(main())


def test_a_closed_pool_starts_no_worker() -> None:
    async def main() -> None:
        pool = WorkerPool()
        await pool.submit(Kind.MOVE, None, 60, os.getpid)
        await pool.close()
        with pytest.raises(RuntimeError, match="closed"):
            await pool.submit(Kind.MOVE, None, 60, os.getpid)

    asyncio.run(main())


def gone(pid: int) -> bool:
    """Whether the process has ended (a zombie nobody reaped has ended too)."""
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_until(done: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.1)
    return done()


@needs_proc
def test_workers_die_with_a_killed_bot() -> None:
    """kill -9 of the process that owns a pool, every worker busy mid-job: all of them end
    within a few seconds, as they notice their pipe closed."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        pids = json.loads(owner.stdout.readline())
        assert len(pids) == len(Kind) and not any(gone(pid) for pid in pids)
    finally:
        owner.kill()
        owner.wait()
        if owner.stdout is not None:
            owner.stdout.close()
    assert wait_until(lambda: all(gone(pid) for pid in pids), 5.0), "a worker outlived the bot"


@needs_proc
def test_a_worker_that_cannot_read_its_pipe_dies_with_a_killed_bot() -> None:
    """The workers are stopped (SIGSTOP: no thread of theirs can notice the pipe close)
    when the bot is killed with -9: the kernel ends them all the same (PR_SET_PDEATHSIG)."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        pids = json.loads(owner.stdout.readline())
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
    finally:
        owner.kill()
        owner.wait()
        if owner.stdout is not None:
            owner.stdout.close()
    try:
        assert wait_until(lambda: all(gone(pid) for pid in pids), 5.0), "a worker outlived it"
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_the_queues_and_the_work_are_measured() -> None:
    """A job waiting for the busy worker of its kind is counted in the queue gauge (what
    /server status reads), and each finished job's time in the histogram."""
    from prometheus_client import REGISTRY

    def value(name: str) -> float:
        return REGISTRY.get_sample_value(name, {"kind": "replay"}) or 0.0

    async def main() -> None:
        pool = WorkerPool()
        try:
            done = value("boardgames_worker_job_seconds_count")
            busy = asyncio.create_task(pool.submit(Kind.REPLAY, None, 60, time.sleep, 0.5))
            await asyncio.sleep(0.1)
            waiting = asyncio.create_task(pool.submit(Kind.REPLAY, None, 60, os.getpid))
            await asyncio.sleep(0.05)
            assert value("boardgames_worker_queue_jobs") == 1
            await asyncio.gather(busy, waiting)
            assert value("boardgames_worker_queue_jobs") == 0
            assert value("boardgames_worker_job_seconds_count") == done + 2
        finally:
            await pool.close()

    asyncio.run(main())
