"""Time for the service and the scheduler, injected so tests and offline play control it.

Times are Unix seconds (floats), the unit of Discord's `<t:UNIX:R>` markup. `SystemClock`
reads the real time; `ManualClock` stands still until `advance` moves it, so nothing that
waits on it ever sleeps for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import Protocol

from bot.texts import Text, t

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
_UNITS = {"d": DAY, "h": HOUR, "m": MINUTE, "s": 1}
_DURATION = re.compile(r"(\d+)\s*([dhms])")


class Clock(Protocol):
    def now(self) -> float:
        """The current time in Unix seconds."""
        ...

    async def wait(self, woken: asyncio.Event, until: float | None) -> None:
        """Return when `woken` is set or, at the latest, when the time reaches `until`."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def wait(self, woken: asyncio.Event, until: float | None) -> None:
        delay = None if until is None else max(0.0, until - self.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), delay)


class ManualClock:
    """A clock that moves only when told to: time passes for whoever owns it, in one step."""

    def __init__(self, start: float) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += seconds

    async def wait(self, woken: asyncio.Event, until: float | None) -> None:
        """Time never passes while waiting; whoever advances the clock runs what fell due."""
        if until is None or until > self._now:
            await woken.wait()


def parse_duration(text: str) -> int:
    """`20h`, `3d`, `1d12h`, `30m` -> seconds. Raises ValueError whose message is a Text
    saying what is expected."""
    compact = text.strip().lower().replace(" ", "")
    parts = _DURATION.findall(compact)
    if not compact or "".join(n + u for n, u in parts) != compact:
        raise ValueError(t("settings.duration.not_a_duration", text=text.strip()))
    return sum(int(number) * _UNITS[unit] for number, unit in parts)


def describe_duration(seconds: float) -> Text:
    """`1 day 12 hours`, `45 minutes`: the two largest units, for players to read."""
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    units = (
        (days, t("settings.duration.days", count=days)),
        (hours, t("settings.duration.hours", count=hours)),
        (minutes, t("settings.duration.minutes", count=minutes)),
    )
    parts = [unit for count, unit in units if count]
    if len(parts) >= 2:
        return t("settings.duration.two_units", larger=parts[0], smaller=parts[1])
    return parts[0] if parts else t("settings.duration.under_a_minute")
