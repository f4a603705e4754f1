"""PostgreSQL storage through an asyncpg pool, for several bot processes on one database.

The guarantees are the SQLite store's, made to hold across processes: a turn is one
statement whose `UPDATE ... WHERE ply = expected` decides the race (a loser blocks on the
row lock, then finds the ply moved on and writes nothing), a seat acceptance locks its match
row first, and a job claim locks the row it marks, so no two processes take the same job.

A pooled connection the server dropped (a restart, a network hiccup) is noticed only when
used; `PostgresStore._fresh` then replaces the pool's connections and tries once more, so no
command fails for it.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg
from asyncpg.transaction import Transaction

from bot.operations import metrics
from bot.store.database import Row, Session, TurnWrite
from bot.store.migrations import pending
from bot.store.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")

# What using a connection the server has dropped raises, depending on when it notices.
DEAD_CONNECTION = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, ConnectionError)

# Taken while migrating, so processes starting together migrate one after the other.
MIGRATION_LOCK = 0x626F617264  # "board"

APPEND_TURNS = """
    WITH turned AS (
        UPDATE matches SET ply = $3, snapshot = $4, status = $5, outcome = $6,
            draw_offer = $7, updated_at = $8
        WHERE id = $1 AND ply = $2
        RETURNING id
    )
    INSERT INTO moves (match_id, ply, seat, notation, played_at)
    SELECT turned.id, t.ply, t.seat, t.notation, $8
    FROM turned, unnest($9::int[], $10::int[], $11::text[]) AS t (ply, seat, notation)
"""

# Where a process that adds or moves jobs tells the others' schedulers (LISTEN/NOTIFY).
JOBS_CHANNEL = "board_jobs"
RELISTEN_EVERY = 5.0  # seconds between attempts to open a dropped listener again

# A quoted literal, whose question marks are text, not placeholders.
LITERAL = re.compile(r"('(?:[^']|'')*')")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The shared SQL's `?` placeholders as PostgreSQL's `$1, $2, ...`, in order."""
    count = itertools.count(1)
    return "".join(
        part if part.startswith("'") else re.sub(r"\?", lambda _: f"${next(count)}", part)
        for part in LITERAL.split(sql)
    )


def _affected(status: str) -> int:
    """The row count at the end of a command tag such as `INSERT 0 1` or `UPDATE 3`."""
    return int(status.rsplit(" ", 1)[-1])


Fresh = Callable[[Callable[[], Awaitable[T]]], Awaitable[T]]


async def _as_is(work: Callable[[], Awaitable[T]]) -> T:
    return await work()


class PostgresSession:
    """The pool, or one connection taken from it, speaking the shared `?` SQL. On the pool,
    each statement runs through `fresh` (the store's retry on a dropped connection); in a
    transaction a lost connection loses the transaction, so it is not retried there."""

    def __init__(self, db: asyncpg.Pool | asyncpg.Connection, fresh: Fresh[Any] = _as_is) -> None:
        self._db = db
        self._fresh = fresh

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]:
        with metrics.DATABASE_QUERY.time():
            rows: list[Row] = await self._fresh(lambda: self._db.fetch(numbered(sql), *params))
        return rows

    async def execute(self, sql: str, *params: Any) -> int:
        with metrics.DATABASE_QUERY.time():
            status = await self._fresh(lambda: self._db.execute(numbered(sql), *params))
        return _affected(status)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with metrics.DATABASE_QUERY.time():
            await self._fresh(lambda: self._db.executemany(numbered(sql), rows))


