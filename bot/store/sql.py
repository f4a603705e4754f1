"""Every query both backends run, written once with `?` placeholders, and the store logic
around them.

`SqlStore` is the whole `Store` but for what truly differs, which each backend supplies:
its connections and transactions (`Session`s), the one-statement turn write, the words for
folding seats into JSON and for skipping locked jobs, the row locks SQLite does not need,
migrating and copying. PostgreSQL translates `?` to `$n` in one place (its `Session`).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, NamedTuple, Protocol, Self

from bot.store.base import (
    AnalysisRow,
    BoardRow,
    CorruptMatch,
    EntrantRow,
    JobKind,
    JobRow,
    MatchRow,
    MoveRow,
    PreferenceRow,
    PremoveRow,
    RatingRow,
    RatingUpdate,
    Row,
    ServerRow,
    Shards,
    Stage,
    StaleWrite,
    TournamentRow,
    VacationRow,
    board_row,
    encode_fields,
    match_row,
    now,
    rating_row,
    rating_values,
    tournament_row,
)

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, creator_id, game, variant, system, rounds, days_per_move, "
    "max_players, rated, double_round, stage, round, entry_message_id, created_at"
)
BOARD_COLUMNS = "round, board, first_id, second_id, match_id, points"

RATING_COLUMNS = "game, user_id, mu, sigma, games, wins, draws, losses, streak"

ORDINAL = "(mu - 3 * sigma)"  # RatingRow.ordinal, in SQL

# Each query below that a process runs for its own shards has a `{shards}` condition on
# its match's server (see `on_shards`), and a partial index it reads in place of the table.

# Matches that should have jobs and have none: started ones with a time limit and no
# timeout at their ply, open challenges with no expiry.
UNSCHEDULED_MATCHES = """
    SELECT id FROM matches m
    WHERE m.status = 'active' AND m.days_per_move > 0 AND {shards} AND NOT EXISTS (
        SELECT 1 FROM jobs j WHERE j.match_id = m.id AND j.kind = 'timeout' AND j.ply = m.ply
    )
    UNION ALL
    SELECT id FROM matches m
    WHERE m.status = 'pending' AND {shards} AND NOT EXISTS (
        SELECT 1 FROM jobs j WHERE j.match_id = m.id AND j.kind = 'expiry'
    )
    ORDER BY id
"""

# Started matches whose latest turn was saved but not shown (index `matches_unposted`).
UNPOSTED = """
    SELECT id FROM matches m
    WHERE status IN ('active', 'finished') AND (board_ply IS NULL OR board_ply < ply)
        AND {shards}
    ORDER BY id
"""

# Analyses a stopped process left incomplete, oldest first (few rows: no index needed).
UNFINISHED_ANALYSES = """
    SELECT a.match_id FROM analyses a JOIN matches m ON m.id = a.match_id
    WHERE a.finished_at IS NULL AND {shards}
    ORDER BY a.created_at, a.match_id
"""

# Matches in progress where the computer holds a seat (index `matches_active`).
WITH_ENGINES = """
    SELECT id FROM matches m
    WHERE m.status = 'active' AND {shards} AND EXISTS (
        SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.engine IS NOT NULL
    )
    ORDER BY id
"""

# Finished rated matches not yet counted (index `matches_unrated`; counting sets rated = 2).
UNRATED = """
    SELECT id FROM matches m
    WHERE status = 'finished' AND rated = 1 AND guild_id IS NOT NULL AND {shards}
        AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id)
    ORDER BY updated_at, id
"""

# A job's server, for `{shards}` over the jobs table.
JOB_GUILD = "(SELECT guild_id FROM matches WHERE matches.id = jobs.match_id)"

# Of the unclaimed jobs due by now, the earliest, marked claimed in the same statement;
# `{lock}` is the backend's CLAIM_LOCK. The inner SELECT reads index `jobs_claimable`
# (its WHERE repeats the index's), earliest first, and stops at the first of its shards.
CLAIM_JOB = """
    UPDATE jobs SET claimed_by = ?, claimed_at = ?
    WHERE id = (
        SELECT id FROM jobs
        WHERE claimed_by IS NULL AND done_at IS NULL AND due_at <= ? AND {shards}
        ORDER BY due_at, id LIMIT 1 {lock}
    )
    RETURNING id, match_id, kind, ply, due_at
