"""The hot queries on a big database: 100,000 matches and 2,000,000 moves, on either backend.

    python -m benchmarks.big_db [--backend sqlite|postgresql] [--matches 100000] [--url URL]

Builds the database through the store's bulk copy (`import_rows`: one transaction of
`executemany` on SQLite, COPY on PostgreSQL), then times each query a command or the
scheduler runs often, or the start-up runs, as the store runs it: the median of several
calls, wall and CPU time (this process's: the client's share on PostgreSQL). Every statement
a call ran is shown with its plan; a full scan of a table that grows with the bot's history
is marked FULL SCAN. Without --url a throwaway PostgreSQL is started here.

Then every statement the bot runs, not a list kept here: the bot plays `WORKLOAD` offline (every
command, button, the scheduler's reminders and timeouts, a tournament, an analysis) on an empty
database of the same backend, each distinct statement its store ran is recorded, and each is
planned and timed on the big database with the values it ran with, in a transaction rolled
back so that writes change nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from bot.jobs.scheduler import CLAIM_LEASE, KEEP_DONE
from bot.offline import run_offline
from bot.service.following import CHOICES_READ
from bot.service.queries import OPEN
from bot.settings import Settings
from bot.store import Shards, Status, Store, open_store
from bot.store.postgres import PostgresSession
from bot.store.sqlite import SqliteSession
from fixtures.postgres import ThrowawayPostgres
from rules import get_game

NOW = 1_800_000_000
GAMES = ("quorum", "boku", "boost", "razzle", "kyo")
GUILDS = 20
USERS_PER_GUILD = 200
MOVES_PER_MATCH = 21
COMPUTER = 1  # the computer's user id in its seats
RUNS = 15
LIMIT_MS = 20.0
CHUNK = 5_000  # matches per bulk insert
GROWING = ("matches", "seats", "moves", "jobs", "ratings", "rated_matches", "analyses")
# Indexes over the few rows in play (open jobs, running matches), not over the history.
SMALL_INDEXES = (
    "jobs_claimable",
    "jobs_claimed",
    "jobs_done",
    "matches_unposted",
    "matches_active",
    "matches_pending",
    "matches_unrated",
    "analyses_unfinished",
    "tournaments_running",
)


# What the bot does while its statements are recorded: `python -m bot --offline` lines.
WORKLOAD = """\
alice: /challenge game:quorum opponent:@bob days:1
bob: click Accept
dave: complete /follow match:Q
dave: /follow match:1
alice: /move move:a1e3
bob: complete /move move:h8
bob: /move move:h8h4
alice: /premove line:h8h4 b1d3
alice: /takeback
alice: /vacation days:1
alice: /next
alice: /matches
advance 2d
alice: /vacation days:0
alice: /board
alice: /settings theme:dark
olive: /server settings days:2
carol: /challenge game:boku opponent:@bot level:1
carol: /resign
carol: click Resign
carol: /analysis
carol: /replay
carol: /record
carol: /history
carol: /profile
carol: /leaderboard game:boku
erin: /challenge game:quorum
frank: click Accept
frank in thread: /draw
erin in thread: click Accept draw
erin in thread: click Rematch
olive: /tournament create game:quorum format:round-robin
pat: click Join
quinn: click Join
olive: /tournament list
olive: /tournament start
olive: /tournament standings
pat: /tournament leave
dave: /unfollow match:1
advance 3d
"""
WORKLOAD_SCHEMA = "big_db_workload"
SCHEMA_WORDS = ("CREATE", "DROP", "ALTER", "PRAGMA", "ANALYZE", "BEGIN", "COMMIT", "ROLLBACK")


def guild(n: int) -> int:
    return ((5000 + n) << 22) | 777


def user(guild_index: int, n: int) -> int:
    return 10_000 + guild_index * USERS_PER_GUILD + n


@dataclass(frozen=True)
class Shape:
    """Which matches are in which state: most finished, a few running or open."""

    matches: int

    def status(self, index: int) -> Status:
        share = index / self.matches
        if share < 0.95:
            return Status.FINISHED
        if share < 0.98:
            return Status.ACTIVE
        if share < 0.99:
            return Status.PENDING
        return Status.DECLINED


def build_chunk(shape: Shape, first: int, last: int, rng: random.Random) -> dict[str, list[Any]]:
    """Rows for matches `first`..`last` (ids from 1) and everything that hangs off them."""
    tables: dict[str, list[Any]] = {t: [] for t in ("matches", "seats", "moves", "jobs")}
    tables["rated_matches"] = []
    tables["analyses"] = []
    snapshots = {g: json.dumps(get_game(g).dump(get_game(g).new())) for g in GAMES}
    stamp = "2026-11-20T12:00:00.000+00:00"
    for match_id in range(first, last + 1):
        status = shape.status(match_id - 1)
        guild_index = match_id % GUILDS
        game = GAMES[match_id % len(GAMES)]
        computer = match_id % 10 == 0
        started = status in (Status.ACTIVE, Status.FINISHED)
        ply = MOVES_PER_MATCH if started else 0
        unposted = started and match_id % 20_000 == 0
        rated = 0 if computer else 1
        counted = rated and status == Status.FINISHED and match_id % 30_000 != 0
        finished = status == Status.FINISHED
        outcome = json.dumps({"winners": [1], "reason": "resignation"}) if finished else None
        updated = f"2026-{1 + match_id % 11:02d}-{1 + match_id % 28:02d}T00:00:{match_id % 60:02d}"
        tables["matches"].append(
            (
                match_id,
                guild(guild_index),
                900 + guild_index,
                None,
                None,
                800_000 + match_id,
                game,
                "standard",
                match_id,
                str(status),
                ply,
                snapshots[game],
                outcome,
                None,
                stamp,
                updated,
                3,
                None,
                ply - 1 if unposted else ply,
                2 if counted else rated,
            )
        )
        if counted:
            tables["rated_matches"].append((match_id, stamp))
        if finished and match_id % 10 == 1:  # one finished match in ten analysed; a few left off
            done = None if match_id % 20_000 == 1 else stamp
            tables["analyses"].append((match_id, user(guild_index, 0), None, ply, stamp, done))
        players = rng.sample(range(USERS_PER_GUILD), 2)
        seats = [
            user(guild_index, players[0]),
            COMPUTER if computer else user(guild_index, players[1]),
        ]
        for seat, user_id in enumerate(seats, 1):
            engine = 2 if user_id == COMPUTER else None
            tables["seats"].append((match_id, seat, user_id, f"user{user_id}", 1, engine))
        for n in range(1, ply + 1):
            tables["moves"].append((match_id, n, 1 + n % 2, f"m{n}", stamp))
        tables["jobs"] += jobs_of(match_id, status, ply)
    return tables


def jobs_of(match_id: int, status: Status, ply: int) -> list[tuple[Any, ...]]:
    """Finished matches' jobs are done (within the week kept); running ones wait, a few of
    them overdue; open challenges wait to expire."""
    base = match_id * 4
    if status == Status.FINISHED:
        done = NOW - (match_id % (KEEP_DONE - 3600))
        return [
            (base + k, match_id, kind, ply - 1, done - 100, "old", done - 100, done)
            for k, kind in enumerate(("reminder", "last-reminder", "timeout"))
        ]
    if status == Status.ACTIVE:
        due = NOW - 600 if match_id % 15 == 0 else NOW + match_id
        return [
            (base, match_id, "reminder", ply, due - 3600 * 6, None, None, None),
            (base + 1, match_id, "last-reminder", ply, due - 3600, None, None, None),
            (base + 2, match_id, "timeout", ply, due, None, None, None),
        ]
    if status == Status.PENDING:
        return [(base, match_id, "expiry", 0, NOW + match_id, None, None, None)]
    return []


COLUMNS = {
    "matches": (
        "id, guild_id, channel_id, thread_id, challenge_message_id, board_message_id, game, "
        "variant, seed, status, ply, snapshot, outcome, draw_offer, created_at, updated_at, "
        "days_per_move, expired_at, board_ply, rated"
    ),
    "seats": "match_id, seat, user_id, name, accepted, engine",
    "moves": "match_id, ply, seat, notation, played_at",
    "jobs": "id, match_id, kind, ply, due_at, claimed_by, claimed_at, done_at",
    "rated_matches": "match_id, rated_at",
    "analyses": "match_id, requested_by, message_id, positions, created_at, finished_at",
    "ratings": "guild_id, game, user_id, mu, sigma, games, wins, draws, losses, streak, updated_at",
}


def ratings_rows(rng: random.Random) -> list[tuple[Any, ...]]:
    return [
        (guild(g), game, user(g, n), rng.gauss(25, 4), rng.uniform(1, 8), 50, 25, 0, 25, 0, "x")
        for g in range(GUILDS)
        for game in GAMES
        for n in range(USERS_PER_GUILD)
    ]


async def build(store: Store, matches: int) -> tuple[float, float]:
    """Fill the store; returns (wall, CPU) seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    rng = random.Random(7)
    shape = Shape(matches)
    for first in range(1, matches + 1, CHUNK):
        chunk = build_chunk(shape, first, min(first + CHUNK - 1, matches), rng)
        for table in ("matches", "seats", "moves", "jobs", "rated_matches", "analyses"):
            await store.import_rows(table, COLUMNS[table].split(", "), chunk[table])
    await store.import_rows("ratings", COLUMNS["ratings"].split(", "), ratings_rows(rng))
    await store.analyze()
    return time.perf_counter() - wall, time.process_time() - cpu


