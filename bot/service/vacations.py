"""Vacations: a player's clocks stop, in every server, for the days they are away.

Starting one puts off the jobs of every turn the player has to make by the whole vacation
(reminders and timeouts alike, each job marked with the vacation); a turn that reaches them
while away gets its clock started when the vacation ends (see `Deadlines.deadline`). Ending
early brings the marked jobs forward by the time left, and nothing needs doing when a
vacation simply runs out: the jobs already fall due at the right time, even if the bot was
down meanwhile. Opponents play on; only the vacationer's clock stops.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.clock import DAY, Clock
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError
from bot.store import CorruptMatch, SeatRow, Status, VacationRow
from bot.texts import t

MAX_DAYS = 30  # for one vacation, and in all in any YEAR
YEAR = 365 * DAY


@dataclass(frozen=True)
class Away:
    """A player on vacation, and until when (Unix seconds)."""

    seat: SeatRow
    until: int


@dataclass(frozen=True)
class VacationState:
    """Where a user stands: the vacation under way (if any) and the days left to take."""

    current: VacationRow | None
    days_left: int
    turns: tuple[Match, ...] = ()  # where the user is to move: the clocks just stopped or restarted


class Vacations:
    def __init__(self, cache: MatchCache, clock: Clock) -> None:
        self.cache = cache
        self.clock = clock
        self.scheduled: Callable[[], None] = lambda: None  # the scheduler's wake-up call

    def now(self) -> int:
        return int(self.clock.now())

    async def current(self, user_id: int) -> VacationRow | None:
        away = await self.cache.store.away([user_id], self.now())
        return away[0] if away else None

    async def state(self, user_id: int) -> VacationState:
        """The vacation under way and the days left: each vacation counts its days within
        the last YEAR, a part of a day as a whole one."""
        now = self.now()
        taken = await self.cache.store.vacations(user_id, now - YEAR)
        used = sum(_days(max(v.started_at, now - YEAR), v.ends_at) for v in taken)
        current = next((v for v in taken if v.started_at <= now < v.ends_at), None)
        return VacationState(current, max(0, MAX_DAYS - used))

    async def take(self, user_id: int, days: int) -> VacationState:
        """Start a vacation of `days` days from now, or with 0 end the one under way."""
        if not 0 <= days <= MAX_DAYS:
            raise ServiceError(
                t("service.vacation.length", count=days),
                t("service.vacation.length_hint", most=MAX_DAYS),
            )
        if days == 0:
            return await self._end(user_id)
        before = await self.state(user_id)
        if before.current is not None:
            raise ServiceError(
                t("service.vacation.already", ends=before.current.ends_at),
                t("service.vacation.already_hint"),
            )
        if days > before.days_left:
            raise ServiceError(
                t("service.vacation.left", count=before.days_left, days=days),
                t("service.vacation.left_hint", most=MAX_DAYS),
            )
        now = self.now()
        vacation_id = await self.cache.store.start_vacation(user_id, now, now + days * DAY)
        if vacation_id is None:  # a second /vacation landed first
            return await self.state(user_id)
        paused = []
        for match in await self._waiting_for(user_id):
            async with self.cache.lock(match.id):
                fresh = await self.cache.get(match.id)
                if _mover_is(fresh, user_id):
                    await self.cache.store.pause_jobs(
                        fresh.id, fresh.row.ply, vacation_id, days * DAY
                    )
                    paused.append(fresh)
        after = await self.state(user_id)
        return VacationState(after.current, after.days_left, tuple(paused))

    async def _end(self, user_id: int) -> VacationState:
        current = await self.current(user_id)
        if current is None:
            raise ServiceError(t("service.vacation.not_away"), t("service.vacation.not_away_hint"))
        await self.cache.store.end_vacation(current, self.now())
        self.scheduled()  # the jobs it put off now fall due sooner
        after = await self.state(user_id)
        return VacationState(None, after.days_left, tuple(await self._waiting_for(user_id)))

    async def _waiting_for(self, user_id: int) -> list[Match]:
        """The user's matches in progress, in every server, where it is their turn."""
        rows, _ = await self.cache.store.matches_of(user_id, (Status.ACTIVE,))
        found = []
        for row in rows:
            with contextlib.suppress(CorruptMatch):  # listed and logged wherever it is shown
                found.append(self.cache.load(row))
        return [m for m in found if _mover_is(m, user_id)]

    async def away(self, match: Match) -> list[Away]:
        """The match's players on vacation now, in seat order."""
        people = [s for s in match.seats if s.engine is None]
        until = {
            v.user_id: v.ends_at
            for v in await self.cache.store.away([s.user_id for s in people], self.now())
        }
        return [Away(s, until[s.user_id]) for s in people if s.user_id in until]


def _mover_is(match: Match, user_id: int) -> bool:
    mover = match.to_move
    return mover is not None and mover.engine is None and mover.user_id == user_id


def _days(start: int, end: int) -> int:
    return math.ceil(max(0, end - start) / DAY)