"""

# The earliest unclaimed due time and the oldest running claim, each the first entry of its
# index (`jobs_claimable`, `jobs_claimed`) on these shards.
NEXT_DUE = """
    SELECT (
        SELECT due_at FROM jobs WHERE claimed_by IS NULL AND done_at IS NULL AND {shards}
        ORDER BY due_at LIMIT 1
    ), (
        SELECT claimed_at FROM jobs WHERE claimed_by IS NOT NULL AND done_at IS NULL
            AND {shards}
        ORDER BY claimed_at LIMIT 1
    )
"""

# Claims never finished: older than the lease, or this process's own (it restarted).
LOST_CLAIMS = (
    "claimed_by IS NOT NULL AND done_at IS NULL AND (claimed_at <= ? OR claimed_by = ?) "
    "AND {shards}"
)

# A user's finished matches, newest first; `{game}` narrows them to one game or none.
HISTORY = """
    JOIN seats mine ON mine.match_id = m.id
    WHERE mine.user_id = ? AND m.status = 'finished' AND {guild} AND {game}
"""

UPSERT_RATING = f"""
    INSERT INTO ratings (guild_id, {RATING_COLUMNS}, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id)
    DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,
        wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
        streak = excluded.streak, updated_at = excluded.updated_at
"""


def on_shards(shards: Shards | None, guild: str = "m.guild_id") -> tuple[str, list[Any]]:
    """A condition, and its values: the server `guild` (an SQL expression) is on one of
    these shards (Discord's formula, direct messages on shard 0). Every match passes when
    `shards` is None (one process runs them all)."""
    if shards is None:
        return "1 = 1", []
    return (
        f"(COALESCE({guild}, 0) >> 22) % ? IN ({marks(len(shards.ids))})",
        [shards.count, *shards.ids],
    )


VACATION_COLUMNS = "id, user_id, started_at, ends_at"

# The jobs of a player's clock, which a vacation puts off.
CLOCK_JOBS = str(tuple(map(str, (JobKind.REMINDER, JobKind.LAST_REMINDER, JobKind.TIMEOUT))))


def _vacation(row: Row) -> VacationRow:
    return VacationRow(int(row[0]), int(row[1]), int(row[2]), int(row[3]))


def _decoded(rows: Sequence[Row]) -> tuple[list[MatchRow], list[CorruptMatch]]:
    """Match rows decoded; unreadable ones come back as errors instead."""
    found: list[MatchRow] = []
    broken: list[CorruptMatch] = []
    for row in rows:
        try:
            found.append(match_row(row))
        except CorruptMatch as error:
            broken.append(error)
    return found, broken


def marks(count: int) -> str:
    """Placeholders for an IN list of `count` values; NULL, which matches nothing, for none
    (PostgreSQL refuses an empty `IN ()`)."""
    return ", ".join(["?"] * count) or "NULL"


class Session(Protocol):
    """A connection as the shared queries use it: `?` placeholders, values in order."""

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]: ...

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


class SqlStore(ABC):
    """The `Store` on any SQL backend; see the module's docstring for what a backend adds."""

    backend: str  # "sqlite" or "postgresql", for messages
    shared: bool
    """Whether other processes may write this database (see `Store.shared`)."""
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
    async def _migrate(self) -> None:
        """Bring the database to the newest schema."""

    async def _opened(self) -> Self:
        """This store, migrated; closed again if that fails, so no connection leaks."""
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise
        return self

    @abstractmethod
    def _reader(self) -> Session:
        """Where reads outside a transaction go."""

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
        """Refresh the planner's statistics, as after a bulk load."""
        await self._reader().fetch("ANALYZE")

    # -- reading -------------------------------------------------------------------------

    def _select_match(self, where: str) -> str:
        return f"SELECT m.*, {self.SEATS} AS seats FROM matches m {where}"

    async def get_match(self, match_id: int) -> MatchRow | None:
        rows = await self._reader().fetch(self._select_match("WHERE m.id = ?"), match_id)
        return match_row(rows[0]) if rows else None

    async def match_in_thread(self, thread_id: int) -> int | None:
        found = await self._value(
            "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1", thread_id
        )
        return None if found is None else int(found)

    async def matches_of(
        self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        where = (
            "JOIN seats mine ON mine.match_id = m.id "
            f"WHERE mine.user_id = ? AND m.status IN ({marks(len(statuses))})"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            where += " AND m.guild_id = ?"
            params.append(guild_id)
        where += " ORDER BY m.updated_at DESC, m.id DESC"
        return _decoded(await self._reader().fetch(self._select_match(where), *params))

    async def server_matches(
        self, guild_id: int, statuses: Sequence[str], limit: int
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        where = (
            f"WHERE m.guild_id = ? AND m.status IN ({marks(len(statuses))}) "
            "ORDER BY m.updated_at DESC, m.id DESC LIMIT ?"
        )
        return _decoded(
            await self._reader().fetch(self._select_match(where), guild_id, *statuses, limit)
        )

    async def match_ids(self) -> list[int]:
        return await self._ids("SELECT id FROM matches ORDER BY id")

    async def history(
        self, user_id: int, guild_id: int | None, game: str | None, *, limit: int, offset: int
    ) -> tuple[list[MatchRow], list[CorruptMatch], int]:
        where, params = self._history_where(user_id, guild_id, game)
        rows = await self._reader().fetch(
            self._select_match(f"{where} ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?"),
            *params,
            limit,
            offset,
        )
        total = await self._value(f"SELECT count(*) FROM matches m {where}", *params)
        found, broken = _decoded(rows)
        return found, broken, int(total)

    @staticmethod
    def _history_where(
        user_id: int, guild_id: int | None, game: str | None
    ) -> tuple[str, list[Any]]:
        params: list[Any] = [user_id]
        guild = "1 = 1" if guild_id is None else "m.guild_id = ?"
        params += [] if guild_id is None else [guild_id]
        narrowed = "1 = 1" if game is None else "m.game = ?"
        params += [] if game is None else [game]
        return HISTORY.format(guild=guild, game=narrowed), params

    async def unposted_boards(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(UNPOSTED, shards)

    async def matches_with_engines(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(WITH_ENGINES, shards)

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._reader().fetch(
            "SELECT ply, seat, notation, played_at FROM moves WHERE match_id = ? ORDER BY ply",
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
        challenger: int = 1,
        rematch_of: int | None = None,
    ) -> int:
        created = now()
        async with self._transaction() as db:
            (row,) = await db.fetch(
                "INSERT INTO matches (guild_id, channel_id, game, variant, seed, status, "
                "snapshot, created_at, updated_at, days_per_move, rated, challenger, rematch_of) "
                "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                challenger,
                rematch_of,
            )
            match_id = int(row[0])
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
        values = encode_fields(fields)
        assignments = ", ".join(f"{key} = ?" for key in values)
        query = f"UPDATE matches SET {assignments} WHERE id = ? AND ply = ?"
        params: list[Any] = [*values.values(), match_id, expected_ply]
        if expected_status is not None:
            query += " AND status = ?"
            params.append(expected_status)
        async with self._writer() as db:
            if await db.execute(query, *params) != 1:
                raise StaleWrite(f"match #{match_id} changed since it was read")

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
        played = now()
        write = TurnWrite(
            match_id,
            expected_ply,
            [(ply, seat, notation) for ply, (seat, notation) in enumerate(moves, expected_ply + 1)],
            snapshot,
            status,
            None if outcome is None else json.dumps(outcome),
            draw_offer,
            played,
        )
        if not await self._write_turns(write):
            raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
        return played

    async def accept_seat(
        self, match_id: int, seat: int, taker: tuple[int, str] | None = None
    ) -> bool:
        """The match row is locked first: two last seats accepting at once in two processes
        would otherwise each see the other's seat unaccepted, and neither would start it."""
        user_id, name = taker or (None, None)
        async with self._transaction() as db:
            await self._lock_match(db, match_id)
            answered = await db.execute(
                "UPDATE seats SET accepted = 1, user_id = COALESCE(?, user_id), "
                "name = COALESCE(?, name) WHERE match_id = ? AND seat = ? AND accepted = 0 "
                "AND (SELECT status FROM matches WHERE id = ?) = 'pending'",
                user_id,
                name,
                match_id,
                seat,
                match_id,
            )
            if answered != 1:
                raise StaleWrite(f"seat {seat} of match #{match_id} already answered")
            started = await db.execute(
                "UPDATE matches SET status = 'active', updated_at = ? WHERE id = ? AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE match_id = ? AND accepted = 0)",
                now(),
                match_id,
                match_id,
            )
            return started == 1

    async def rematch(self, match_id: int) -> int | None:
        found = await self._value(
            "SELECT id FROM matches WHERE rematch_of = ? ORDER BY id DESC LIMIT 1", match_id
        )
        return None if found is None else int(found)

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
            rewound = await db.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, status = ?, outcome = ?, "
                "draw_offer = NULL, updated_at = ? WHERE id = ? AND ply = ?",
                target_ply,
                snapshot,
                status,
                encoded,
                now(),
                match_id,
                expected_ply,
            )
            if rewound != 1:
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
            await db.execute(
                "DELETE FROM moves WHERE match_id = ? AND ply > ?", match_id, target_ply
            )
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply >= ?", match_id, target_ply
            )
            await db.execute("DELETE FROM takeback_votes WHERE match_id = ?", match_id)
            await db.execute("DELETE FROM premoves WHERE match_id = ?", match_id)

    # -- ratings ---------------------------------------------------------------------------

    async def rate_match(
        self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int], update: RatingUpdate
    ) -> bool:
        """The match's key decides who rates it (a second transaction blocks on the insert,
        then does nothing); `_lock_ratings` keeps the standings `update` reads from changing
        before its result is written."""
        stamped = now()
        async with self._transaction() as db:
            claimed = await db.execute(
                "INSERT INTO rated_matches (match_id, rated_at) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                match_id,
                stamped,
            )
            if claimed != 1:
                return False
            await db.execute("UPDATE matches SET rated = 2 WHERE id = ?", match_id)
            await self._lock_ratings(db, guild_id, game)
            rows = await db.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings "
                f"WHERE guild_id = ? AND game = ? AND user_id IN ({marks(len(user_ids))})",
                guild_id,
                game,
                *user_ids,
            )
            current = {standing.user_id: standing for standing in map(rating_row, rows)}
            await db.executemany(
                UPSERT_RATING, [(guild_id, *rating_values(r), stamped) for r in update(current)]
            )
            return True

    async def unrated_matches(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(UNRATED, shards)

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT ?",
            guild_id,
            game,
            limit,
        )
        return [rating_row(r) for r in rows]

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS}, (SELECT count(*) FROM ratings better "
            "WHERE better.guild_id = mine.guild_id AND better.game = mine.game "
            "AND (better.mu - 3 * better.sigma) > (mine.mu - 3 * mine.sigma)) AS above "
            "FROM ratings mine WHERE guild_id = ? AND game = ? AND user_id = ?",
            guild_id,
            game,
            user_id,
        )
        return (int(rows[0]["above"]) + 1, rating_row(rows[0])) if rows else None

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY games DESC, game",
            guild_id,
            user_id,
        )
        return [rating_row(r) for r in rows]

    # -- scheduled jobs --------------------------------------------------------------------

    async def schedule(
        self,
        match_id: int,
        ply: int,
        jobs: Sequence[tuple[JobKind, int]],
        vacation_id: int | None = None,
    ) -> None:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply < ? AND claimed_by IS NULL",
                match_id,
                ply,
            )
            await db.executemany(
                "INSERT INTO jobs (match_id, kind, ply, due_at, vacation_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, kind, ply) DO NOTHING",
                [(match_id, str(kind), ply, due, vacation_id) for kind, due in jobs],
            )

    async def due_time(self, match_id: int, kind: JobKind, ply: int) -> int | None:
        due = await self._value(
            "SELECT due_at FROM jobs WHERE match_id = ? AND kind = ? AND ply = ?",
            match_id,
            str(kind),
            ply,
        )
        return None if due is None else int(due)

    async def next_due(self, lease: int, shards: Shards | None = None) -> int | None:
        condition, values = on_shards(shards, JOB_GUILD)
        rows = await self._reader().fetch(NEXT_DUE.format(shards=condition), *values, *values)
        due, claimed = rows[0][0], rows[0][1]
        times = [int(due)] if due is not None else []
        times += [int(claimed) + lease] if claimed is not None else []
        return min(times, default=None)

    async def claim_job(self, owner: str, at: int, shards: Shards | None = None) -> JobRow | None:
        condition, values = on_shards(shards, JOB_GUILD)
        query = CLAIM_JOB.format(lock=self.CLAIM_LOCK, shards=condition)
        async with self._writer() as db:
            rows = await db.fetch(query, owner, at, at, *values)
        if not rows:
            return None
        row = rows[0]
        return JobRow(int(row[0]), int(row[1]), JobKind(row[2]), int(row[3]), int(row[4]))

    async def finish_job(self, job_id: int, owner: str, at: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE jobs SET done_at = ? WHERE id = ? AND claimed_by = ? AND done_at IS NULL",
                at,
                job_id,
                owner,
            )

    async def renew_claims(self, owner: str, job_ids: Sequence[int], at: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE jobs SET claimed_at = ? WHERE claimed_by = ? AND done_at IS NULL "
                f"AND id IN ({marks(len(job_ids))})",
                at,
                owner,
                *job_ids,
            )

    async def recover_claims(
        self,
        retry: Sequence[JobKind],
        *,
        at: int,
        lease: int,
        owner: str | None = None,
        shards: Shards | None = None,
    ) -> int:
        condition, values = on_shards(shards, JOB_GUILD)
        lost = LOST_CLAIMS.format(shards=condition)
        async with self._transaction() as db:
            released = await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_at = NULL "
                f"WHERE {lost} AND kind IN ({marks(len(retry))})",
                at - lease,
                owner,
                *values,
                *map(str, retry),
            )
            dropped = await db.execute(
                f"UPDATE jobs SET done_at = ? WHERE {lost}", at, at - lease, owner, *values
            )
        return released + dropped

    async def prune_jobs(self, before: int) -> int:
        async with self._writer() as db:
            return await db.execute("DELETE FROM jobs WHERE done_at < ?", before)

    async def unscheduled(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(UNSCHEDULED_MATCHES, shards)

    # -- vacations -----------------------------------------------------------------------

    async def vacations(self, user_id: int, since: int) -> list[VacationRow]:
        rows = await self._reader().fetch(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE user_id = ? AND ends_at > ? "
            "ORDER BY started_at, id",
            user_id,
            since,
        )
        return [_vacation(row) for row in rows]

    async def away(self, user_ids: Sequence[int], at: int) -> list[VacationRow]:
        rows = await self._reader().fetch(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE ends_at > ? AND started_at <= ? "
            f"AND user_id IN ({marks(len(user_ids))}) ORDER BY user_id",
            at,
            at,
            *user_ids,
        )
        return [_vacation(row) for row in rows]

    async def start_vacation(self, user_id: int, start: int, end: int) -> int | None:
        async with self._transaction() as db:
            under_way = await db.fetch(
                "SELECT 1 FROM vacations WHERE user_id = ? AND ends_at > ? AND started_at <= ?",
                user_id,
                start,
                start,
            )
            if under_way:
                return None
            (row,) = await db.fetch(
                "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?) "
                "RETURNING id",
                user_id,
                start,
                end,
            )
        return int(row[0])

    async def pause_jobs(self, match_id: int, ply: int, vacation_id: int, by: int) -> int:
        async with self._writer() as db:
            return await db.execute(
                "UPDATE jobs SET due_at = due_at + ?, vacation_id = ? "
                "WHERE match_id = ? AND ply = ? AND claimed_by IS NULL AND done_at IS NULL "
                f"AND kind IN {CLOCK_JOBS} AND (vacation_id IS NULL OR vacation_id <> ?)",
                by,
                vacation_id,
                match_id,
                ply,
                vacation_id,
            )

    async def end_vacation(self, vacation: VacationRow, at: int) -> bool:
        async with self._transaction() as db:
            ended = await db.execute(
                "UPDATE vacations SET ends_at = ? WHERE id = ? AND ends_at > ?",
                at,
                vacation.id,
                at,
            )
            if ended != 1:
                return False
            await db.execute(
                "UPDATE jobs SET due_at = due_at - ? "
                "WHERE vacation_id = ? AND claimed_by IS NULL AND done_at IS NULL",
                vacation.ends_at - at,
                vacation.id,
            )
        return True

    # -- followers -------------------------------------------------------------------------

    async def follow(self, match_id: int, user_id: int, wanted: bool) -> bool:
        async with self._writer() as db:
            if wanted:
                changed = await db.execute(
                    "INSERT INTO followers (match_id, user_id) VALUES (?, ?) "
                    "ON CONFLICT (match_id, user_id) DO NOTHING",
                    match_id,
                    user_id,
                )
            else:
                changed = await db.execute(
                    "DELETE FROM followers WHERE match_id = ? AND user_id = ?", match_id, user_id
                )
        return changed == 1

    async def followers(self, match_id: int) -> list[int]:
        return await self._ids(
            "SELECT user_id FROM followers WHERE match_id = ? ORDER BY user_id", match_id
        )

    # -- preferences and takeback votes ----------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow:
        rows = await self._reader().fetch(
            "SELECT dm, dm_refused, theme, flip FROM preferences WHERE user_id = ?", user_id
        )
        if not rows:
            return PreferenceRow()
        row = rows[0]
        return PreferenceRow(bool(row[0]), bool(row[1]), row[2], bool(row[3]))

    async def set_board_preferences(self, user_id: int, theme: str | None, flip: bool) -> None:
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, theme, flip, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, "
                "flip = excluded.flip, updated_at = excluded.updated_at",
                user_id,
                theme,
                int(flip),
                now(),
            )

    async def server_settings(self, guild_id: int) -> ServerRow:
        rows = await self._reader().fetch(
            "SELECT theme, orientation, days, games, channel_id FROM server_settings "
            "WHERE guild_id = ?",
            guild_id,
        )
        if not rows:
            return ServerRow(guild_id)
        row = rows[0]
        allowed = tuple(row[3].split(",")) if row[3] is not None else None
        return ServerRow(guild_id, row[0], row[1], row[2], allowed, row[4])

    async def set_server_settings(self, settings: ServerRow) -> None:
        games = ",".join(settings.games) if settings.games is not None else None
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO server_settings "
                "(guild_id, theme, orientation, days, games, channel_id, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "theme = excluded.theme, orientation = excluded.orientation, "
                "days = excluded.days, games = excluded.games, "
                "channel_id = excluded.channel_id, updated_at = excluded.updated_at",
                settings.guild_id,
                settings.theme,
                settings.orientation,
                settings.days,
                games,
                settings.channel_id,
                now(),
            )

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
                "VALUES (?, ?, 0, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, "
                "dm_refused = 0, updated_at = excluded.updated_at",
                user_id,
                int(wanted),
                now(),
            )

    async def refuse_dm(self, user_id: int) -> bool:
        async with self._writer() as db:
            refused = await db.execute(
                "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
                "VALUES (?, 0, 1, ?) ON CONFLICT (user_id) DO UPDATE SET dm_refused = 1, "
                "updated_at = excluded.updated_at WHERE preferences.dm_refused = 0",
                user_id,
                now(),
            )
        return refused == 1

    # -- command registrations ---------------------------------------------------------------

    async def registered_hash(self, scope: str) -> str | None:
        rows = await self._reader().fetch(
            "SELECT payload_hash FROM command_registrations WHERE scope = ?", scope
        )
        return str(rows[0][0]) if rows else None

    async def set_registered_hash(self, scope: str, payload_hash: str) -> None:
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO command_registrations (scope, payload_hash, registered_at) "
                "VALUES (?, ?, ?) ON CONFLICT (scope) DO UPDATE SET "
                "payload_hash = excluded.payload_hash, registered_at = excluded.registered_at",
                scope,
                payload_hash,
                now(),
            )

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO takeback_votes (match_id, ply, seat) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, ply, seat) DO NOTHING",
                match_id,
                ply,
                seat,
            )
            rows = await db.fetch(
                "SELECT seat FROM takeback_votes WHERE match_id = ? AND ply = ?", match_id, ply
            )
        return frozenset(int(row[0]) for row in rows)

    async def drop_takeback(self, match_id: int) -> None:
        async with self._writer() as db:
            await db.execute("DELETE FROM takeback_votes WHERE match_id = ?", match_id)

    # -- tournaments -------------------------------------------------------------------------

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game: str,
        variant: str,
        system: str,
        rounds: int,
        days_per_move: int,
        max_players: int,
        rated: bool,
        double: bool,
    ) -> int:
        async with self._writer() as db:
            (row,) = await db.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, game, variant, "
                "system, rounds, days_per_move, max_players, rated, double_round, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id,
                channel_id,
                creator_id,
                game,
                variant,
                system,
                rounds,
                days_per_move,
                max_players,
                int(rated),
                int(double),
                now(),
            )
        return int(row[0])

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._reader().fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
        )
        return tournament_row(rows[0]) if rows else None

    async def tournaments_in(self, guild_id: int, stages: Sequence[Stage]) -> list[TournamentRow]:
        rows = await self._reader().fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
            f"WHERE guild_id = ? AND stage IN ({marks(len(stages))}) ORDER BY id DESC",
            guild_id,
            *map(str, stages),
        )
        return [tournament_row(row) for row in rows]

    async def running_tournaments(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(
            "SELECT id FROM tournaments m WHERE stage = 'running' AND {shards} ORDER BY id", shards
        )

    async def set_entry_message(self, tournament_id: int, message_id: int) -> None:
        await self._once(
            "UPDATE tournaments SET entry_message_id = ? WHERE id = ?", message_id, tournament_id
        )

    async def enter(self, tournament_id: int, user_id: int, name: str) -> bool:
        async with self._transaction() as db:
            # A write to the tournament's row first holds it, so racing entries are counted
            # one after the other and the field never overfills.
            await db.execute(
                "UPDATE tournaments SET max_players = max_players WHERE id = ?", tournament_id
            )
            entered = await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, entered_at) "
                "SELECT id, ?, ?, ? FROM tournaments t WHERE id = ? AND stage = 'open' "
                "AND (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id)"
                " < max_players "
                "ON CONFLICT (tournament_id, user_id) DO NOTHING",
                user_id,
                name,
                now(),
                tournament_id,
            )
            return entered == 1

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        return await self._once(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? "
            "AND tournament_id IN (SELECT id FROM tournaments WHERE stage = 'open')",
            tournament_id,
            user_id,
        )

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        return await self._once(
            "UPDATE tournament_entrants SET withdrawn = 1 "
            "WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0",
            tournament_id,
            user_id,
        )

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._reader().fetch(
            "SELECT user_id, name, withdrawn FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY id",
            tournament_id,
        )
        return [
            EntrantRow(int(row[0]), str(row[1]), seed, bool(row[2]))
            for seed, row in enumerate(rows, 1)
        ]

    async def start_tournament(self, tournament_id: int, rounds: int) -> bool:
        return await self._once(
            "UPDATE tournaments SET stage = 'running', rounds = ? WHERE id = ? AND stage = 'open'",
            rounds,
            tournament_id,
        )

    async def begin_round(
        self,
        tournament_id: int,
        number: int,
        boards: Sequence[tuple[int, int | None, float | None]],
    ) -> bool:
        async with self._transaction() as db:
            moved = await db.execute(
                "UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND stage = 'running'",
                number,
                tournament_id,
                number - 1,
            )
            if moved != 1:
                return False
            if boards:
                await db.executemany(
                    "INSERT INTO tournament_boards (tournament_id, round, board, first_id, "
                    "second_id, points) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (tournament_id, number, board, first, second, points)
                        for board, (first, second, points) in enumerate(boards, 1)
                    ],
                )
            return True

    async def boards(self, tournament_id: int) -> list[BoardRow]:
        rows = await self._reader().fetch(
            f"SELECT {BOARD_COLUMNS} FROM tournament_boards WHERE tournament_id = ? "
            "ORDER BY round, board",
            tournament_id,
        )
        return [board_row(row) for row in rows]

    async def set_board_match(
        self, tournament_id: int, number: int, board: int, match_id: int
    ) -> bool:
        return await self._once(
            "UPDATE tournament_boards SET match_id = ? WHERE tournament_id = ? "
            "AND round = ? AND board = ? AND match_id IS NULL",
            match_id,
            tournament_id,
            number,
            board,
        )

    async def board_of_match(self, match_id: int) -> tuple[int, BoardRow] | None:
        rows = await self._reader().fetch(
            f"SELECT tournament_id, {BOARD_COLUMNS} FROM tournament_boards WHERE match_id = ?",
            match_id,
        )
        return (int(rows[0]["tournament_id"]), board_row(rows[0])) if rows else None

    async def score_board(self, tournament_id: int, number: int, board: int, points: float) -> bool:
        return await self._once(
            "UPDATE tournament_boards SET points = ? WHERE tournament_id = ? "
            "AND round = ? AND board = ? AND points IS NULL",
            points,
            tournament_id,
            number,
            board,
        )

    async def finish_tournament(self, tournament_id: int) -> bool:
        return await self._once(
            "UPDATE tournaments SET stage = 'finished' WHERE id = ? AND stage = 'running'",
            tournament_id,
        )

    # -- premove lines ---------------------------------------------------------------------

    async def premoves(self, match_id: int, seat: int) -> PremoveRow | None:
        rows = await self._reader().fetch(
            "SELECT ply, lines FROM premoves WHERE match_id = ? AND seat = ?", match_id, seat
        )
        if not rows:
            return None
        lines = tuple(tuple(str(move) for move in line) for line in json.loads(rows[0][1]))
        return PremoveRow(int(rows[0][0]), lines)

    async def set_premoves(
        self, match_id: int, seat: int, ply: int, lines: Sequence[Sequence[str]]
    ) -> None:
        async with self._writer() as db:
            if not lines:
                await db.execute(
                    "DELETE FROM premoves WHERE match_id = ? AND seat = ?", match_id, seat
                )
                return
            await db.execute(
                "INSERT INTO premoves (match_id, seat, ply, lines) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, seat) DO UPDATE SET ply = excluded.ply, "
                "lines = excluded.lines",
                match_id,
                seat,
                ply,
                json.dumps([list(line) for line in lines]),
            )

    # -- computer analyses -----------------------------------------------------------------

    async def start_analysis(self, match_id: int, user_id: int, positions: int) -> bool:
        async with self._writer() as db:
            created = await db.execute(
                "INSERT INTO analyses (match_id, requested_by, positions, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
                match_id,
                user_id,
                positions,
                now(),
            )
        return created == 1

    async def analysis(self, match_id: int) -> AnalysisRow | None:
        reader = self._reader()
        rows = await reader.fetch(
            "SELECT requested_by, message_id, positions, finished_at FROM analyses "
            "WHERE match_id = ?",
            match_id,
        )
        if not rows:
            return None
        steps = await reader.fetch(
            "SELECT step, reading FROM analysis_readings WHERE match_id = ?", match_id
        )
        row = rows[0]
        return AnalysisRow(
            match_id,
            int(row[0]),
            None if row[1] is None else int(row[1]),
            int(row[2]),
            {int(step[0]): str(step[1]) for step in steps},
            row[3] is not None,
        )

    async def set_analysis_message(self, match_id: int, message_id: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE analyses SET message_id = ? WHERE match_id = ?", message_id, match_id
            )

    async def save_reading(self, match_id: int, step: int, reading: str) -> None:
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO analysis_readings (match_id, step, reading) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, step) DO NOTHING",
                match_id,
                step,
                reading,
            )

    async def finish_analysis(self, match_id: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE analyses SET finished_at = ? WHERE match_id = ? AND finished_at IS NULL",
                now(),
                match_id,
            )

    async def unfinished_analyses(self, shards: Shards | None = None) -> list[int]:
        return await self._ids_on(UNFINISHED_ANALYSES, shards)