@contextmanager
def recording() -> Iterator[list[tuple[str, tuple[Any, ...]]]]:
    """Every statement the store's sessions run meanwhile, with its values (a batch's: those
    of its first row)."""
    seen: list[tuple[str, tuple[Any, ...]]] = []
    patched = []
    for session in (SqliteSession, PostgresSession):
        for name in ("fetch", "execute", "executemany"):
            original = getattr(session, name)

            def spy(self: Any, sql: str, *params: Any, _original: Any = original) -> Any:
                batch = _original.__name__ == "executemany"
                seen.append((sql, tuple(params[0][0]) if batch and params[0] else params))
                return _original(self, sql, *params)

            patched.append((session, name, original))
            setattr(session, name, spy)
    try:
        yield seen
    finally:
        for session, name, original in patched:
            setattr(session, name, original)


def full_scans(plan: list[str]) -> list[str]:
    """The plan's steps that read a growing table (or an index of it) whole."""
    growing = "|".join(GROWING)
    small = "|".join(SMALL_INDEXES)
    found = []
    for step in plan:
        sqlite = re.search(r"\bSCAN (\w+)", step) and not re.search(rf"INDEX ({small})\b", step)
        postgres = re.search(rf"Seq Scan on ({growing})\b", step)
        if sqlite and not step.strip().startswith(("SCAN CONSTANT", "USE TEMP")) or postgres:
            found.append(step.strip())
    return [f for f in found if re.search(rf"\b({growing}|a|m|mine|s|j|r|better)\b", f)]


