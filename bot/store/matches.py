"""Matches: challenges made and answered, finding a member's or a server's matches, and
their fields (where the bot posted, the status) written only at the ply the writer read."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.database import Database, Row, marks, now, on_shards
from bot.store.errors import CorruptMatch, StaleWrite
from bot.store.rows import MatchRow, SeatRow, Shards, Status

# The match columns `update_match` may write.
UPDATABLE = frozenset(
    {"thread_id", "challenge_message_id", "board_message_id", "status", "ply", "snapshot"}
    | {"outcome", "draw_offer", "expired_at", "board_ply"}
    | {"aborted_at", "aborted_by", "draw_message_id"}
    | {"banks"}
)

# Started matches whose latest turn was saved but not shown (index `matches_unposted`).
UNPOSTED = """
    SELECT id FROM matches m
    WHERE status IN ('active', 'finished') AND (board_ply IS NULL OR board_ply < ply)
        AND {shards}
    ORDER BY id
"""

# Matches in progress where the computer holds a seat (index `matches_active`).
WITH_ENGINES = """
    SELECT id FROM matches m
    WHERE m.status = 'active' AND {shards} AND EXISTS (
        SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.engine IS NOT NULL
    )
    ORDER BY id
"""

# Matches in progress per server (index `matches_active`), for the metrics and /server status.
RUNNING = """
    SELECT guild_id, count(*) FROM matches m WHERE m.status = 'active' AND {shards}
    GROUP BY guild_id
"""

# A user's finished matches, newest first; `{game}` narrows them to one game or none.
HISTORY = """
    JOIN seats mine ON mine.match_id = m.id
    WHERE mine.user_id = ? AND m.status = 'finished' AND {guild} AND {game}
