"""Several bot processes racing turn writes on one PostgreSQL: throughput, latency, and proof
that no move is lost or doubled.

    python -m benchmarks.scale [--processes 4] [--matches 200] [--plies 25] [--routed] [--url URL]

Every process plays every match at once (one coroutine per match): read the match, write the
next turn at the ply it read. The other processes race it for each turn, so most attempts
lose with StaleWrite, as designed; a real deployment routes each server to one process and
sees almost none (`--routed` measures that). Without --url a throwaway PostgreSQL is
started here with fsync on, so the figures include real commits. Afterwards every match's
log is checked against what each process believes it wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from bot.store import PostgresStore, StaleWrite
from fixtures.postgres import ThrowawayPostgres


@dataclass(frozen=True)
class WorkerReport:
    """What one process did: the turns it landed, and how long writes took."""

    landed: list[tuple[int, int, str]]  # (match id, ply, notation)
    write_seconds: list[float]  # every landed write
    stale: int  # writes refused because another process had moved first
    cpu_seconds: float


def notation(worker: int, ply: int) -> str:
    return f"w{worker}-{ply}"


async def play(
    url: str, worker: int, match_ids: list[int], plies: int, pool: int, ready: Barrier
) -> WorkerReport:
    """Connect, wait until every process has connected, then race."""
    store = await PostgresStore.open(url, pool_size=pool)
    await asyncio.to_thread(ready.wait)
    landed: list[tuple[int, int, str]] = []
    seconds: list[float] = []
    stale = 0

    async def one_match(match_id: int) -> None:
        nonlocal stale
        while True:
            row = await store.get_match(match_id)
            assert row is not None
            if row.ply >= plies:
                return
            move = notation(worker, row.ply + 1)
            started = time.perf_counter()
            try:
                await store.append_moves(
                    match_id,
                    row.ply,
                    [(row.ply % 2 + 1, move)],
                    snapshot=json.dumps({"ply": row.ply + 1}),
                    status="active",
                    outcome=None,
                    draw_offer=None,
                )
            except StaleWrite:
                stale += 1
                continue
            seconds.append(time.perf_counter() - started)
            landed.append((match_id, row.ply + 1, move))

    cpu = time.process_time()
    await asyncio.gather(*(one_match(match_id) for match_id in match_ids))
    cpu = time.process_time() - cpu
    await store.close()
    return WorkerReport(landed, seconds, stale, cpu)


def worker_main(
    url: str,
    worker: int,
    match_ids: list[int],
    plies: int,
    pool: int,
    ready: Barrier,
    out: Queue[WorkerReport],
) -> None:
    out.put(asyncio.run(play(url, worker, match_ids, plies, pool, ready)))


async def create_matches(url: str, count: int) -> list[int]:
    store = await PostgresStore.open(url)
    ids = [
        await store.create_match(
            guild_id=1,
            channel_id=2,
            game="quorum",
            variant="standard",
            seed=n,
            snapshot=json.dumps({"ply": 0}),
            seats=[(100 + n, "a", True, None), (200 + n, "b", True, None)],
        )
        for n in range(count)
    ]
    await store.close()
    return ids


async def stored_logs(url: str, match_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    store = await PostgresStore.open(url)
    logs = {m: [(move.ply, move.notation) for move in await store.moves(m)] for m in match_ids}
    await store.close()
    return logs


def audit(
    reports: list[WorkerReport], logs: dict[int, list[tuple[int, str]]], plies: int
) -> tuple[int, int]:
    """(lost, doubled). Lost: a write its process saw succeed that the log lacks, or a gap
    in a log. Doubled: a turn two processes both saw succeed, or a logged turn that no
    process saw succeed (its player would have been told to play it again)."""
    claimed = Counter((m, ply) for r in reports for m, ply, _ in r.landed)
    stored = {(m, ply): text for m, log in logs.items() for ply, text in log}
    lost = sum(1 for r in reports for m, ply, text in r.landed if stored.get((m, ply)) != text)
    lost += sum(plies - len(log) for log in logs.values())
    doubled = sum(count - 1 for count in claimed.values() if count > 1)
    doubled += sum(1 for turn in stored if turn not in claimed)
    return lost, doubled


def measure(url: str, processes: int, matches: int, plies: int, pool: int, routed: bool) -> None:
    match_ids = asyncio.run(create_matches(url, matches))
    context = multiprocessing.get_context("spawn")
    ready, out = context.Barrier(processes + 1), context.Queue()
    workers = [
        context.Process(target=worker_main, args=(url, n, mine, plies, pool, ready, out))
        for n, mine in enumerate(
            match_ids[n::processes] if routed else match_ids for n in range(processes)
        )
    ]
    for worker in workers:
        worker.start()
    ready.wait()  # every process connected: the clock starts with the race
    started = time.perf_counter()
    reports = [out.get() for _ in workers]
    wall = time.perf_counter() - started
    for worker in workers:
        worker.join()
    logs = asyncio.run(stored_logs(url, match_ids))
    lost, doubled = audit(reports, logs, plies)
    writes = sorted(s for r in reports for s in r.write_seconds)
    landed = len(writes)
    p95 = writes[int(0.95 * (landed - 1))]
    who = "each its own share of the matches" if routed else "all racing on every match"
    print(f"{processes} processes x {matches} matches x {plies} turns ({who}), pool {pool}")
    print("| measure | value |")
    print("|---|---|")
    print(f"| turns landed | {landed} in {wall:.2f} s |")
    print(f"| moves/s | {landed / wall:.0f} |")
    print(f"| turn write latency, median | {statistics.median(writes) * 1000:.1f} ms |")
    print(f"| turn write latency, p95 | {p95 * 1000:.1f} ms |")
    print(f"| stale writes refused (lost races) | {sum(r.stale for r in reports)} |")
    print(f"| client CPU, all processes | {sum(r.cpu_seconds for r in reports):.2f} s |")
    print(f"| lost moves | {lost} |")
    print(f"| doubled moves | {doubled} |")
    if lost or doubled:
        raise SystemExit("FAILED: the store lost or doubled moves")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--plies", type=int, default=25, help="turns played in every match")
    parser.add_argument("--pool", type=int, default=10, help="connections per process")
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway)")
    parser.add_argument(
        "--routed",
        action="store_true",
        help="each process plays only its own matches, as sharding routes them (no races)",
    )
    args = parser.parse_args()
    shape = (args.processes, args.matches, args.plies, args.pool, args.routed)
    if args.url:
        measure(args.url, *shape)
        return
    with ThrowawayPostgres.start(durable=True) as server:
        measure(server.url(), *shape)


if __name__ == "__main__":
    main()