Call = Callable[[], Awaitable[Any]]


async def measure(store: Store, name: str, call: Call) -> tuple[str, float, float, bool]:
    """Median wall and CPU milliseconds of `call`; prints the plans of what it ran."""
    with recording() as statements:
        await call()
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        await call()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    scanned = False
    print(f"\n## {name}")
    for sql, params in dict.fromkeys(statements):
        plan = await store.explain(sql, *params)
        scans = full_scans(plan)
        scanned = scanned or bool(scans)
        print("   " + " ".join(sql.split())[:200])
        for step in plan:
            print(f"      {step}")
        for scan in scans:
            print(f"      ^ FULL SCAN: {scan}")
    return name, statistics.median(walls), statistics.median(cpus), scanned


async def statements_the_bot_runs(url: str | None) -> dict[str, tuple[Any, ...]]:
    """Each distinct statement the store ran while the bot played `WORKLOAD` on the empty
    database `url` (None: a new SQLite file), with the values it first ran with."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="", database_path=Path(folder) / "bot.sqlite3")
        with recording() as seen:
            await run_offline(settings, io.StringIO(WORKLOAD), io.StringIO(), database_url=url)
    found: dict[str, tuple[Any, ...]] = {}
    for sql, params in seen:
        text = " ".join(sql.split())
        if not text.upper().startswith(SCHEMA_WORDS):
            found.setdefault(text, params)
    return found


@asynccontextmanager
async def workload_database(url: str, backend: str) -> AsyncIterator[str | None]:
    """An empty database of the same backend for `WORKLOAD`: a new SQLite file (None), or a
    fresh schema of the PostgreSQL database at `url`, dropped afterwards."""
    if backend == "sqlite":
        yield None
        return
    parts = urlsplit(url)
    query = {**dict(parse_qsl(parts.query)), "search_path": WORKLOAD_SCHEMA}
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP SCHEMA IF EXISTS {WORKLOAD_SCHEMA} CASCADE")
        await admin.execute(f"CREATE SCHEMA {WORKLOAD_SCHEMA}")
        yield urlunsplit(parts._replace(query=urlencode(query)))
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {WORKLOAD_SCHEMA} CASCADE")
        await admin.close()


class Undo(Exception):
    """Rolls back the transaction a statement was timed in."""


async def time_statement(store: Store, sql: str, params: tuple[Any, ...]) -> float | str:
    """Median wall milliseconds of `sql` on `store`, each run rolled back; or why it failed
    (values recorded on the small database may not fit the big one)."""
    walls = []
    for _ in range(RUNS):
        try:
            async with store._transaction() as db:  # the store's own session, for rollback
                wall = time.perf_counter()
                await db.fetch(sql, *params)
                walls.append((time.perf_counter() - wall) * 1000)
                raise Undo
        except Undo:
            pass
        except Exception as error:
            return f"not timed: {type(error).__name__}"
    return statistics.median(walls)


async def every_statement(store: Store, statements: dict[str, tuple[Any, ...]]) -> list[str]:
    """Plans and times each statement the bot ran; the lines of its report."""
    report = []
    for sql, params in statements.items():
        plan = await store.explain(sql, *params)
        scans = full_scans(plan)
        timed = await time_statement(store, sql, params)
        verdict = "FULL SCAN" if scans else "indexed"
        if isinstance(timed, float):
            flag = "" if timed < LIMIT_MS else f"  over {LIMIT_MS:.0f} ms"
            report.append(f"{timed:8.2f} ms  {verdict}{flag}  {sql[:110]}")
        else:
            report.append(f"{timed:>11}  {verdict}  {sql[:110]}")
        for scan in scans:
            report.append(f"      ^ FULL SCAN: {scan}")
    return report


async def run(url: str, matches: int) -> None:
    store = await open_store(url)
    wall, cpu = await build(store, matches)
    moves = len(await store.moves(1))
    print(f"built {matches:,} matches, ~{matches * 0.99 * moves:,.0f} moves on {store.backend}")
    print(f"  in {wall:.1f} s wall, {cpu:.1f} s CPU")
    g, someone = guild(3), user(3, 17)
    shards = Shards(4, (0, 1))
    claim_at = [NOW]

    async def claim() -> Any:
        claim_at[0] += 1
        return await store.claim_job("bench", claim_at[0], shards)

    async def profile() -> None:
        await store.ratings_of(g, someone)
        await store.matches_of(someone, OPEN, g)
        await store.history(someone, g, None, limit=5, offset=0)

    async def leaderboard() -> None:
        await store.leaderboard(g, "quorum", 10)
        await store.rank_of(g, "quorum", someone)

    calls: list[tuple[str, Call]] = [
        ("/matches", lambda: store.matches_of(someone, OPEN, g)),
        ("match autocomplete", lambda: store.matches_of(someone, OPEN, g)),
        ("/follow autocomplete", lambda: store.server_matches(g, OPEN, CHOICES_READ)),
        ("/history", lambda: store.history(someone, g, None, limit=10, offset=0)),
        ("/history game, page 3", lambda: store.history(someone, g, "boku", limit=10, offset=20)),
        ("/profile", profile),
        ("/leaderboard", leaderboard),
        ("scheduler: claim", claim),
        ("scheduler: next due", lambda: store.next_due(CLAIM_LEASE, shards)),
        (
            "scheduler: recover claims",
            lambda: store.recover_claims([], at=NOW, lease=CLAIM_LEASE, shards=shards),
        ),
        ("scheduler: prune", lambda: store.prune_jobs(NOW - KEEP_DONE)),
        ("start-up: unrated matches", lambda: store.unrated_matches(shards)),
        ("start-up: unposted boards", lambda: store.unposted_boards(shards)),
        ("start-up: unscheduled", lambda: store.unscheduled(shards)),
        ("start-up: unscheduled, unsharded", lambda: store.unscheduled()),
        ("start-up: boards due", lambda: store.boards_due(NOW, shards)),
        ("start-up: the computer's matches", lambda: store.matches_with_engines(shards)),
        ("start-up: unfinished analyses", lambda: store.unfinished_analyses(shards)),
    ]
    results = [await measure(store, name, call) for name, call in calls]
    async with workload_database(url, store.backend) as workload_url:
        statements = await statements_the_bot_runs(workload_url)
    report = await every_statement(store, statements)
    await store.close()
    print(f"\n{'query':36} {'wall ms':>8} {'CPU ms':>8}  plan")
    for name, wall_ms, cpu_ms, scanned in results:
        verdict = "FULL SCAN" if scanned else "indexed"
        flag = "" if wall_ms < LIMIT_MS else f"  over {LIMIT_MS:.0f} ms"
        print(f"{name:36} {wall_ms:8.2f} {cpu_ms:8.2f}  {verdict}{flag}")
    print(f"\nEvery statement the bot ran ({len(statements)}), median wall time on this database:")
    print("\n".join(report))


def database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--url", help="an empty database (default: a new SQLite file or a throwaway PostgreSQL)"
    )


@contextmanager
def empty_database(args: argparse.Namespace) -> Iterator[str]:
    """The URL of an empty database as the options ask: given, or made here for the run."""
    if args.url:
        yield args.url
    elif args.backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
    else:
        with ThrowawayPostgres.start() as server:
            yield asyncio.run(server.create_schema("bench"))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.big_db", description=__doc__)
    parser.add_argument("--matches", type=int, default=100_000)
    database_options(parser)
    args = parser.parse_args()
    with empty_database(args) as url:
        asyncio.run(run(url, args.matches))


if __name__ == "__main__":
    main()
