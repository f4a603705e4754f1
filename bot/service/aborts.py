"""Aborting a match nobody has really started: until each player has made a move, any player
may abort it, and a player who lets their first move time out aborts it instead of losing.
An aborted match has no result, is not rated, has no replay, and keeps status `withdrawn`
with `aborted_at` set (a started match's way of never having been played) and `aborted_by`
(who, or None for the clock), from which its post is made again if Discord did not take it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError
from bot.service.turns import Turns
from bot.store import SeatRow, Status
from bot.texts import t


@dataclass(frozen=True)
class Aborted:
    """A match just aborted: by the player `by`, or by the clock of `timed_out`'s first move."""

    match: Match
    by: SeatRow | None = None
    timed_out: SeatRow | None = None


class Aborts:
    def __init__(self, cache: MatchCache, turns: Turns, clock: Clock) -> None:
        self.cache = cache
        self.turns = turns
        self.clock = clock

    async def abort(self, match_id: int, user_id: int) -> Aborted:
        """A player aborts the match; refused once every player has moved, or in a
        tournament (its games are counted as played)."""
        match = await self.cache.get(match_id)
        seat = self.turns.require_playing(match, user_id)
        if await self.cache.store.board_of_match(match.id) is not None:
            raise ServiceError(
                t("lifecycle.abort.tournament", game=match.title),
                t("lifecycle.abort.resign_hint"),
            )
        if not await self.waiting_for_first_moves(match):
            raise ServiceError(
                t("lifecycle.abort.too_late", game=match.title), t("lifecycle.abort.resign_hint")
            )
        return Aborted(await self._abort(match, user_id), by=match.at(seat))

    async def aborted(self, match_id: int) -> Aborted | None:
        """The match as it was aborted, for its post made again; None if it was not."""
        match = await self.cache.get(match_id)
        row = match.row
        if row.status != Status.WITHDRAWN or row.aborted_at is None:
            return None
        if row.aborted_by is None:  # the first move of the seat whose turn it was timed out
            return Aborted(match, timed_out=match.at(match.game.to_move(match.state)))
        seat = match.seat_of(row.aborted_by)
        return Aborted(match, by=None if seat is None else match.at(seat))

    async def time_out(self, match_id: int, ply: int) -> Aborted | None:
        """The timeout at `ply`, when it falls on a person's first move (outside a
        tournament): the match is aborted. None when the timeout is an ordinary loss, or the
        match moved on."""
        match = await self.cache.get(match_id)
        mover = match.to_move
        if match.row.ply != ply or mover is None or mover.engine is not None:
            return None
        if mover.seat in await self._moved(match):
            return None
        if await self.cache.store.board_of_match(match.id) is not None:
            return None
        try:
            return Aborted(await self._abort(match, None), timed_out=mover)
        except ServiceError:  # a move landed first
            return None

    async def waiting_for_first_moves(self, match: Match) -> bool:
        """Whether some person seated in the match has not made a move of their own yet
        (automatic passes do not count)."""
        moved = await self._moved(match)
        return any(s.engine is None and s.seat not in moved for s in match.seats)

    async def _moved(self, match: Match) -> set[int]:
        """The seats that have played a move of their own."""
        if match.row.ply == 0:
            return set()
        ended = ("pass", "resign ", "timeout ")
        moves = await self.cache.store.moves(match.id)
        return {m.seat for m in moves if not m.notation.startswith(ended)}

    async def _abort(self, match: Match, by: int | None) -> Match:
        with self.cache.writing(match.id):
            await self.cache.store.update_match(
                match.id,
                match.row.ply,
                expected_status=Status.ACTIVE,
                status=Status.WITHDRAWN,
                aborted_at=int(self.clock.now()),
                aborted_by=by,
                draw_offer=None,
            )
        return await self.cache.get(match.id)
