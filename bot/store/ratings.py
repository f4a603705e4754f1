"""Ratings: each finished rated match counted once into its players' standings, and the
leaderboards read from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.database import Database, Row, marks, now
from bot.store.rows import RatingRow, RatingUpdate, Shards

RATING_COLUMNS = "game, user_id, mu, sigma, games, wins, draws, losses, streak"

ORDINAL = "(mu - 3 * sigma)"  # RatingRow.ordinal, in SQL

# Finished rated matches not yet counted (index `matches_unrated`; counting sets rated = 2).
UNRATED = """
    SELECT id FROM matches m
    WHERE status = 'finished' AND rated = 1 AND {shards}
        AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id)
    ORDER BY updated_at, id
"""

UPSERT_RATING = f"""
    INSERT INTO ratings (guild_id, {RATING_COLUMNS}, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id)
    DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,
        wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
        streak = excluded.streak, updated_at = excluded.updated_at
"""


class Ratings(Database):
    """Standings per server and game, as openskill keeps them."""

    async def rate_match(
        self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int], update: RatingUpdate
    ) -> bool:
        """Apply a finished match to its players' ratings, once: in one transaction, record the
        match as rated (False, and nothing changes, if it was already) and write what
        `update` makes of the current standings, which it reads there, so two matches ending
        at once for one player both count.

        The match's key decides who rates it (a second transaction blocks on the insert,
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
        """Finished rated matches (on these shards' servers) whose result has not reached
        the ratings yet (a process stopped in between)."""
        return await self._ids_on(UNRATED, shards)

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        """The best standings in a game on a server, highest ordinal first."""
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
            f"ORDER BY {ORDINAL} DESC, games DESC, user_id LIMIT ?",
            guild_id,
            game,
            limit,
        )
        return [rating_row(r) for r in rows]

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        """A player's place on the leaderboard (1 = top) and standing; None if unrated."""
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
        """A player's standings in every game rated on a server, most games first."""
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY games DESC, game",
            guild_id,
            user_id,
        )
        return [rating_row(r) for r in rows]


def rating_row(row: Row) -> RatingRow:
    return RatingRow(
        game=str(row["game"]),
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        draws=int(row["draws"]),
        losses=int(row["losses"]),
        streak=int(row["streak"]),
    )


def rating_values(standing: RatingRow) -> tuple[Any, ...]:
    """A standing's values in the order of RATING_COLUMNS."""
    return (
        standing.game,
        standing.user_id,
        standing.mu,
        standing.sigma,
        standing.games,
        standing.wins,
        standing.draws,
        standing.losses,
        standing.streak,
    )
