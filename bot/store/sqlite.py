"""SQLite storage, the embedded default: one aiosqlite connection writes, another reads, the
schema version in `PRAGMA user_version`.

The move log is the truth; the snapshot on the match row only makes loading fast. Every
write that changes a match names the ply (log length) it expects, so of two moves sent at
once only the first can land, even from two processes sharing the file.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.operations import metrics
from bot.store.database import Reader, Row, Session, TurnWrite, marks
from bot.store.migrations import pending
from bot.store.store import Store

log = logging.getLogger(__name__)

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")
# The reading connection cannot write, by mistake or otherwise: every write is the writer's.
READER_PRAGMAS = ("query_only=ON", "busy_timeout=5000")


class SqliteSession:
    """One connection, speaking `?` as SQLite does."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]:
        with metrics.DATABASE_QUERY.time():
            return list(await self._db.execute_fetchall(sql, params))

    async def execute(self, sql: str, *params: Any) -> int:
        with metrics.DATABASE_QUERY.time():
            return (await self._db.execute(sql, params)).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with metrics.DATABASE_QUERY.time():
            await self._db.executemany(sql, rows)


class QueuedReader:
    """Reads of an in-memory database, which has no second connection: each waits for the
    writer's lock, so it runs between transactions and sees only what they committed."""

    def __init__(self, session: SqliteSession, lock: asyncio.Lock) -> None:
        self._session = session
        self._lock = lock

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]:
        async with self._lock:
            return await self._session.fetch(sql, *params)


class SqliteStore(Store):
    """One connection writes, a lock keeping its transactions whole: a write waits for the
    transaction in progress rather than joining it. Reads go through a connection of their
    own, so they never wait for a transaction, nor see one that is still open: under WAL
    each statement reads the last committed state."""

    backend = "sqlite"
    # One process per file: it writes everything, so what it cached is what is stored.
    shared = False
    SEATS = """(
        SELECT json_group_array(json_array(seat, user_id, name, accepted, engine))
        FROM (SELECT * FROM seats WHERE match_id = m.id ORDER BY seat)
    )"""
    # None needed: SQLite runs one writer at a time, across processes too, so no two
    # claimers can pick the same row.
    CLAIM_LOCK = ""
    EXPLAIN = ("EXPLAIN QUERY PLAN", "detail")

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None) -> None:
        self._db = db
        self._session = SqliteSession(db)
        self._lock = asyncio.Lock()
        self._read_db = reader
        self._reads: Reader = (
            QueuedReader(self._session, self._lock) if reader is None else SqliteSession(reader)
        )

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        """The store in this file, or in memory for `:memory:` (whose reads then wait for
        the writer, having no connection of their own)."""
        if str(path) == ":memory:":
            return await cls(await _connect(path), None)._opened()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await _connect(path)
        try:
            reader = await _connect(path)
            for pragma in READER_PRAGMAS:
                await reader.execute(f"PRAGMA {pragma}")
        except BaseException:
            await db.close()
            raise
        return await cls(db, reader)._opened()

    async def close(self) -> None:
        if self._read_db is not None:
            await self._read_db.close()
        await self._db.close()

    async def _migrate(self) -> None:
        """The connection's settings first: the migration itself runs under WAL and foreign
        keys."""
        for pragma in PRAGMAS:
            await self._db.execute(f"PRAGMA {pragma}")
        for number, script in pending(await self.schema_version(), self.backend):
            log.info("migrating the database to schema version %d", number)
            await self._db.executescript(
                f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
            )

    async def watch_jobs(self, changed: Callable[[], None]) -> None:
        """Nothing: one process per file, and no notifications; the scheduler's bounded
        wait covers a second process."""

    async def _jobs_changed(self, db: Session) -> None:
        """Nothing to tell: see `watch_jobs`."""

    def _reader(self) -> Reader:
        return self._reads

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[SqliteSession]:
        async with self._lock:
            yield self._session

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[SqliteSession]:
        """BEGIN IMMEDIATE holds the database's write lock from the first statement, reads
        included, so what a transaction reads cannot change before it writes. Reads outside
        it, through the reading connection, see none of it until it commits."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._session
            except BaseException:
                await self._db.rollback()
                raise
            await self._db.commit()

    async def _lock_match(self, db: Session, match_id: int) -> None:
        """Nothing to do: the transaction already holds the whole database."""

    async def _lock_ratings(self, db: Session, guild_id: int, game: str) -> None:
        """Nothing to do: the transaction already holds the whole database."""

    async def schema_version(self) -> int:
        return int(await self._value("PRAGMA user_version") or 0)

    async def _write_turns(self, write: TurnWrite) -> bool:
        """One INSERT into the `turn_writes` view: its trigger checks the ply, logs the turn and
        updates the match, so the whole write is one statement (atomic, one thread hop)."""
        rows = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in write.turns)
        params: list[Any] = []
        for ply, seat, notation in write.turns:
            params += [write.match_id, ply, seat, notation, write.played_at]
            params += [write.snapshot, write.status, write.outcome, write.draw_offer]
        async with self._lock:
            try:
                with metrics.DATABASE_QUERY.time():
                    await self._db.execute(f"INSERT INTO turn_writes VALUES {rows}", params)
            except sqlite3.IntegrityError as error:
                if "stale write" not in str(error) and "UNIQUE" not in str(error):
                    raise
                return False
        return True

    # -- copying ---------------------------------------------------------------------------

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        reader = self._reader()
        columns = await reader.fetch("SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
        rows = await reader.fetch(f"SELECT * FROM {table}")
        return [str(column[0]) for column in columns], [tuple(row) for row in rows]

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        async with self._transaction() as db:
            await db.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks(len(columns))})", rows
            )


async def _connect(path: Path | str) -> aiosqlite.Connection:
    """A connection in autocommit mode (transactions are begun explicitly), rows by name."""
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    return db
