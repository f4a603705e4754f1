"""SQLite storage: one aiosqlite connection, migrations by `PRAGMA user_version`.

The move log is the truth; the snapshot on the match row only makes loading fast. Every
write that changes a match names the ply (log length) it expects, so of two moves sent at
once only the first can land.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")


class Status(StrEnum):
    """Where a match is in its life. Declared in lifecycle order: a match only moves forward
    (pending, then active or declined or withdrawn; active, then finished)."""

    PENDING = "pending"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"

    @property
    def phrase(self) -> str:
        """How a player is told the status: `this challenge is no longer open (declined)`."""
        if self is Status.PENDING:
            return "waiting for answers"
        if self is Status.ACTIVE:
            return "in progress"
        return self.value


class JobKind(StrEnum):
    """What a scheduled job does when it falls due (`jobs.kind`)."""

    REMINDER = "reminder"
    """A quarter of the player's time is left: remind them."""
    LAST_REMINDER = "last-reminder"
    """One hour is left: remind them again."""
    TIMEOUT = "timeout"
    """The deadline passed: the player to move loses on time."""
    EXPIRY = "expiry"
    """A challenge went unanswered too long: close it."""


MIGRATIONS: tuple[str, ...] = (
    f"""
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        challenge_message_id INTEGER,
        board_message_id INTEGER,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN {tuple(map(str, Status))!r}),
        ply INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT NOT NULL,
        outcome TEXT,
        draw_offer INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX matches_thread ON matches (thread_id);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        accepted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, seat),
        UNIQUE (match_id, user_id)
    );
    CREATE INDEX seats_user ON seats (user_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        played_at TEXT NOT NULL,
        UNIQUE (match_id, ply)
    );
    CREATE TABLE preferences (
        user_id INTEGER PRIMARY KEY,
        theme TEXT,
        updated_at TEXT NOT NULL
    );
    -- Writing a turn: one INSERT per turn into this view does the ply check, the log entry
    -- and the match update together (see Store.append_moves).
    CREATE VIEW turn_writes AS
        SELECT m.id AS match_id, mv.ply, mv.seat, mv.notation, mv.played_at,
               m.snapshot, m.status, m.outcome, m.draw_offer
        FROM matches m JOIN moves mv ON mv.match_id = m.id;
    CREATE TRIGGER turn_writes_insert INSTEAD OF INSERT ON turn_writes BEGIN
        SELECT RAISE(ABORT, 'stale write') WHERE NOT EXISTS (
            SELECT 1 FROM matches WHERE id = NEW.match_id AND ply = NEW.ply - 1
        );
        INSERT INTO moves (match_id, ply, seat, notation, played_at)
            VALUES (NEW.match_id, NEW.ply, NEW.seat, NEW.notation, NEW.played_at);
        UPDATE matches SET ply = NEW.ply, snapshot = NEW.snapshot, status = NEW.status,
            outcome = NEW.outcome, draw_offer = NEW.draw_offer, updated_at = NEW.played_at
            WHERE id = NEW.match_id;
    END;
    """,
    # Time limits, the scheduler's jobs, direct-message preferences and takeback votes.
    """
    ALTER TABLE matches ADD COLUMN days_per_move INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN expired_at INTEGER;
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        ply INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'due' CHECK (state IN ('due', 'claimed', 'done')),
        claimed_at INTEGER,
        done_at INTEGER,
        UNIQUE (match_id, kind, ply)
    );
    CREATE INDEX jobs_due ON jobs (state, due_at);
    ALTER TABLE preferences ADD COLUMN dm INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE preferences ADD COLUMN dm_refused INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE takeback_votes (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (match_id, ply, seat)
    );
    """,
)

# One row per match, its seats folded into a JSON array, so a load is a single query.
SELECT_MATCH = """
    SELECT m.*, (
        SELECT json_group_array(json_array(seat, user_id, name, accepted))
        FROM (SELECT * FROM seats WHERE match_id = m.id ORDER BY seat)
    ) AS seats
    FROM matches m
"""


UPDATABLE = frozenset(
    {"thread_id", "challenge_message_id", "board_message_id", "status", "ply", "snapshot"}
    | {"outcome", "draw_offer", "expired_at"}
)


class StoreError(Exception):
    """Base of the storage errors the service turns into messages."""


class StaleWrite(StoreError):
    """The match moved on since it was read: someone else's command landed first."""