class PostgresStore(Store):
    """Every call borrows a pooled connection; multi-statement writes run in a transaction."""

    backend = "postgresql"
    # Several processes (each running its shards) write the same matches.
    shared = True
    SEATS = """COALESCE((
        SELECT json_agg(json_build_array(seat, user_id, name, accepted, engine) ORDER BY seat)
        FROM seats WHERE match_id = m.id
    ), '[]')::text"""
    # Racing claimers skip the job another is claiming this instant: each gets a different
    # job, none waits.
    CLAIM_LOCK = "FOR UPDATE SKIP LOCKED"
    EXPLAIN = ("EXPLAIN", "QUERY PLAN")

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._session = PostgresSession(pool, self._fresh)
        self._listener: asyncpg.Connection | None = None  # see `watch_jobs`
        self._changed: Callable[[], None] | None = None
        self._relisten: asyncio.Task[None] | None = None  # opening the listener again

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        return await cls(pool, url)._opened()

    async def close(self) -> None:
        self._changed = None  # a listener closed now is not opened again
        if self._relisten is not None:
            self._relisten.cancel()
            await asyncio.gather(self._relisten, return_exceptions=True)
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self._pool.close()

    async def watch_jobs(self, changed: Callable[[], None]) -> None:
        """LISTEN on a connection of its own, outside the pool, so it never takes a place
        that queries wait for. When that connection drops (a server restart, a network
        cut, an administrator ending it) it is opened again, tried every RELISTEN_EVERY
        seconds, and `changed` is called once it is back: the notifications sent while it
        was down are lost (the scheduler's bounded wait covers that time too)."""
        self._changed = changed
        await self._listen()

    async def _listen(self) -> None:
        listener = await asyncpg.connect(self._url)
        await listener.add_listener(JOBS_CHANNEL, self._notified)
        listener.add_termination_listener(self._dropped)
        self._listener = listener

    def _notified(self, *_: object) -> None:
        if self._changed is not None:
            self._changed()

    def _dropped(self, _: object) -> None:
        if self._changed is not None and self._relisten is None:
            self._relisten = asyncio.create_task(self._listen_again(), name="relisten")

    async def _listen_again(self) -> None:
        try:
            while self._changed is not None:
                try:
                    await self._listen()
                except (OSError, asyncpg.PostgresError) as error:
                    log.warning("cannot listen for job changes yet: %s", error)
                    await asyncio.sleep(RELISTEN_EVERY)
                    continue
                log.info("listening for job changes again")
                self._changed()
                return
        finally:
            self._relisten = None

    async def _jobs_changed(self, db: Session) -> None:
        """NOTIFY, delivered when the transaction commits (at once outside one)."""
        await db.execute("SELECT pg_notify(?, '')", JOBS_CHANNEL)

    async def _migrate(self) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            version = await db.fetchval("SELECT max(version) FROM schema_version") or 0
            for number, script in pending(version, self.backend):
                log.info("migrating the database to schema version %d", number)
                await db.execute(script)
                await db.execute("INSERT INTO schema_version VALUES ($1)", number)

    async def schema_version(self) -> int:
        return int(await self._value("SELECT max(version) FROM schema_version") or 0)

    async def _fresh(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work` on the pool; if its connection was dead, once more on a fresh one.

        The pool's other idle connections died with it, so all are replaced first. Only
        work that a dead connection cannot have half done comes here: a single statement
        (a read; a write that is idempotent or guarded by the ply, which refuses a second
        landing) or a transaction's BEGIN (`_begin`)."""
        try:
            return await work()
        except DEAD_CONNECTION as error:
            log.warning("a PostgreSQL connection was lost (%s); trying a fresh one", error)
            await self._pool.expire_connections()
            return await work()

    def _reader(self) -> PostgresSession:
        """The pool: under READ COMMITTED each statement sees what was committed before it
        began, never another connection's open transaction."""
        return self._session

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[PostgresSession]:
        yield self._session

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[PostgresSession]:
        db, transaction = await self._fresh(self._begin)
        try:
            yield PostgresSession(db)
        except BaseException:
            await transaction.rollback()
            raise
        else:
            await transaction.commit()
        finally:
            await self._pool.release(db)

    async def _begin(self) -> tuple[asyncpg.Connection, Transaction]:
        """A pooled connection with a transaction begun: BEGIN is the first statement it
        sends, so a dead connection fails here, before anything of the transaction ran."""
        db = await self._pool.acquire()
        transaction = db.transaction()
        try:
            await transaction.start()
        except BaseException:
            await self._pool.release(db)
            raise
        return db, transaction

    async def _lock_match(self, db: Session, match_id: int) -> None:
        await db.execute("SELECT 1 FROM matches WHERE id = ? FOR UPDATE", match_id)

    async def _lock_ratings(self, db: Session, guild_id: int, game: str) -> None:
        """An advisory lock per server and game: the standings read, new players' included,
        have no rows to lock yet."""
        await db.execute("SELECT pg_advisory_xact_lock(hashtext(?))", f"ratings:{guild_id}:{game}")

    async def _write_turns(self, write: TurnWrite) -> bool:
        """One statement: the guarded UPDATE and the log INSERT stand or fall together."""
        values = (
            write.match_id,
            write.expected_ply,
            write.expected_ply + len(write.turns),
            write.snapshot,
            write.status,
            write.outcome,
            write.draw_offer,
            write.played_at,
            [ply for ply, _, _ in write.turns],
            [seat for _, seat, _ in write.turns],
            [notation for _, _, notation in write.turns],
        )
        try:
            written = await self._fresh(lambda: self._pool.execute(APPEND_TURNS, *values))
        except asyncpg.UniqueViolationError:
            return False
        return _affected(written) == len(write.turns)

    # -- copying ---------------------------------------------------------------------------

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        async with self._pool.acquire() as db:
            statement = await db.prepare(f"SELECT * FROM {table}")
            columns = [attribute.name for attribute in statement.get_attributes()]
            return columns, [tuple(row) for row in await statement.fetch()]

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Bulk COPY, then move the table's id sequence past the copied ids, so the next
        match created here does not collide with a copied one."""
        async with self._pool.acquire() as db, db.transaction():
            await db.copy_records_to_table(table, records=rows, columns=list(columns))
            identities = await db.fetch(
                "SELECT column_name FROM information_schema.columns WHERE is_identity = 'YES' "
                "AND table_schema = current_schema() AND table_name = $1",
                table,
            )
            for (column,) in identities:
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence($1, $2), "
                    f"COALESCE((SELECT max({column}) FROM {table}), 0) + 1, false)",
                    table,
                    column,
                )
