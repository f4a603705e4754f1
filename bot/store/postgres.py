"""PostgreSQL storage through an asyncpg pool, for several bot processes on one database.

The guarantees are the SQLite store's, made to hold across processes: a turn is one
statement whose `UPDATE ... WHERE ply = expected` decides the race (a loser blocks on the
row lock, then finds the ply moved on and writes nothing), a seat acceptance locks its match
row first, and a job claim locks the row it marks, so no two processes take the same job.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

import asyncpg

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

# Taken while migrating, so processes starting together migrate one after the other.
MIGRATION_LOCK = 0x626F617264  # "board"

SELECT_MATCH = """
    SELECT m.*, COALESCE((
        SELECT json_agg(json_build_array(seat, user_id, name, accepted, engine) ORDER BY seat)
        FROM seats WHERE match_id = m.id
    ), '[]')::text AS seats
    FROM matches m
"""

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


# Of the unclaimed jobs due by now, the earliest not being claimed by someone else this
# instant (SKIP LOCKED: racing claimers each get a different job, none waits), marked
# claimed in the same statement.
CLAIM_JOB = """
    UPDATE jobs SET claimed_by = $1, claimed_at = $2
    WHERE id = (
        SELECT id FROM jobs WHERE claimed_by IS NULL AND due_at <= $2
        ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id, match_id, kind, ply, due_at
"""

# Claims never finished: older than the lease, or this process's own (it restarted).
LOST_CLAIMS = "claimed_by IS NOT NULL AND done_at IS NULL AND (claimed_at <= $1 OR claimed_by = $2)"


def _affected(status: str) -> int:
    """The row count at the end of a command tag such as `INSERT 0 1` or `UPDATE 3`."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore:
    """Every call borrows a pooled connection; multi-statement writes run in a transaction."""

    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        store = cls(pool)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

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
        return int(await self._pool.fetchval("SELECT max(version) FROM schema_version") or 0)

    # -- reading -------------------------------------------------------------------------

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._pool.fetchrow(f"{SELECT_MATCH} WHERE m.id = $1", match_id)
        return None if row is None else match_row(row)

    async def match_in_thread(self, thread_id: int) -> int | None:
        found = await self._pool.fetchval(
            "SELECT id FROM matches WHERE thread_id = $1 ORDER BY id DESC LIMIT 1", thread_id
        )
        return None if found is None else int(found)

    async def matches_of(
        self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        query = (
            f"{SELECT_MATCH} JOIN seats mine ON mine.match_id = m.id "
            "WHERE mine.user_id = $1 AND m.status = ANY($2::text[])"
        )
        params: list[Any] = [user_id, list(statuses)]
        if guild_id is not None:
            query += " AND m.guild_id = $3"
            params.append(guild_id)
        query += " ORDER BY m.updated_at DESC, m.id DESC"
        found: list[MatchRow] = []
        broken: list[CorruptMatch] = []
        for row in await self._pool.fetch(query, *params):
            try:
                found.append(match_row(row))
            except CorruptMatch as error:
                broken.append(error)
        return found, broken

    async def match_ids(self) -> list[int]:
        return [int(r["id"]) for r in await self._pool.fetch("SELECT id FROM matches ORDER BY id")]

    async def unposted_boards(self) -> list[int]:
        return [int(r["id"]) for r in await self._pool.fetch(UNPOSTED)]

    async def matches_with_engines(self) -> list[int]:
        return [int(r["id"]) for r in await self._pool.fetch(WITH_ENGINES)]

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._pool.fetch(
            "SELECT ply, seat, notation, played_at FROM moves WHERE match_id = $1 ORDER BY ply",
            match_id,
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
        async with self._pool.acquire() as db, db.transaction():
            match_id = await db.fetchval(
                "INSERT INTO matches (guild_id, channel_id, game, variant, seed, status, "
                "snapshot, created_at, updated_at, days_per_move, rated) "
                "VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $7, $8, $9) RETURNING id",
                guild_id,
                channel_id,
                game,
                variant,
                seed,
                snapshot,
                created,
                days_per_move,
                int(rated),
            )
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, engine) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    (match_id, n, user, name, int(ok), engine)
                    for n, (user, name, ok, engine) in enumerate(seats, 1)
                ],
            )
        return int(match_id)

    async def update_match(
        self, match_id: int, expected_ply: int, *, expected_status: str | None = None, **fields: Any
    ) -> None:
        values = encode_fields(fields)
        params: list[Any] = [*values.values(), match_id, expected_ply]
        assignments = ", ".join(f"{key} = ${n}" for n, key in enumerate(values, start=1))
        query = f"UPDATE matches SET {assignments} WHERE id = ${len(values) + 1}"
        query += f" AND ply = ${len(values) + 2}"
        if expected_status is not None:
            params.append(expected_status)
            query += f" AND status = ${len(params)}"
        if _affected(await self._pool.execute(query, *params)) != 1:
            raise StaleWrite(f"match #{match_id} changed since it was read")

    async def accept_seat(self, match_id: int, seat: int) -> bool:
        """The match row is locked first: two last seats accepting at once in two processes
        would otherwise each see the other's seat unaccepted, and neither would start it."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
            answered = await db.execute(
                "UPDATE seats SET accepted = 1 WHERE match_id = $1 AND seat = $2 "
                "AND accepted = 0 AND (SELECT status FROM matches WHERE id = $1) = 'pending'",
                match_id,
                seat,
            )
            if _affected(answered) != 1:
                raise StaleWrite(f"seat {seat} of match #{match_id} already answered")
            started = await db.execute(
                "UPDATE matches SET status = 'active', updated_at = $2 WHERE id = $1 AND NOT "
                "EXISTS (SELECT 1 FROM seats WHERE match_id = $1 AND accepted = 0)",
                match_id,
                now(),
            )
            return _affected(started) == 1

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
        """One statement: the guarded UPDATE and the log INSERT stand or fall together."""
        played = now()
        plies = list(range(expected_ply + 1, expected_ply + len(moves) + 1))
        try:
            written = await self._pool.execute(
                APPEND_TURNS,
                match_id,
                expected_ply,
                expected_ply + len(moves),
                snapshot,
                status,
                None if outcome is None else json.dumps(outcome),
                draw_offer,
                played,
                plies,
                [seat for seat, _ in moves],
                [notation for _, notation in moves],
            )
        except asyncpg.UniqueViolationError as error:
            raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}") from error
        if _affected(written) != len(moves):
            raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
        return played

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
        async with self._pool.acquire() as db, db.transaction():
            rewound = await db.execute(
                "UPDATE matches SET ply = $1, snapshot = $2, status = $3, outcome = $4, "
                "draw_offer = NULL, updated_at = $5 WHERE id = $6 AND ply = $7",
                target_ply,
                snapshot,
                status,
                None if outcome is None else json.dumps(outcome),
                now(),
                match_id,
                expected_ply,
            )
            if _affected(rewound) != 1:
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
            await db.execute(
                "DELETE FROM moves WHERE match_id = $1 AND ply > $2", match_id, target_ply
            )
            await db.execute(
                "DELETE FROM jobs WHERE match_id = $1 AND ply >= $2", match_id, target_ply
            )
            await db.execute("DELETE FROM takeback_votes WHERE match_id = $1", match_id)

    # -- ratings ---------------------------------------------------------------------------

    async def rate_match(
        self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int], update: RatingUpdate
    ) -> bool:
        """The match's key decides who rates it (a second process blocks on the insert, then
        does nothing); an advisory lock per server and game orders the read-modify-write of
        standings, new players' rows included, which no row lock could cover."""
        stamped = now()
        async with self._pool.acquire() as db, db.transaction():
            claimed = await db.execute(
                "INSERT INTO rated_matches (match_id, rated_at) VALUES ($1, $2) "
                "ON CONFLICT DO NOTHING",
                match_id,
                stamped,
            )
            if _affected(claimed) != 1:
                return False
            await db.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1))", f"ratings:{guild_id}:{game}"
            )
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings "
                "WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
                guild_id,
                game,
                list(user_ids),
            )
            current = {standing.user_id: standing for standing in map(rating_row, rows)}
            await db.executemany(
                f"INSERT INTO ratings (guild_id, {RATING_COLUMNS}, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
                "ON CONFLICT (guild_id, game, user_id) "
                "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses, "
                "streak = excluded.streak, updated_at = excluded.updated_at",
                [(guild_id, *rating_values(r), stamped) for r in update(current)],
            )
            return True

    async def unrated_matches(self) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT id FROM matches WHERE status = 'finished' AND rated = 1 "
            "AND guild_id IS NOT NULL AND id NOT IN (SELECT match_id FROM rated_matches) "
            "ORDER BY updated_at, id"
        )
        return [int(r["id"]) for r in rows]

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        rows = await self._pool.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT $3",
            guild_id,
            game,
            limit,
        )
        return [rating_row(r) for r in rows]

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        row = await self._pool.fetchrow(
            f"SELECT {RATING_COLUMNS}, (SELECT count(*) FROM ratings better "
            "WHERE better.guild_id = mine.guild_id AND better.game = mine.game "
            "AND (better.mu - 3 * better.sigma) > (mine.mu - 3 * mine.sigma)) AS above "
            "FROM ratings mine WHERE guild_id = $1 AND game = $2 AND user_id = $3",
            guild_id,
            game,
            user_id,
        )
        return None if row is None else (int(row["above"]) + 1, rating_row(row))

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._pool.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id = $2 "
            "ORDER BY games DESC, game",
            guild_id,
            user_id,
        )
        return [rating_row(r) for r in rows]

    # -- scheduled jobs --------------------------------------------------------------------

    async def schedule(self, match_id: int, ply: int, jobs: Sequence[tuple[JobKind, int]]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "DELETE FROM jobs WHERE match_id = $1 AND ply < $2 AND claimed_by IS NULL",
                match_id,
                ply,
            )
            await db.executemany(
                "INSERT INTO jobs (match_id, kind, ply, due_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (match_id, kind, ply) DO NOTHING",
                [(match_id, str(kind), ply, due) for kind, due in jobs],
            )

    async def due_time(self, match_id: int, kind: JobKind, ply: int) -> int | None:
        due = await self._pool.fetchval(
            "SELECT due_at FROM jobs WHERE match_id = $1 AND kind = $2 AND ply = $3",
            match_id,
            str(kind),
            ply,
        )
        return None if due is None else int(due)

    async def next_due(self, lease: int) -> int | None:
        due = await self._pool.fetchval(
            "SELECT MIN(CASE WHEN claimed_by IS NULL THEN due_at ELSE claimed_at + $1 END) "
            "FROM jobs WHERE done_at IS NULL",
            lease,
        )
        return None if due is None else int(due)

    async def claim_job(self, owner: str, at: int) -> JobRow | None:
        row = await self._pool.fetchrow(CLAIM_JOB, owner, at)
        if row is None:
            return None
        return JobRow(int(row[0]), int(row[1]), JobKind(row[2]), int(row[3]), int(row[4]))

    async def finish_job(self, job_id: int, owner: str, at: int) -> None:
        await self._pool.execute(
            "UPDATE jobs SET done_at = $1 WHERE id = $2 AND claimed_by = $3 AND done_at IS NULL",
            at,
            job_id,
            owner,
        )

    async def recover_claims(
        self, retry: Sequence[JobKind], *, at: int, lease: int, owner: str | None = None
    ) -> int:
        async with self._pool.acquire() as db, db.transaction():
            released = await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_at = NULL "
                f"WHERE {LOST_CLAIMS} AND kind = ANY($3::text[])",
                at - lease,
                owner,
                [str(kind) for kind in retry],
            )
            dropped = await db.execute(
                f"UPDATE jobs SET done_at = $3 WHERE {LOST_CLAIMS}", at - lease, owner, at
            )
        return _affected(released) + _affected(dropped)

    async def unscheduled(self) -> list[int]:
        return [int(row[0]) for row in await self._pool.fetch(UNSCHEDULED_MATCHES)]

    # -- preferences and takeback votes ----------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow:
        row = await self._pool.fetchrow(
            "SELECT dm, dm_refused FROM preferences WHERE user_id = $1", user_id
        )
        return PreferenceRow() if row is None else PreferenceRow(bool(row[0]), bool(row[1]))

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        await self._pool.execute(
            "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
            "VALUES ($1, $2, 0, $3) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, "
            "dm_refused = 0, updated_at = excluded.updated_at",
            user_id,
            int(wanted),
            now(),
        )

    async def refuse_dm(self, user_id: int) -> bool:
        refused = await self._pool.execute(
            "UPDATE preferences SET dm_refused = 1, updated_at = $1 "
            "WHERE user_id = $2 AND dm_refused = 0",
            now(),
            user_id,
        )
        return _affected(refused) == 1

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "INSERT INTO takeback_votes (match_id, ply, seat) VALUES ($1, $2, $3) "
                "ON CONFLICT (match_id, ply, seat) DO NOTHING",
                match_id,
                ply,
                seat,
            )
            rows = await db.fetch(
                "SELECT seat FROM takeback_votes WHERE match_id = $1 AND ply = $2",
                match_id,
                ply,
            )
        return frozenset(int(row[0]) for row in rows)

    async def drop_takeback(self, match_id: int) -> None:
        await self._pool.execute("DELETE FROM takeback_votes WHERE match_id = $1", match_id)

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
