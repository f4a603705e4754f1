"""SQLite storage, the embedded default: one aiosqlite connection, the schema version in
`PRAGMA user_version`.

The move log is the truth; the snapshot on the match row only makes loading fast. Every
write that changes a match names the ply (log length) it expects, so of two moves sent at
once only the first can land, even from two processes sharing the file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import (
    ORDINAL,
    RATING_COLUMNS,
    UNPOSTED,
    UNSCHEDULED_MATCHES,
    WITH_ENGINES,
    CorruptMatch,
    JobKind,
    JobRow,
    MatchRow,
    MoveRow,
    PreferenceRow,
    RatingRow,
    RatingUpdate,
    StaleWrite,
    encode_fields,
    match_row,
    now,
    rating_row,
    rating_values,
)
from bot.store.migrations import pending

log = logging.getLogger(__name__)

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")

# One row per match, its seats folded into a JSON array, so a load is a single query.
SELECT_MATCH = """
    SELECT m.*, (
        SELECT json_group_array(json_array(seat, user_id, name, accepted, engine))
        FROM (SELECT * FROM seats WHERE match_id = m.id ORDER BY seat)
    ) AS seats
    FROM matches m
"""

# Of the unclaimed jobs due by now, the earliest; marked claimed in the same statement.
CLAIM_JOB = """
    UPDATE jobs SET claimed_by = ?, claimed_at = ?
    WHERE id = (
        SELECT id FROM jobs WHERE claimed_by IS NULL AND due_at <= ? ORDER BY due_at, id LIMIT 1
    )
    RETURNING id, match_id, kind, ply, due_at
"""

# Claims never finished: older than the lease, or this process's own (it restarted).
LOST_CLAIMS = "claimed_by IS NOT NULL AND done_at IS NULL AND (claimed_at <= ? OR claimed_by = ?)"

NEXT_DUE = """
    SELECT MIN(CASE WHEN claimed_by IS NULL THEN due_at ELSE claimed_at + ? END)
    FROM jobs WHERE done_at IS NULL
