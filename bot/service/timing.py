"""How much time each player's clock holds, read and written around the clock model
(bot/service/clocks.py): a turn's jobs, a bank after a move, time given with /time give,
and the time left shown on boards. When a turn's clock starts is decided by deadlines.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from bot.clock import DAY, Clock
from bot.service import clocks
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, Turn
from bot.service.turns import Turns
from bot.service.vacations import Vacations
from bot.store import JobKind, SeatRow, Status
from bot.texts import t


@dataclass(frozen=True)
class Given:
    """Time given: to whom, how much, and their deadline now if it is their turn."""

    match: Match
    to: SeatRow
    days: int
    deadline: int | None


@dataclass(frozen=True)
class Left:
    """What a player's clock holds now; `running` for the player to move."""

    seat: SeatRow
    seconds: int
    running: bool
    paused: bool = False  # running, but stopped for the weekend now


def clock_terms(
    days: int, clock: str, increment: int | None, cap: int | None, weekends: str
) -> clocks.ClockTerms:
    """A challenge's clock as its options name it, checked: `clock` "bank" starts a bank
    with `days` (increment 1 and cap 7, or the days if more, unless given); `weekends`
    "off" stops either clock on weekends."""
    bank, weekends_off = clock == "bank", weekends == "off"
    if weekends_off and days == 0 and not bank:
        raise ServiceError(
            t("clocks.terms.weekends_no_limit"), t("clocks.terms.weekends_no_limit_hint")
        )
    if not bank:
        if increment is not None or cap is not None:
            raise ServiceError(t("clocks.terms.not_bank"), t("clocks.terms.not_bank_hint"))
        return clocks.ClockTerms(weekends_off=weekends_off)
    if days == 0:
        raise ServiceError(t("clocks.terms.bank_no_limit"), t("clocks.terms.bank_no_limit_hint"))
    increment = 1 if increment is None else increment
    cap = max(7, days) if cap is None else cap
    for given, least in ((increment, 0), (cap, 1)):
        if not least <= given <= clocks.MAX_DAYS:
            raise ServiceError(
                t("clocks.terms.range", least=least, most=clocks.MAX_DAYS, given=given),
                t("clocks.terms.range_hint"),
            )
    if cap < days:
        raise ServiceError(
            t("clocks.terms.cap", cap=cap, days=days), t("clocks.terms.cap_hint", days=days)
        )
    return clocks.ClockTerms(increment, cap, weekends_off)