"""


class Matches(Database):
    """A match row with its seats; a write lands only at the ply its writer read (see
    `Store`)."""

    def _select_match(self, where: str) -> str:
        return f"SELECT m.*, {self.SEATS} AS seats FROM matches m {where}"

    async def get_match(self, match_id: int) -> MatchRow | None:
        rows = await self._reader().fetch(self._select_match("WHERE m.id = ?"), match_id)
        return match_row(rows[0]) if rows else None

    async def match_in_thread(self, thread_id: int) -> int | None:
        """The id of the match played in this thread, if any."""
        found = await self._value(
            "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1", thread_id
        )
        return None if found is None else int(found)

    async def matches_of(
        self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        """A user's matches in the given statuses; unreadable ones come back as errors."""
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
        """Up to `limit` of a server's matches in the given statuses, the most recently
        played first (for choosing one to follow); unreadable ones come back as errors."""
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
        """One page of a user's finished matches (on a server, in a game, if given), newest
        first, the unreadable ones as errors, and how many there are in all."""
        where, params = _history_where(user_id, guild_id, game)
        rows = await self._reader().fetch(
            self._select_match(f"{where} ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?"),
            *params,
            limit,
            offset,
        )
        total = await self._value(f"SELECT count(*) FROM matches m {where}", *params)
        found, broken = _decoded(rows)
        return found, broken, int(total)

    async def unposted_boards(self, shards: Shards | None = None) -> list[int]:
        """Started matches (on these shards' servers; None: all) whose latest turn was
        saved but its board never posted."""
        return await self._ids_on(UNPOSTED, shards)

    async def matches_with_engines(self, shards: Shards | None = None) -> list[int]:
        """The ids of the matches in progress (on these shards' servers) where the computer
        holds a seat."""
        return await self._ids_on(WITH_ENGINES, shards)

    async def running_matches(self, shards: Shards | None = None) -> dict[int | None, int]:
        """How many matches are in progress on each server (None: direct messages) of these
        shards."""
        condition, values = on_shards(shards)
        rows = await self._reader().fetch(RUNNING.format(shards=condition), *values)
        return {row[0]: int(row[1]) for row in rows}

    async def rematch(self, match_id: int) -> int | None:
        """The newest challenge made as a rematch of this match, if any."""
        found = await self._value(
            "SELECT id FROM matches WHERE rematch_of = ? ORDER BY id DESC LIMIT 1", match_id
        )
        return None if found is None else int(found)

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
        start: str | None = None,
        clock: tuple[int, int, bool] = (0, 0, False),
    ) -> int:
        """A pending challenge; seats are (user id, name, accepted, the computer's level or
        None for a person) in turn order; `challenger` is the seat of whoever made it;
        `start` the diagram of the position it begins from, if not the game's setup."""
        created = now()
        async with self._transaction() as db:
            (row,) = await db.fetch(
                "INSERT INTO matches (guild_id, channel_id, game, variant, seed, status, "
                "snapshot, created_at, updated_at, days_per_move, rated, challenger, rematch_of, "
                "start, clock_increment, clock_cap, weekends_off) "
                "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                start,
                clock[0],
                clock[1],
                int(clock[2]),
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
        """Change match columns if the match is still at `expected_ply` (and status), else
        StaleWrite."""
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

    async def claim_telling(self, match_id: int, ply: int) -> bool:
        """Whether this is the first call to tell the match's players its position at `ply` by
        DM (`Conversations.missed`); recorded in the same statement, so two tasks or two
        processes cannot both claim it, and a caller whose match has moved on claims none."""
        async with self._writer() as db:
            claimed = await db.execute(
                "UPDATE matches SET told_ply = ? "
                "WHERE id = ? AND ply = ? AND (told_ply IS NULL OR told_ply < ?)",
                ply,
                match_id,
                ply,
                ply,
            )
        return bool(claimed == 1)

    async def release_telling(self, match_id: int, ply: int) -> None:
        """Undo `claim_telling` at `ply`: its DMs failed, so the next try may claim it."""
        async with self._writer() as db:
            await db.execute(
                "UPDATE matches SET told_ply = NULL WHERE id = ? AND told_ply = ?", match_id, ply
            )

    async def accept_seat(
        self, match_id: int, seat: int, taker: tuple[int, str] | None = None
    ) -> bool:
        """Mark one seat of a pending match accepted (given to `taker`, a user id and name,
        when it is an open seat); the last acceptance starts the match in the same
        transaction. Returns whether it started.

        The match row is locked first: two last seats accepting at once in two processes
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


def _history_where(user_id: int, guild_id: int | None, game: str | None) -> tuple[str, list[Any]]:
    params: list[Any] = [user_id]
    guild = "1 = 1" if guild_id is None else "m.guild_id = ?"
    params += [] if guild_id is None else [guild_id]
    narrowed = "1 = 1" if game is None else "m.game = ?"
    params += [] if game is None else [game]
    return HISTORY.format(guild=guild, game=narrowed), params


def encode_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Match columns to write, checked against UPDATABLE, JSON-encoded, stamped."""
    unknown = set(fields) - UPDATABLE
    if unknown:
        raise ValueError(f"not a match column one may update: {sorted(unknown)}")
    values = {
        key: json.dumps(value) if isinstance(value, (dict, tuple)) else value
        for key, value in fields.items()
    }
    values["updated_at"] = now()
    return values


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


def match_row(row: Row) -> MatchRow:
    """Decode one row (with its seats folded into a JSON array); garbage becomes CorruptMatch
    naming the match (the snapshot is parsed later, by whoever needs the state, so that a
    cached state costs no JSON work)."""
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
                SeatRow(int(seat), int(user), str(name), bool(accepted), engine)
                for seat, user, name, accepted, engine in json.loads(row["seats"])
            ),
            days_per_move=int(row["days_per_move"]),
            expired_at=None if row["expired_at"] is None else int(row["expired_at"]),
            rated=bool(row["rated"]),
            board_ply=row["board_ply"],
            challenger=int(row["challenger"]),
            rematch_of=row["rematch_of"],
            start=row["start"],
            aborted_at=None if row["aborted_at"] is None else int(row["aborted_at"]),
            aborted_by=None if row["aborted_by"] is None else int(row["aborted_by"]),
            draw_message_id=row["draw_message_id"],
            clock_increment=int(row["clock_increment"]),
            clock_cap=int(row["clock_cap"]),
            weekends_off=bool(row["weekends_off"]),
            banks=_banks(row["banks"]),
        )
    except (ValueError, TypeError, KeyError) as error:
        raise CorruptMatch(f"match #{row['id']} cannot be read: {error}") from error


def _banks(stored: Any) -> tuple[int | None, ...]:
    banks = json.loads(stored) if stored is not None else []
    if not isinstance(banks, list) or not all(b is None or isinstance(b, int) for b in banks):
        raise ValueError("the banks must be a JSON array of seconds")
    return tuple(banks)


def _status(stored: Any) -> Status:
    try:
        return Status(stored)
    except ValueError:
        raise ValueError(f"unknown status {stored!r}") from None
