"""What every concern's queries run over: sessions that speak the shared SQL, and the few
things each backend supplies.

A concern (bot/store/matches.py, jobs.py, ...) is a class of methods over `Database`; the
`Store` inherits them all, and a backend (sqlite.py, postgres.py) subclasses the `Store`
with its connections, its transactions and the statements that truly differ. The queries
are written once, with `?` placeholders; PostgreSQL numbers them in its session.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, ClassVar, NamedTuple, Protocol, Self

from bot.store.rows import Shards


class Row(Protocol):
    """A result row read by column name or position, or as its values in order: sqlite3.Row
    and asyncpg's Record both are."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Reader(Protocol):
    """Where reads go: it sees only what was committed."""

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]: ...


class Session(Reader, Protocol):
    """A connection as the shared queries use it: `?` placeholders, values in order."""

    async def execute(self, sql: str, *params: Any) -> int:
        """Run one statement; how many rows it wrote."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class TurnWrite(NamedTuple):
    """Turns to log after `expected_ply` and the match's fields after them, as stored."""

    match_id: int
    expected_ply: int
    turns: list[tuple[int, int, str]]  # (ply, seat, notation)
    snapshot: str
    status: str
    outcome: str | None  # JSON
    draw_offer: int | None
    played_at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def marks(count: int) -> str:
    """Placeholders for an IN list of `count` values; NULL, which matches nothing, for none
    (PostgreSQL refuses an empty `IN ()`)."""
    return ", ".join(["?"] * count) or "NULL"


def on_shards(shards: Shards | None, guild: str = "m.guild_id") -> tuple[str, list[Any]]:
    """A condition, and its values: the server `guild` (an SQL expression) is on one of
    these shards (Discord's formula, direct messages on shard 0). Every match passes when
    `shards` is None (one process runs them all).

    Each query a process runs for its own shards has this `{shards}` condition on its
    match's server, and a partial index it reads in place of the table."""
    if shards is None:
        return "1 = 1", []
    return (
        f"(COALESCE({guild}, 0) >> 22) % ? IN ({marks(len(shards.ids))})",
        [shards.count, *shards.ids],
    )


class Database(ABC):
    """A database as the concerns see it. What is abstract here each backend supplies."""

    backend: str  # "sqlite" or "postgresql", for messages
    shared: bool
    """Other processes write this database too (PostgreSQL): a match cached in memory may be
    out of date, so it is read again before use. A SQLite file has one process."""
    SEATS: ClassVar[str]
    """An expression: match `m`'s seats as JSON text, `[[seat, user_id, name, accepted,
    engine], ...]` by seat, so a match loads in one query."""
    CLAIM_LOCK: ClassVar[str]
    """Appended to the claim's inner SELECT, so racing claimers take different jobs."""
    EXPLAIN: ClassVar[tuple[str, str]]
    """What asks the backend for a statement's plan, without running it, and the column
    each step of the plan comes back in."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of a table (its column names, then the rows), for copying a database."""

    @abstractmethod
    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert copied rows as they are, ids included, into an empty table."""

    @abstractmethod
    async def _migrate(self) -> None:
        """Bring the database to the newest schema."""

    @abstractmethod
    def _reader(self) -> Reader:
        """Where reads outside a transaction go: they see committed rows only, never those
        of a transaction still open (which may yet roll back)."""

    @abstractmethod
    def _writer(self) -> AbstractAsyncContextManager[Session]:
        """A session for one statement that writes, committed on its own."""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """A session whose statements commit together, or not at all if the block raises."""

    @abstractmethod
    async def _lock_match(self, db: Session, match_id: int) -> None:
        """Hold the match's row until the transaction ends."""

    @abstractmethod
    async def _lock_ratings(self, db: Session, guild_id: int, game: str) -> None:
        """Order the transactions that rewrite a game's standings on a server."""

    @abstractmethod
    async def _write_turns(self, write: TurnWrite) -> bool:
        """Log the turns and update the match in one statement, if the match is still at
        the expected ply; False, and nothing written, if not."""

    @abstractmethod
    async def watch_jobs(self, changed: Callable[[], None]) -> None:
        """Call `changed` whenever another process adds or moves jobs (`_jobs_changed`), so
        its scheduler looks again at once."""

    @abstractmethod
    async def _jobs_changed(self, db: Session) -> None:
        """Tell the processes watching (`watch_jobs`) that jobs were added or moved, with
        the statements that moved them."""

    async def _opened(self) -> Self:
        """This store, migrated; closed again if that fails, so no connection leaks."""
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise
        return self

    async def _value(self, sql: str, *params: Any) -> Any:
        """The first column of the first row, or None."""
        rows = await self._reader().fetch(sql, *params)
        return rows[0][0] if rows else None

    async def _once(self, sql: str, *params: Any) -> bool:
        """Run one guarded write on its own; whether it changed exactly one row (the
        guard in its WHERE makes a second, racing call change none)."""
        async with self._writer() as db:
            return await db.execute(sql, *params) == 1

    async def _ids(self, sql: str, *params: Any) -> list[int]:
        return [int(row[0]) for row in await self._reader().fetch(sql, *params)]

    async def _ids_on(self, sql: str, shards: Shards | None) -> list[int]:
        """The ids a query with one or more `{shards}` conditions finds on these shards."""
        condition, values = on_shards(shards)
        return await self._ids(sql.format(shards=condition), *values * sql.count("{shards}"))

    # -- measuring -----------------------------------------------------------------------

    async def explain(self, sql: str, *params: Any) -> list[str]:
        """How the backend would run a statement, a line per step (benchmarks.big_db)."""
        prefix, column = self.EXPLAIN
        return [str(row[column]) for row in await self._reader().fetch(f"{prefix} {sql}", *params)]

    async def analyze(self) -> None:
        """Refresh the planner's statistics, as after a bulk load (a write: it stores them)."""
        async with self._writer() as db:
            await db.fetch("ANALYZE")
