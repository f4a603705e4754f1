"""Finding matches without changing them: by thread, a user's open list, the match a command
means, and a match's record for export.

Every match a user names, by option, thread or button, is found through `reach`, which
keeps each server to its own matches (see `Viewer`)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from bot.posts import limits
from bot.service.cache import MatchCache
from bot.service.hints import suggestions
from bot.service.matches import Match, ServiceError, Viewer, no_match
from bot.service.offload import SUGGEST_SECONDS, Offload, TooComplex
from bot.store import CorruptMatch, JobKind, Status
from bot.texts import t
from rules import Record
from rules.outcomes import outcome_from_json
from rules.records import numbered

log = logging.getLogger(__name__)

OPEN = (Status.PENDING, Status.ACTIVE)
PLAYED = (Status.ACTIVE, Status.FINISHED)
TOO_MANY = TooComplex(t("service.query.too_many"), t("service.query.too_many_hint"))
_MATCH_REF = re.compile(r"^\s*#?(\d{1,12})\b")


@dataclass(frozen=True)
class Listing:
    matches: tuple[Match, ...]
    unreadable: int


@dataclass(frozen=True)
class Waiting:
    """A match that needs its user (to move, or to answer its challenge), and by when:
    the turn's deadline or the challenge's expiry; None without a limit."""

    match: Match
    due: int | None


RECENT_MOVES = 10  # shown as text under /board's picture


class Queries:
    """Reads for the interface; matches come through the cache, so none costs a reload."""

    def __init__(self, cache: MatchCache, offload: Offload) -> None:
        self.cache = cache
        self.offload = offload

    async def listing(self, user_id: int, guild_id: int | None = None) -> Listing:
        """A user's open matches, those waiting for them first, then the most recent."""
        rows, broken = await self.cache.store.matches_of(user_id, OPEN, guild_id)
        matches: list[Match] = []
        for row in rows:
            try:
                matches.append(self.cache.load(row))
            except CorruptMatch as error:
                broken.append(error)
        for problem in broken:
            log.error("skipped in a listing: %s", problem)
        matches.sort(key=lambda m: not m.waits_for(user_id))
        return Listing(tuple(matches), len(broken))

    async def needing(self, user_id: int) -> list[Waiting]:
        """The user's matches, in every server, waiting for them, least time left first
        (those without a limit last)."""
        listing = await self.listing(user_id)
        store = self.cache.store
        found = []
        for match in listing.matches:
            if not match.waits_for(user_id):
                continue
            if match.status == Status.PENDING:
                due = await store.due_time(match.id, JobKind.EXPIRY, 0)
            else:
                due = await store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
            found.append(Waiting(match, due))
        found.sort(key=lambda w: (w.due is None, w.due or 0, w.match.id))
        return found

    async def recent_moves(self, match: Match) -> list[tuple[int, str]]:
        """The last RECENT_MOVES turns as (turn number, notation), oldest first, numbered as
        boards and records number them (moves and passes; resignations and timeouts are not
        turns)."""
        moves = await self.cache.store.moves(match.id)
        turns = [(n, turn) for n, turn in numbered(m.notation for m in moves) if n is not None]
        return turns[-RECENT_MOVES:]

    async def reach(self, viewer: Viewer, match_id: int) -> Match:
        """The match with this number, if the viewer may reach it where they are; else the
        error a match that does not exist gives, or to its own player where it is played."""
        match = await self.cache.get(match_id)
        if viewer.reaches(match.row):
            return match
        if match.seat_of(viewer.user_id) is None:
            raise no_match(match_id)
        hint = t("service.match.elsewhere_hint")
        if match.row.guild_id is None:  # their own match: saying where it lives tells nothing
            raise ServiceError(t("service.match.elsewhere_private", match=match_id), hint)
        raise ServiceError(t("service.match.elsewhere_server", match=match_id), hint)

    async def resolve(
        self, viewer: Viewer, channel_id: int, ref: str | None, *, recent: bool = False
    ) -> Match:
        """The match a command means: named, this thread's, or the user's only one here.
        With `recent` (commands that only look), a user with no match in progress gets their
        most recently played one, so a finished match stays reachable."""
        if ref and ref.strip():
            found = _MATCH_REF.match(ref)
            if not found:
                raise ServiceError(
                    t("service.query.not_number", ref=limits.quote(ref)),
                    t("service.query.not_number_hint"),
                )
            return await self.reach(viewer, int(found[1]))
        here = await self.cache.store.match_in_thread(channel_id)
        if here is not None:
            return await self.reach(viewer, here)
        user_id, guild_id = viewer.user_id, viewer.guild_id
        listing = await self.listing(user_id, guild_id)
        active = [m for m in listing.matches if m.status == Status.ACTIVE]
        if guild_id is None:  # outside servers every match is listed: this conversation's first
            active = [m for m in active if m.channel_id == channel_id] or active
        if len(active) == 1:
            return active[0]
        if not active and recent:
            played = await self._most_recent(user_id, guild_id)
            if played is not None:
                return played
        if not active and guild_id is None:
            raise ServiceError(
                t("service.query.none_private"), t("service.query.none_private_hint")
            )
        if not active:
            raise ServiceError(t("service.query.none_here"), t("service.query.none_here_hint"))
        raise ServiceError(
            t("service.query.which", count=len(active)), t("service.query.which_hint")
        )

    async def _most_recent(self, user_id: int, guild_id: int | None) -> Match | None:
        """The user's most recently updated match that was played, finished ones included."""
        rows, _ = await self.cache.store.matches_of(user_id, PLAYED, guild_id)
        return self.cache.load(rows[0]) if rows else None

    async def suggest(self, match: Match, typed: str) -> list[str]:
        """Autocomplete's legal moves starting with what was typed, worked out in a worker;
        TooComplex when the position has too many to list in time."""
        if len(typed) > limits.QUOTED:
            return []
        return await self.offload.run(SUGGEST_SECONDS, TOO_MANY, suggestions, match, typed)

    async def record(self, match_id: int) -> Record:
        """The match as a game record: seats, seed, the move log and the stored result."""
        match = await self.cache.get(match_id)
        moves = await self.cache.store.moves(match_id)
        tags = {f"Seat{s.seat}": s.name for s in match.seats} | {"Match": str(match_id)}
        return Record(
            game=match.game.name,
            variant=match.row.variant,
            players=len(match.seats),
            seed=match.row.seed,
            turns=tuple(m.notation for m in moves),
            result=outcome_from_json(match.row.outcome),
            tags=tags,
            position=match.row.start,
        )
