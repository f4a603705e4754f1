"""The clock model, as pure functions of times (Unix seconds) and terms: how much time a turn
holds, when it is due given when it started, and the weekends a clock stops for.

Two clocks (the match's `ClockTerms`):
- days per move: each turn holds the match's days, plus any time given to the player;
- a bank (Fischer in days): each player starts with the match's days in a bank; a turn holds
  the whole bank, and a move leaves in it what was not spent plus the increment, the
  increment never taking it above the cap (time given by the opponent is kept whole).

With weekends off, a clock stands still from Saturday 00:00 to Monday 00:00 in the time zone
of the player whose clock it is (UTC for a player who set none): their time only runs on
weekdays, and no deadline falls on a weekend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.clock import DAY, HOUR
from bot.store import MatchRow, TournamentRow

UTC = ZoneInfo("UTC")
SATURDAY = 5  # datetime.weekday()
LAST_WARNING = HOUR  # the last reminder comes when this much of a turn's time is left
MAX_DAYS = 30  # the most a bank's days, increment or cap may be, and the most one gift gives


@dataclass(frozen=True)
class ClockTerms:
    """How a match's clocks run besides its days: a bank when `cap` > 0, and weekends."""

    increment: int = 0  # days a move adds to a bank
    cap: int = 0  # days a bank may reach by increments; 0: the days are per move
    weekends_off: bool = False

    @property
    def bank(self) -> bool:
        return self.cap > 0


DAYS_PER_MOVE = ClockTerms()
"""The plain clock: the match's days for each move, every day of the week."""


def terms(row: MatchRow | TournamentRow) -> ClockTerms:
    return ClockTerms(row.clock_increment, row.clock_cap, row.weekends_off)


@dataclass(frozen=True)
class TurnTimes:
    """When a turn's reminders fall due and when it times out (Unix seconds)."""

    reminder: int | None  # three quarters of the turn's time spent
    last_reminder: int | None  # LAST_WARNING left
    timeout: int


def zone(name: str | None) -> ZoneInfo:
    """The IANA time zone of this name, UTC for none; ValueError for a name not known."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(name) from error


def zone_names() -> list[str]:
    """Every IANA time zone name this machine knows, sorted (for autocomplete)."""
    return sorted(available_timezones())


def paused(at: float, weekends: ZoneInfo | None) -> bool:
    """Whether a clock that stops on weekends in this zone stands still at `at`."""
    return weekends is not None and datetime.fromtimestamp(at, weekends).weekday() >= SATURDAY


def _midnight(at: float, weekends: ZoneInfo, days_ahead: int) -> int:
    """Local midnight `days_ahead` days after the day of `at`, as a Unix time."""
    day = datetime.fromtimestamp(at, weekends).date() + timedelta(days=days_ahead)
    return int(datetime(day.year, day.month, day.day, tzinfo=weekends).timestamp())


def _next_pause(at: float, weekends: ZoneInfo) -> tuple[int, int]:
    """The next weekend (start, end) not yet over at `at`: Saturday 00:00 to Monday 00:00."""
    weekday = datetime.fromtimestamp(at, weekends).weekday()
    start = _midnight(at, weekends, SATURDAY - weekday)  # this week's Saturday (maybe past)
    end = _midnight(at, weekends, 7 - weekday)
    return start, max(end, int(at) + 1)  # a zone's odd midnight never makes time stand still


def deadline_after(start: float, seconds: int, weekends: ZoneInfo | None) -> int:
    """When a clock started at `start` with `seconds` to run has run out: never on a
    weekend when it stops for them (time left at Saturday 00:00 runs on from Monday)."""
    at, left = int(start), max(0, seconds)
    if weekends is None:
        return at + left
    while True:
        pause, resume = _next_pause(at, weekends)
        if at < pause and at + left < pause:
            return at + left
        left -= max(0, pause - at)
        at = resume


def running(start: float, end: float, weekends: ZoneInfo | None) -> int:
    """How many seconds a clock runs between `start` and `end` (0 if `end` is not later)."""
    at, stop = int(start), int(end)
    if weekends is None:
        return max(0, stop - at)
    total = 0
    while at < stop:
        pause, resume = _next_pause(at, weekends)
        if at < pause:
            total += min(stop, pause) - at
            at = pause
        else:
            at = resume
    return total


def turn_times(start: float, seconds: int, weekends: ZoneInfo | None) -> TurnTimes:
    """A turn's jobs, for a clock started at `start` holding `seconds`: a reminder when a
    quarter of its time is left and a last one an hour before the end, each only if it
    falls after the start."""
    timeout = deadline_after(start, seconds, weekends)
    reminder = deadline_after(start, seconds - seconds // 4, weekends)
    last = deadline_after(start, seconds - LAST_WARNING, weekends) if seconds > LAST_WARNING else 0
    return TurnTimes(
        reminder if start < reminder < timeout else None,
        last if start < last < timeout else None,
        timeout,
    )


def allowance(days: int, terms: ClockTerms, held: int | None) -> int:
    """The seconds a turn holds: a bank's content (its days before the first move), or the
    days per move plus whatever the player was given."""
    if terms.bank:
        return days * DAY if held is None else held
    return days * DAY + (held or 0)


def after_move(left: int, terms: ClockTerms) -> int:
    """What a player's bank holds after a move with `left` seconds unspent: the increment
    added, never past the cap by the increment (time above it, given, is kept)."""
    return max(left, min(left + terms.increment * DAY, terms.cap * DAY))


def held(banks: Sequence[int | None], seat: int) -> int | None:
    """What a seat's bank holds (days per move: the time it was given), None if untouched."""
    return banks[seat - 1] if seat <= len(banks) else None


def with_held(
    banks: Sequence[int | None], seats: int, seat: int, seconds: int
) -> tuple[int | None, ...]:
    """The banks of a match of `seats` seats with this seat's set to `seconds`."""
    padded = [*banks, *[None] * (seats - len(banks))]
    padded[seat - 1] = seconds
    return tuple(padded)