"""


class SqliteStore:
    """One connection does everything; a lock keeps transactions whole."""

    backend = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        store = cls(db)
        try:
            for pragma in PRAGMAS:
                await db.execute(f"PRAGMA {pragma}")
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        for number, script in pending(await self.schema_version(), self.backend):
            log.info("migrating the database to schema version %d", number)
            await self._db.executescript(
                f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
            )

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.rollback()
                raise
            await self._db.commit()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # -- reading -------------------------------------------------------------------------

    async def get_match(self, match_id: int) -> MatchRow | None:
        rows = await self._db.execute_fetchall(f"{SELECT_MATCH} WHERE m.id = ?", (match_id,))
        return next((match_row(row) for row in rows), None)

    async def match_in_thread(self, thread_id: int) -> int | None:
        """The id of the match played in this thread, if any."""
        rows = list(
            await self._db.execute_fetchall(
                "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                (thread_id,),
            )
        )
        return int(rows[0]["id"]) if rows else None

    async def matches_of(
        self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        """A user's matches in the given statuses; unreadable ones come back as errors."""
        marks = ", ".join("?" for _ in statuses)
        query = (
            f"{SELECT_MATCH} JOIN seats mine ON mine.match_id = m.id "
            f"WHERE mine.user_id = ? AND m.status IN ({marks})"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            query += " AND m.guild_id = ?"
            params.append(guild_id)
        query += " ORDER BY m.updated_at DESC, m.id DESC"
        found: list[MatchRow] = []
        broken: list[CorruptMatch] = []
        for row in await self._db.execute_fetchall(query, params):
            try:
                found.append(match_row(row))
            except CorruptMatch as error:
                broken.append(error)
        return found, broken

    async def match_ids(self) -> list[int]:
        rows = await self._db.execute_fetchall("SELECT id FROM matches ORDER BY id")
        return [int(r["id"]) for r in rows]

    async def unposted_boards(self) -> list[int]:
        rows = await self._db.execute_fetchall(UNPOSTED)
        return [int(r["id"]) for r in rows]

    async def matches_with_engines(self) -> list[int]:
        rows = await self._db.execute_fetchall(WITH_ENGINES)
        return [int(r["id"]) for r in rows]

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._db.execute_fetchall(
            "SELECT ply, seat, notation, played_at FROM moves WHERE match_id = ? ORDER BY ply",
            (match_id,),
        )
        return [MoveRow(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    # -- writing -------------------------------------------------------------------------

    async def create_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        variant: str,
        seed: int,
        snapshot: str,
        seats: Sequence[tuple[int, str, bool, int | None]],
        days_per_move: int = 0,
        rated: bool = True,
    ) -> int:
        created = now()
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO matches (guild_id, channel_id, game, variant, seed, status, "
                "snapshot, created_at, updated_at, days_per_move, rated) "
                "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    variant,
                    seed,
                    snapshot,
                    created,
                    created,
                    days_per_move,
                    int(rated),
                ),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, engine) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (match_id, n, user, name, int(ok), engine)
                    for n, (user, name, ok, engine) in enumerate(seats, 1)
                ],
            )
        return match_id

    async def update_match(
        self, match_id: int, expected_ply: int, *, expected_status: str | None = None, **fields: Any
    ) -> None:
        async with self._write:
            await self._update(match_id, expected_ply, fields, expected_status)

    async def accept_seat(self, match_id: int, seat: int) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE seats SET accepted = 1 WHERE match_id = ? AND seat = ? AND accepted = 0 "
                "AND (SELECT status FROM matches WHERE id = ?) = 'pending'",
                (match_id, seat, match_id),
            )
            if cursor.rowcount != 1:
                raise StaleWrite(f"seat {seat} of match #{match_id} already answered")
            cursor = await db.execute(
                "UPDATE matches SET status = 'active', updated_at = ? WHERE id = ? AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE match_id = ? AND accepted = 0)",
                (now(), match_id, match_id),
            )
            return cursor.rowcount == 1

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[tuple[int, str]],
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
        draw_offer: int | None,
    ) -> str:
        """One INSERT into the `turn_writes` view: its trigger checks the ply, logs the turn and
        updates the match, so the whole write is one statement (atomic, one thread hop).
        """
        played = now()
        encoded = None if outcome is None else json.dumps(outcome)
        rows = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in moves)
        params: list[Any] = []
        for number, (seat, notation) in enumerate(moves, start=expected_ply + 1):
            params += [match_id, number, seat, notation, played]
            params += [snapshot, status, encoded, draw_offer]
        async with self._write:
            try:
                await self._db.execute(f"INSERT INTO turn_writes VALUES {rows}", params)
            except sqlite3.IntegrityError as error:
                if "stale write" not in str(error) and "UNIQUE" not in str(error):
                    raise
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}") from error
        return played

    async def _update(
        self,
        match_id: int,
        expected_ply: int,
        fields: dict[str, Any],
        expected_status: str | None = None,
    ) -> None:
        """One UPDATE guarded by the ply (and status); the caller holds the write lock."""
        values = encode_fields(fields)
        assignments = ", ".join(f"{key} = ?" for key in values)
        query = f"UPDATE matches SET {assignments} WHERE id = ? AND ply = ?"
        params: list[Any] = [*values.values(), match_id, expected_ply]
        if expected_status is not None:
            query += " AND status = ?"
            params.append(expected_status)
        cursor = await self._db.execute(query, params)
        if cursor.rowcount != 1:
            raise StaleWrite(f"match #{match_id} changed since it was read")

    async def rewind(
        self,
        match_id: int,
        expected_ply: int,
        target_ply: int,
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
    ) -> None:
        encoded = None if outcome is None else json.dumps(outcome)
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, status = ?, outcome = ?, "
                "draw_offer = NULL, updated_at = ? WHERE id = ? AND ply = ?",
                (target_ply, snapshot, status, encoded, now(), match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
            await db.execute(
                "DELETE FROM moves WHERE match_id = ? AND ply > ?", (match_id, target_ply)
            )
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply >= ?", (match_id, target_ply)
            )
            await db.execute("DELETE FROM takeback_votes WHERE match_id = ?", (match_id,))

    # -- ratings ---------------------------------------------------------------------------

    async def rate_match(
        self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int], update: RatingUpdate
    ) -> bool:
        """BEGIN IMMEDIATE holds the database's write lock from the first read, so the
        standings `update` sees cannot change before its result is written."""
        stamped = now()
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO rated_matches (match_id, rated_at) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                (match_id, stamped),
            )
            if cursor.rowcount != 1:
                return False
            marks = ", ".join("?" for _ in user_ids)
            rows = await db.execute_fetchall(
                f"SELECT {RATING_COLUMNS} FROM ratings "
                f"WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                (guild_id, game, *user_ids),
            )
            current = {standing.user_id: standing for standing in map(rating_row, rows)}
            await db.executemany(
                f"INSERT INTO ratings (guild_id, {RATING_COLUMNS}, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) "
                "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses, "
                "streak = excluded.streak, updated_at = excluded.updated_at",
                [(guild_id, *rating_values(r), stamped) for r in update(current)],
            )
            return True

    async def unrated_matches(self) -> list[int]:
        rows = await self._db.execute_fetchall(
            "SELECT id FROM matches WHERE status = 'finished' AND rated = 1 "
            "AND guild_id IS NOT NULL AND id NOT IN (SELECT match_id FROM rated_matches) "
            "ORDER BY updated_at, id"
        )
        return [int(r["id"]) for r in rows]

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        rows = await self._db.execute_fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        )
        return [rating_row(r) for r in rows]

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        rows = list(
            await self._db.execute_fetchall(
                f"SELECT {RATING_COLUMNS}, (SELECT count(*) FROM ratings better "
                f"WHERE better.guild_id = mine.guild_id AND better.game = mine.game "
                f"AND (better.mu - 3 * better.sigma) > (mine.mu - 3 * mine.sigma)) AS above "
                "FROM ratings mine WHERE guild_id = ? AND game = ? AND user_id = ?",
                (guild_id, game, user_id),
            )
        )
        return (int(rows[0]["above"]) + 1, rating_row(rows[0])) if rows else None

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._db.execute_fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY games DESC, game",
            (guild_id, user_id),
        )
        return [rating_row(r) for r in rows]

    # -- scheduled jobs --------------------------------------------------------------------

    async def schedule(self, match_id: int, ply: int, jobs: Sequence[tuple[JobKind, int]]) -> None:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply < ? AND claimed_by IS NULL",
                (match_id, ply),
            )
            await db.executemany(
                "INSERT INTO jobs (match_id, kind, ply, due_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, kind, ply) DO NOTHING",
                [(match_id, str(kind), ply, due) for kind, due in jobs],
            )

    async def due_time(self, match_id: int, kind: JobKind, ply: int) -> int | None:
        rows = list(
            await self._db.execute_fetchall(
                "SELECT due_at FROM jobs WHERE match_id = ? AND kind = ? AND ply = ?",
                (match_id, str(kind), ply),
            )
        )
        return int(rows[0][0]) if rows else None

    async def next_due(self, lease: int) -> int | None:
        rows = list(await self._db.execute_fetchall(NEXT_DUE, (lease,)))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def claim_job(self, owner: str, at: int) -> JobRow | None:
        """One UPDATE picks and marks the job; SQLite runs one writer at a time, across
        processes too, so no two claimers can pick the same row."""
        async with self._write:
            rows = list(await self._db.execute_fetchall(CLAIM_JOB, (owner, at, at)))
        if not rows:
            return None
        row = rows[0]
        return JobRow(int(row[0]), int(row[1]), JobKind(row[2]), int(row[3]), int(row[4]))

    async def finish_job(self, job_id: int, owner: str, at: int) -> None:
        async with self._write:
            await self._db.execute(
                "UPDATE jobs SET done_at = ? WHERE id = ? AND claimed_by = ? AND done_at IS NULL",
                (at, job_id, owner),
            )

    async def recover_claims(
        self, retry: Sequence[JobKind], *, at: int, lease: int, owner: str | None = None
    ) -> int:
        marks = ", ".join("?" for _ in retry)
        async with self._transaction() as db:
            released = await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_at = NULL "
                f"WHERE {LOST_CLAIMS} AND kind IN ({marks})",
                [at - lease, owner, *map(str, retry)],
            )
            dropped = await db.execute(
                f"UPDATE jobs SET done_at = ? WHERE {LOST_CLAIMS}", (at, at - lease, owner)
            )
        return released.rowcount + dropped.rowcount

    async def unscheduled(self) -> list[int]:
        rows = await self._db.execute_fetchall(UNSCHEDULED_MATCHES)
        return [int(row[0]) for row in rows]

    # -- preferences and takeback votes ----------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow:
        rows = list(
            await self._db.execute_fetchall(
                "SELECT dm, dm_refused FROM preferences WHERE user_id = ?", (user_id,)
            )
        )
        return PreferenceRow(bool(rows[0][0]), bool(rows[0][1])) if rows else PreferenceRow()

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        async with self._write:
            await self._db.execute(
                "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
                "VALUES (?, ?, 0, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, "
                "dm_refused = 0, updated_at = excluded.updated_at",
                (user_id, int(wanted), now()),
            )

    async def refuse_dm(self, user_id: int) -> bool:
        async with self._write:
            cursor = await self._db.execute(
                "UPDATE preferences SET dm_refused = 1, updated_at = ? "
                "WHERE user_id = ? AND dm_refused = 0",
                (now(), user_id),
            )
            return cursor.rowcount == 1

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO takeback_votes (match_id, ply, seat) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, ply, seat) DO NOTHING",
                (match_id, ply, seat),
            )
            rows = await db.execute_fetchall(
                "SELECT seat FROM takeback_votes WHERE match_id = ? AND ply = ?", (match_id, ply)
            )
        return frozenset(int(row[0]) for row in rows)

    async def drop_takeback(self, match_id: int) -> None:
        async with self._write:
            await self._db.execute("DELETE FROM takeback_votes WHERE match_id = ?", (match_id,))

    # -- copying ---------------------------------------------------------------------------

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        async with self._db.execute(f"SELECT * FROM {table}") as cursor:
            columns = [column[0] for column in cursor.description]
            rows = [tuple(row) for row in await cursor.fetchall()]
        return columns, rows

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        async with self._transaction() as db:
            await db.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
            )