class CorruptMatch(StoreError):
    """A match row that cannot be read; reported and skipped, never fatal."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    accepted: bool


@dataclass(frozen=True)
class MatchRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    challenge_message_id: int | None
    board_message_id: int | None
    game: str
    variant: str
    seed: int
    status: Status
    ply: int
    snapshot: str
    outcome: dict[str, Any] | None
    draw_offer: int | None
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...]
    days_per_move: int = 0  # 0: no time limit
    expired_at: int | None = None  # when an unanswered challenge expired


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    notation: str
    played_at: str


@dataclass(frozen=True)
class JobRow:
    id: int
    match_id: int
    kind: JobKind
    ply: int  # the match must still be at this ply for the job to act
    due_at: int


@dataclass(frozen=True)
class PreferenceRow:
    dm: bool = False
    dm_refused: bool = False


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _match_row(row: sqlite3.Row) -> MatchRow:
    """Decode one row; garbage becomes CorruptMatch naming the match (the snapshot is parsed
    later, by whoever needs the state, so that a cached state costs no JSON work)."""
    try:
        outcome = json.loads(row["outcome"]) if row["outcome"] is not None else None
        if not (outcome is None or isinstance(outcome, dict)):
            raise ValueError("the outcome must be a JSON object")
        return MatchRow(
            id=int(row["id"]),
            guild_id=row["guild_id"],
            channel_id=int(row["channel_id"]),
            thread_id=row["thread_id"],
            challenge_message_id=row["challenge_message_id"],
            board_message_id=row["board_message_id"],
            game=str(row["game"]),
            variant=str(row["variant"]),
            seed=int(row["seed"]),
            status=_status(row["status"]),
            ply=int(row["ply"]),
            snapshot=str(row["snapshot"]),
            outcome=outcome,
            draw_offer=row["draw_offer"],
            created_at=str(row["created_at"]),
            updated_at=str(row["updated_at"]),
            seats=tuple(
                SeatRow(int(seat), int(user), str(name), bool(accepted))
                for seat, user, name, accepted in json.loads(row["seats"])
            ),
            days_per_move=int(row["days_per_move"]),
            expired_at=row["expired_at"],
        )
    except (ValueError, TypeError, KeyError) as error:
        raise CorruptMatch(f"match #{row['id']} cannot be read: {error}") from error


def _status(stored: Any) -> Status:
    try:
        return Status(stored)
    except ValueError:
        raise ValueError(f"unknown status {stored!r}") from None


class Store:
    """All SQL lives here. One connection does everything; a lock keeps transactions whole."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Store:
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
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = int(row[0]) if row else 0
        if version > len(MIGRATIONS):
            raise StoreError(
                f"the database is at schema version {version}, newer than this bot "
                f"({len(MIGRATIONS)}); upgrade the bot"
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
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

    # -- reading -------------------------------------------------------------------------

    async def get_match(self, match_id: int) -> MatchRow | None:
        rows = await self._db.execute_fetchall(f"{SELECT_MATCH} WHERE m.id = ?", (match_id,))
        return next((_match_row(row) for row in rows), None)

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
                found.append(_match_row(row))
            except CorruptMatch as error:
                broken.append(error)
        return found, broken

    async def match_ids(self) -> list[int]:
        rows = await self._db.execute_fetchall("SELECT id FROM matches ORDER BY id")
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
        seats: Sequence[tuple[int, str, bool]],
        days_per_move: int = 0,
    ) -> int:
        """A pending challenge; seats are (user id, name, accepted) in turn order."""
        stamp = now()
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO matches (guild_id, channel_id, game, variant, seed, status, "
                "snapshot, created_at, updated_at, days_per_move) "
                "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)",
                (guild_id, channel_id, game, variant, seed, snapshot, stamp, stamp, days_per_move),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted) "
                "VALUES (?, ?, ?, ?, ?)",
                [(match_id, n, user, name, int(ok)) for n, (user, name, ok) in enumerate(seats, 1)],
            )
        return match_id

    async def update_match(
        self, match_id: int, expected_ply: int, *, expected_status: str | None = None, **fields: Any
    ) -> None:
        """Change match columns if the match is still at `expected_ply` (and status), else
        StaleWrite."""
        async with self._write:
            await self._update(match_id, expected_ply, fields, expected_status)

    async def accept_seat(self, match_id: int, seat: int) -> bool:
        """Mark one seat of a pending match accepted; the last acceptance starts the match in
        the same transaction. Returns whether it started."""
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
        """Log (seat, notation) turns after `expected_ply` with the match's new snapshot and
        fields, returning the time stamped on the match.

        One INSERT into the `turn_writes` view: its trigger checks the ply, logs the turn and
        updates the match, so the whole write is one statement (atomic, one thread hop).
        """
        stamp = now()
        encoded = None if outcome is None else json.dumps(outcome)
        rows = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in moves)
        params: list[Any] = []
        for number, (seat, notation) in enumerate(moves, start=expected_ply + 1):
            params += [match_id, number, seat, notation, stamp]
            params += [snapshot, status, encoded, draw_offer]
        async with self._write:
            try:
                await self._db.execute(f"INSERT INTO turn_writes VALUES {rows}", params)
            except sqlite3.IntegrityError as error:
                if "stale write" not in str(error) and "UNIQUE" not in str(error):
                    raise
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}") from error
        return stamp

    async def _update(
        self,
        match_id: int,
        expected_ply: int,
        fields: dict[str, Any],
        expected_status: str | None = None,
    ) -> None:
        """One UPDATE guarded by the ply (and status); the caller holds the write lock."""
        unknown = set(fields) - UPDATABLE
        if unknown:
            raise ValueError(f"not a match column one may update: {sorted(unknown)}")
        values = {
            key: json.dumps(value) if isinstance(value, dict) else value
            for key, value in fields.items()
        }
        values["updated_at"] = now()
        assignments = ", ".join(f"{key} = ?" for key in values)
        query = f"UPDATE matches SET {assignments} WHERE id = ? AND ply = ?"
        params: list[Any] = [*values.values(), match_id, expected_ply]
        if expected_status is not None:
            query += " AND status = ?"
            params.append(expected_status)
        cursor = await self._db.execute(query, params)
        if cursor.rowcount != 1:
            raise StaleWrite(f"match #{match_id} changed since it was read")

    # -- scheduled jobs --------------------------------------------------------------------

    async def schedule(self, match_id: int, ply: int, jobs: Sequence[tuple[JobKind, int]]) -> None:
        """Record (kind, due time) jobs for the match at this ply, once: scheduling again is a
        no-op, so the first call fixes the times. Due jobs of earlier plies go, unrun."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply < ? AND state = 'due'",
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

    async def next_due(self) -> int | None:
        """The earliest time a job falls due, if any job waits."""
        rows = list(
            await self._db.execute_fetchall("SELECT MIN(due_at) FROM jobs WHERE state = 'due'")
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def claim_job(self, at: int) -> JobRow | None:
        """Take the earliest job due by `at`, marking it claimed in the same statement, so
        that of several claimers exactly one gets it."""
        async with self._write:
            rows = list(
                await self._db.execute_fetchall(
                    "UPDATE jobs SET state = 'claimed', claimed_at = ? "
                    "WHERE state = 'due' AND id = (SELECT id FROM jobs "
                    "WHERE state = 'due' AND due_at <= ? ORDER BY due_at, id LIMIT 1) "
                    "RETURNING id, match_id, kind, ply, due_at",
                    (at, at),
                )
            )
        if not rows:
            return None
        row = rows[0]
        return JobRow(int(row[0]), int(row[1]), JobKind(row[2]), int(row[3]), int(row[4]))

    async def finish_job(self, job_id: int, at: int) -> None:
        async with self._write:
            await self._db.execute(
                "UPDATE jobs SET state = 'done', done_at = ? WHERE id = ?", (at, job_id)
            )

    async def recover_claims(self, retry: Sequence[JobKind]) -> None:
        """After a restart: jobs claimed but never finished run again if they are of a kind
        whose action is guarded (a ply-checked write); the rest count as done, since acting
        twice (a second reminder) is worse than not at all."""
        marks = ", ".join("?" for _ in retry)
        async with self._transaction() as db:
            await db.execute(
                f"UPDATE jobs SET state = 'due' WHERE state = 'claimed' AND kind IN ({marks})",
                [str(kind) for kind in retry],
            )
            await db.execute("UPDATE jobs SET state = 'done' WHERE state = 'claimed'")

    async def unscheduled(self) -> list[int]:
        """Matches that should have jobs and have none (a stop between a write and its
        scheduling): active ones with a time limit, and pending challenges."""
        rows = await self._db.execute_fetchall(
            "SELECT id FROM matches m WHERE (m.status = 'active' AND m.days_per_move > 0 "
            "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.match_id = m.id AND j.ply = m.ply "
            "AND j.kind = 'timeout')) OR (m.status = 'pending' AND NOT EXISTS "
            "(SELECT 1 FROM jobs j WHERE j.match_id = m.id AND j.kind = 'expiry')) ORDER BY id"
        )
        return [int(row[0]) for row in rows]

    # -- preferences -----------------------------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow:
        rows = list(
            await self._db.execute_fetchall(
                "SELECT dm, dm_refused FROM preferences WHERE user_id = ?", (user_id,)
            )
        )
        return PreferenceRow(bool(rows[0][0]), bool(rows[0][1])) if rows else PreferenceRow()

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        """Choose direct messages on or off; either way, forget an earlier refusal."""
        async with self._write:
            await self._db.execute(
                "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
                "VALUES (?, ?, 0, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, "
                "dm_refused = 0, updated_at = excluded.updated_at",
                (user_id, int(wanted), now()),
            )

    async def refuse_dm(self, user_id: int) -> bool:
        """Remember that Discord refused a DM to this user; True the first time only."""
        async with self._write:
            cursor = await self._db.execute(
                "UPDATE preferences SET dm_refused = 1, updated_at = ? "
                "WHERE user_id = ? AND dm_refused = 0",
                (now(), user_id),
            )
            return cursor.rowcount == 1

    # -- takebacks -------------------------------------------------------------------------

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        """Record one seat's agreement to take back the turn that led to `ply`; returns
        every seat agreed so far."""
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
        """Undo the turns after `target_ply` in one transaction: the log loses them, the match
        gets the earlier snapshot, and jobs and votes from those plies go. StaleWrite if the
        match is no longer at `expected_ply`."""
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
