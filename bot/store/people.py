"""People: members' preferences, servers' settings, vacations (a player's clocks stopped,
in every server) and the followers of a match."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Database, Row, marks, now
from bot.store.rows import HabitRow, JobKind, PreferenceRow, ServerRow, VacationRow

VACATION_COLUMNS = "id, user_id, started_at, ends_at"

# The jobs of a player's clock, which a vacation puts off.
CLOCK_JOBS = str(tuple(map(str, (JobKind.REMINDER, JobKind.LAST_REMINDER, JobKind.TIMEOUT))))


class People(Database):
    """What members and servers chose, and who is away."""

    # -- preferences and server settings ---------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow:
        rows = await self._reader().fetch(
            "SELECT dm, dm_refused, theme, flip, large_board, locale, installed "
            "FROM preferences WHERE user_id = ?",
            user_id,
        )
        if not rows:
            return PreferenceRow()
        dm, refused, theme, flip, large, locale, installed = rows[0]
        return PreferenceRow(
            bool(dm), bool(refused), theme, bool(flip), bool(large), locale, bool(installed)
        )

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """The Discord locale a member's last interaction carried (their DMs speak it)."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, locale, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at",
                user_id,
                locale,
                now(),
            )

    async def remember_install(self, user_id: int) -> None:
        """The member used the app through their own account's install."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, installed, updated_at) VALUES (?, 1, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET installed = 1, "
                "updated_at = excluded.updated_at WHERE preferences.installed = 0",
                user_id,
                now(),
            )

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        """Choose direct messages on or off; either way, forget an earlier refusal."""
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
        """Remember that Discord refused a DM to this user (who may have no preferences
        yet: a follower); True the first time only."""
        async with self._writer() as db:
            refused = await db.execute(
                "INSERT INTO preferences (user_id, dm, dm_refused, updated_at) "
                "VALUES (?, 0, 1, ?) ON CONFLICT (user_id) DO UPDATE SET dm_refused = 1, "
                "updated_at = excluded.updated_at WHERE preferences.dm_refused = 0",
                user_id,
                now(),
            )
        return refused == 1

    async def set_board_preferences(
        self, user_id: int, theme: str | None, flip: bool, large: bool = False
    ) -> None:
        """Save how this member sees boards (their other preferences unchanged)."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, theme, flip, large_board, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "theme = excluded.theme, flip = excluded.flip, "
                "large_board = excluded.large_board, updated_at = excluded.updated_at",
                user_id,
                theme,
                int(flip),
                int(large),
                now(),
            )

    async def habits(self, user_id: int) -> HabitRow:
        rows = await self._reader().fetch(
            "SELECT time_zone, confirm FROM preferences WHERE user_id = ?", user_id
        )
        return HabitRow(rows[0][0], bool(rows[0][1])) if rows else HabitRow()

    async def set_habits(self, user_id: int, habits: HabitRow) -> None:
        """Save how this member plays (their other preferences unchanged)."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO preferences (user_id, time_zone, confirm, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "time_zone = excluded.time_zone, confirm = excluded.confirm, "
                "updated_at = excluded.updated_at",
                user_id,
                habits.time_zone,
                int(habits.confirm),
                now(),
            )

    async def server_settings(self, guild_id: int) -> ServerRow:
        """The server's defaults (every one the bot's own when never set)."""
        rows = await self._reader().fetch(
            "SELECT theme, orientation, days, games, channel_id, language, guild_locale "
            "FROM server_settings WHERE guild_id = ?",
            guild_id,
        )
        if not rows:
            return ServerRow(guild_id)
        row = rows[0]
        allowed = tuple(row[3].split(",")) if row[3] is not None else None
        return ServerRow(guild_id, row[0], row[1], row[2], allowed, row[4], row[5], row[6])

    async def remember_server_locale(self, guild_id: int, locale: str) -> None:
        """The Discord locale a server's last interaction carried (its own language, for
        posts no interaction carries); its settings unchanged."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO server_settings (guild_id, guild_locale, updated_at) "
                "VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "guild_locale = excluded.guild_locale, updated_at = excluded.updated_at",
                guild_id,
                locale,
                now(),
            )

    async def set_server_settings(self, settings: ServerRow) -> None:
        games = ",".join(settings.games) if settings.games is not None else None
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO server_settings "
                "(guild_id, theme, orientation, days, games, channel_id, language, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "theme = excluded.theme, orientation = excluded.orientation, "
                "days = excluded.days, games = excluded.games, "
                "channel_id = excluded.channel_id, language = excluded.language, "
                "updated_at = excluded.updated_at",
                settings.guild_id,
                settings.theme,
                settings.orientation,
                settings.days,
                games,
                settings.channel_id,
                settings.language,
                now(),
            )

    # -- vacations -----------------------------------------------------------------------

    async def vacations(self, user_id: int, since: int) -> list[VacationRow]:
        """The user's vacations that end after `since`, oldest first."""
        rows = await self._reader().fetch(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE user_id = ? AND ends_at > ? "
            "ORDER BY started_at, id",
            user_id,
            since,
        )
        return [_vacation(row) for row in rows]

    async def away(self, user_ids: Sequence[int], at: int) -> list[VacationRow]:
        """The vacations of these users under way at `at`."""
        rows = await self._reader().fetch(
            f"SELECT {VACATION_COLUMNS} FROM vacations WHERE ends_at > ? AND started_at <= ? "
            f"AND user_id IN ({marks(len(user_ids))}) ORDER BY user_id",
            at,
            at,
            *user_ids,
        )
        return [_vacation(row) for row in rows]

    async def start_vacation(self, user_id: int, start: int, end: int) -> int | None:
        """Record a vacation from `start` to `end`; None (and nothing recorded) when the user
        is on one at `start` already."""
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
        """Put off the match's unclaimed jobs at `ply` by `by` seconds for this vacation,
        unless it put them off already; how many moved."""
        async with self._writer() as db:
            moved = await db.execute(
                "UPDATE jobs SET due_at = due_at + ?, vacation_id = ? "
                "WHERE match_id = ? AND ply = ? AND claimed_by IS NULL AND done_at IS NULL "
                f"AND kind IN {CLOCK_JOBS} AND (vacation_id IS NULL OR vacation_id <> ?)",
                by,
                vacation_id,
                match_id,
                ply,
                vacation_id,
            )
            await self._jobs_changed(db)
        return moved

    async def end_vacation(self, vacation: VacationRow, at: int) -> bool:
        """End a vacation at `at`, before its planned end, and bring the unclaimed jobs it put
        off forward by the time left, in one transaction; False if it was over already."""
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
            await self._jobs_changed(db)
        return True

    # -- followers -------------------------------------------------------------------------

    async def follow(self, match_id: int, user_id: int, wanted: bool) -> bool:
        """Start (or with `wanted` False, stop) following a match; False if nothing
        changed."""
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


def _vacation(row: Row) -> VacationRow:
    return VacationRow(int(row[0]), int(row[1]), int(row[2]), int(row[3]))