class Timing:
    def __init__(self, cache: MatchCache, turns: Turns, vacations: Vacations, clock: Clock) -> None:
        self.cache = cache
        self.turns = turns
        self.vacations = vacations
        self.clock = clock
        self.scheduled: Callable[[], None] = lambda: None  # the scheduler's wake-up call

    def now(self) -> int:
        return int(self.clock.now())

    async def weekends(self, match: Match, seat: SeatRow) -> ZoneInfo | None:
        """The zone whose weekends stop this seat's clock (the player's own; the computer's
        and that of a player who set none is UTC), or None when weekends are not off."""
        if not match.row.weekends_off:
            return None
        name = (
            None
            if seat.engine is not None
            else (await self.cache.store.habits(seat.user_id)).time_zone
        )
        try:
            return clocks.zone(name)
        except ValueError:  # a name this machine's time zone database no longer has
            return clocks.UTC

    async def turn_jobs(self, match: Match, start: int) -> list[tuple[JobKind, int]]:
        """The jobs of the turn of the player to move, whose clock starts at `start`."""
        mover = match.to_move
        assert mover is not None
        held = clocks.held(match.row.banks, mover.seat)
        seconds = clocks.allowance(match.row.days_per_move, clocks.terms(match.row), held)
        times = clocks.turn_times(start, seconds, await self.weekends(match, mover))
        return _jobs(times)

    async def _running_left(self, match: Match, seat: SeatRow) -> int | None:
        """What the clock of the player to move holds now, None before it started."""
        due = await self.cache.store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
        if due is None:
            return None
        away = None if seat.engine is not None else await self.vacations.current(seat.user_id)
        start = max(self.now(), away.ends_at if away else 0)
        return clocks.running(start, due, await self.weekends(match, seat))

    async def spent(self, before: Match, saved: Match, turns: Sequence[Turn]) -> Match:
        """After a person's move in a match that goes on: their bank keeps what was left
        plus the increment; time given for a days-per-move turn is used up. Written just
        after the move (a stop in between leaves the bank as it was before the move)."""
        banks = await self._banks_after(before, turns)
        if banks is None or saved.status != Status.ACTIVE:
            return saved
        with self.cache.writing(saved.id):
            await self.cache.store.update_match(saved.id, saved.row.ply, banks=banks)
        return self.cache.remember(replace(saved, row=replace(saved.row, banks=banks)))

    async def _banks_after(
        self, match: Match, turns: Sequence[Turn]
    ) -> tuple[int | None, ...] | None:
        """The banks after the mover's turn, None when they do not change."""
        mover = match.to_move
        if (
            match.row.days_per_move == 0
            or mover is None
            or mover.engine is not None
            or not turns
            or turns[0].seat != mover.seat
            or turns[0].automatic
        ):
            return None
        terms = clocks.terms(match.row)
        seats = len(match.seats)
        held = clocks.held(match.row.banks, mover.seat)
        if not terms.bank:
            return clocks.with_held(match.row.banks, seats, mover.seat, 0) if held else None
        left = await self._running_left(match, mover)
        if left is None:  # moved before the board was posted (a premove): nothing spent
            left = clocks.allowance(match.row.days_per_move, terms, held)
        kept = clocks.after_move(left, terms)
        return clocks.with_held(match.row.banks, seats, mover.seat, kept)

    async def left(self, match: Match) -> list[Left]:
        """Each person's bank now, in seat order (bank clocks only; none otherwise)."""
        terms = clocks.terms(match.row)
        if not terms.bank or match.to_move is None:
            return []
        found = []
        for seat in match.seats:
            if seat.engine is not None:
                continue
            held = clocks.held(match.row.banks, seat.seat)
            seconds = clocks.allowance(match.row.days_per_move, terms, held)
            if seat.seat != match.to_move.seat:
                found.append(Left(seat, seconds, False))
                continue
            running = await self._running_left(match, seat)
            paused = clocks.paused(self.now(), await self.weekends(match, seat))
            found.append(Left(seat, seconds if running is None else running, True, paused))
        return found

    async def give(self, match_id: int, user_id: int, days: int) -> Given:
        """Give the opponent (in a two-player match) `days` more days: added to their clock
        now if it is running, else to what their next turn holds."""
        match = await self.cache.get(match_id)
        seat = self.turns.require_playing(match, user_id)
        if len(match.seats) != 2:
            raise ServiceError(t("clocks.give.two_players"), t("clocks.give.two_players_hint"))
        if match.row.days_per_move == 0:
            raise ServiceError(t("clocks.give.no_limit", game=match.title))
        if not 1 <= days <= clocks.MAX_DAYS:
            raise ServiceError(
                t("clocks.give.days", count=days), t("clocks.give.days_hint", most=clocks.MAX_DAYS)
            )
        other = match.at(3 - seat)
        if other.engine is not None:
            raise ServiceError(t("clocks.give.computer"))
        store = self.cache.store
        due = await store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
        to_move = match.to_move
        if to_move is not None and to_move.seat == other.seat and due is not None:
            weekends = await self.weekends(match, other)
            away = await self.vacations.current(other.user_id)
            start = max(self.now(), away.ends_at if away else 0)
            seconds = clocks.running(start, due, weekends) + days * DAY
            deadline = await self._moved(match, start, seconds, weekends)
            self.scheduled()
            return Given(match, other, days, deadline)
        held = clocks.held(match.row.banks, other.seat) or 0
        if clocks.terms(match.row).bank and clocks.held(match.row.banks, other.seat) is None:
            held = match.row.days_per_move * DAY
        banks = clocks.with_held(match.row.banks, 2, other.seat, held + days * DAY)
        with self.cache.writing(match.id):
            await store.update_match(match.id, match.row.ply, banks=banks)
        return Given(await self.cache.get(match.id), other, days, None)

    async def _moved(
        self, match: Match, start: int, seconds: int, weekends: ZoneInfo | None
    ) -> int:
        """Move the running turn's jobs to a clock holding `seconds` from `start`."""
        times = clocks.turn_times(start, seconds, weekends)
        await self.cache.store.move_jobs(match.id, match.row.ply, _jobs(times))
        return times.timeout


def _jobs(times: clocks.TurnTimes) -> list[tuple[JobKind, int]]:
    """A turn's jobs, those it has."""
    jobs = [
        (JobKind.REMINDER, times.reminder),
        (JobKind.LAST_REMINDER, times.last_reminder),
        (JobKind.TIMEOUT, times.timeout),
    ]
    return [(kind, due) for kind, due in jobs if due is not None]
