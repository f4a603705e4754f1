"""Ratings and the player's past: counting finished matches once, leaderboards, profiles,
histories and the positions a replay steps through."""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.service import rating_model as ratings
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, Viewer, status_of
from bot.service.queries import Queries
from bot.store import MatchRow, RatingRow, Shards, Status
from bot.texts import say, t
from rules import get_game
from rules.outcomes import REASONS, outcome_from_json
from rules.phrases import Words, phrase

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10
RECENT_RESULTS = 5


@dataclass(frozen=True)
class Leaderboard:
    game: str
    top: tuple[RatingRow, ...]
    mine: tuple[int, RatingRow] | None  # the caller's rank and standing, if rated


@dataclass(frozen=True)
class Replay:
    """A match with every position it went through (the setup first) and the turns between."""

    match: Match
    turns: tuple[str, ...]
    states: tuple[Any, ...]


@dataclass(frozen=True)
class HistoryPage:
    """One page (1-based) of a player's finished matches, newest first."""

    rows: tuple[MatchRow, ...]
    page: int
    pages: int
    total: int


@dataclass(frozen=True)
class Profile:
    user_id: int
    standings: tuple[RatingRow, ...]
    current: tuple[Match, ...]
    recent: tuple[MatchRow, ...]


DIRECT_MESSAGES = 0  # the rating pool of the matches played outside servers (no server's id)


class Ratings:
    """Counts each finished, rated match in its players' standings exactly once: the store
    records the match id in the same transaction as the new standings, so a second call (a
    race, a retry, the catch-up after a restart) changes nothing."""

    def __init__(self, cache: MatchCache, queries: Queries) -> None:
        self.cache = cache
        self.queries = queries

    async def rate(self, match: Match) -> bool:
        """Count a finished match; False when it is unrated, unfinished or counted already."""
        outcome = match.outcome
        if outcome is None or not match.row.rated:
            return False
        user_ids = [seat.user_id for seat in match.seats]
        update = partial(ratings.after_match, match.game.name, user_ids, outcome)
        return await self.cache.store.rate_match(
            match.id, pool_of(match.row.guild_id), match.game.name, user_ids, update
        )

    async def rate_quietly(self, match: Match) -> None:
        """Rate after a result was saved: a failure must not undo or hide the result, and the
        next start's catch-up counts the match."""
        try:
            await self.rate(match)
        except Exception:
            log.exception("rating match #%s failed; it is rated at the next start", match.id)

    async def catch_up(self, shards: Shards | None = None) -> int:
        """Rate the finished matches (of these shards' servers) a stopped process left
        unrated; how many were."""
        counted = 0
        for match_id in await self.cache.store.unrated_matches(shards):
            counted += await self.rate(await self.cache.get(match_id))
        if counted:
            log.info("rated %d match(es) finished before a restart", counted)
        return counted

    async def leaderboard(self, guild_id: int, game: str, user_id: int) -> Leaderboard:
        name = get_game(game).name
        established = ratings.PROVISIONAL_GAMES
        top = await self.cache.store.leaderboard(guild_id, name, LEADERBOARD_SIZE, established)
        mine = await self.cache.store.rank_of(guild_id, name, user_id, established)
        return Leaderboard(name, tuple(top), mine)

    async def changes(self, match: Match) -> list[ratings.ShownChange]:
        """What a finished rated match did to each player's shown rating, in seat order
        (none for an unrated match, or one not counted yet)."""
        if match.outcome is None or not match.row.rated:
            return []
        found = {c.user_id: c for c in await self.cache.store.rating_changes(match.id)}
        return [ratings.changed(found[s.user_id]) for s in match.seats if s.user_id in found]

    async def profile(self, viewer: Viewer, user_id: int) -> Profile:
        """A player's standings in the viewer's server (outside servers, in the Direct
        messages pool), and the matches of theirs the viewer may reach."""
        standings = await self.cache.store.ratings_of(pool_of(viewer.guild_id), user_id)
        listing = await self.queries.listing(user_id, viewer.guild_id)
        current = tuple(m for m in listing.matches if viewer.reaches(m.row))
        recent = await self.history(viewer, user_id, per_page=RECENT_RESULTS)
        return Profile(user_id, tuple(standings), current, recent.rows)

    async def history(
        self,
        viewer: Viewer,
        user_id: int,
        game: str | None = None,
        *,
        page: int = 1,
        per_page: int,
    ) -> HistoryPage:
        """A page of a player's finished matches that the viewer may reach, newest first
        (rows only: no position is loaded), read a page at a time from the store; a page
        past the end gives the last."""
        if not viewer.reads_history_of(user_id):
            return HistoryPage((), 1, 1, 0)
        read = partial(self.cache.store.history, user_id, viewer.guild_id, game, limit=per_page)
        page = max(page, 1)
        rows, broken, total = await read(offset=(page - 1) * per_page)
        pages = max(1, math.ceil(total / per_page))
        if page > pages:
            page = pages
            rows, broken, total = await read(offset=(page - 1) * per_page)
        for problem in broken:
            log.error("skipped in a history: %s", problem)
        return HistoryPage(tuple(rows), page, pages, total)

    async def positions(self, match_id: int) -> Replay:
        """A match with every position it went through, from the setup to now."""
        match = await self.cache.get(match_id)
        if match.status in (Status.PENDING, Status.DECLINED, Status.WITHDRAWN):
            raise ServiceError(
                t("service.rating.never_played", game=match.title, status=status_of(match)),
                t("service.rating.never_played_hint"),
            )
        record = await self.queries.record(match_id)
        # Replaying a long log (Kyo's move generation above all) is CPU work: off the loop.
        states = await asyncio.to_thread(lambda: tuple(record.positions(match.game)))
        return Replay(match, record.turns, states)


def pool_of(guild_id: int | None) -> int:
    """The rating pool of a place: its server's, or Direct messages outside servers."""
    return DIRECT_MESSAGES if guild_id is None else guild_id


def result_for(row: MatchRow, user_id: int) -> str:
    """`won`, `lost` or `drew` for a player in a finished match's row."""
    outcome = outcome_from_json(row.outcome)
    if outcome is None:
        return say(t("service.rating.unfinished"))
    if outcome.is_draw:
        return say(t("service.rating.drew"))
    seat = next((s.seat for s in row.seats if s.user_id == user_id), None)
    if seat in outcome.winners:
        return say(t("service.rating.won"))
    return say(t("service.rating.lost"))


def reason_of(row: MatchRow) -> Words:
    """Why a finished match ended, in the reader's words (`resignation`)."""
    outcome = outcome_from_json(row.outcome)
    return "" if outcome is None else phrase(REASONS[outcome.reason])
