"""Ratings: each finished rated match counted once into its players' standings, and the
leaderboards read from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.database import Database, Row, marks, now
from bot.store.rows import RatingChange, RatingRow, RatingUpdate, Shards

RATING_COLUMNS = "game, user_id, mu, sigma, games, wins, draws, losses, streak"

# The leaderboard's order: established players (at least `?` games) before provisional ones,
# each by shown rating (which rises with mu); `rank_of` counts the players this puts above.
PLACE = "(CASE WHEN {games} >= ? THEN 0 ELSE 1 END)"
BETTER, MINE = PLACE.format(games="better.games"), PLACE.format(games="mine.games")
ABOVE = f"""
    SELECT count(*) FROM ratings better
    WHERE better.guild_id = mine.guild_id AND better.game = mine.game
        AND ({BETTER} < {MINE} OR ({BETTER} = {MINE} AND better.mu > mine.mu))
"""

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
            after = update(current)
            await db.executemany(
                UPSERT_RATING, [(guild_id, *rating_values(r), stamped) for r in after]
            )
            await db.executemany(
                "INSERT INTO rating_changes "
                "(match_id, user_id, mu_before, sigma_before, mu, sigma, games) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(match_id, *change_values(current.get(r.user_id), r)) for r in after],
            )
            return True

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        """What a rated match did to its players' ratings (none before it is counted)."""
        rows = await self._reader().fetch(
            "SELECT user_id, mu_before, sigma_before, mu, sigma, games FROM rating_changes "
            "WHERE match_id = ?",
            match_id,
        )
        return [
            RatingChange(
                user_id=int(r["user_id"]),
                mu_before=None if r["mu_before"] is None else float(r["mu_before"]),
                sigma_before=None if r["sigma_before"] is None else float(r["sigma_before"]),
                mu=float(r["mu"]),
                sigma=float(r["sigma"]),
                games=int(r["games"]),
            )
            for r in rows
        ]

    async def unrated_matches(self, shards: Shards | None = None) -> list[int]:
        """Finished rated matches (on these shards' servers) whose result has not reached
        the ratings yet (a process stopped in between)."""
        return await self._ids_on(UNRATED, shards)

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, established: int = 0
    ) -> list[RatingRow]:
        """The best standings in a game on a server: players with at least `established`
        games first, each part by rating (mu), highest first."""
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
            f"ORDER BY {PLACE.format(games='games')}, mu DESC, games DESC, user_id LIMIT ?",
            guild_id,
            game,
            established,
            limit,
        )
        return [rating_row(r) for r in rows]

    async def rank_of(
        self, guild_id: int, game: str, user_id: int, established: int = 0
    ) -> tuple[int, RatingRow] | None:
        """A player's place on the leaderboard (1 = top, ordered as `leaderboard`) and
        standing; None if unrated."""
        rows = await self._reader().fetch(
            f"SELECT {RATING_COLUMNS}, ({ABOVE}) AS above "
            "FROM ratings mine WHERE guild_id = ? AND game = ? AND user_id = ?",
            *[established] * 4,
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


def change_values(before: RatingRow | None, after: RatingRow) -> tuple[Any, ...]:
    """A rating change's values in the order `rate_match` inserts them, after the match id."""
    if before is None:
        return (after.user_id, None, None, after.mu, after.sigma, after.games)
    return (after.user_id, before.mu, before.sigma, after.mu, after.sigma, after.games)


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
