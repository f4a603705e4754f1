"""Time limits: each turn's deadline and reminders, challenge expiry, and what a job does
when it falls due. Every due action is a guarded write (the ply, or the status, it expects),
so a move that lands first wins and a job run twice acts once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.clock import DAY, Clock
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, Turn
from bot.service.offload import TooComplex
from bot.service.timing import Timing
from bot.service.turns import MoveResult, Turns
from bot.service.vacations import Vacations
from bot.store import JobKind, JobRow, SeatRow, Shards, Status

DAY_CHOICES = (1, 2, 3, 5, 7, 14, 0)  # days per move; 0 is no limit
DEFAULT_DAYS = 3
CHALLENGE_LIFETIME = 7 * DAY


@dataclass(frozen=True)
class Reminder:
    """A player to move whose time is running short."""

    match: Match
    seat: SeatRow
    deadline: int


class Deadlines:
    """Schedules jobs in the store and carries them out; knows the clock, not Discord."""

    def __init__(
        self, cache: MatchCache, turns: Turns, vacations: Vacations, timing: Timing, clock: Clock
    ) -> None:
        self.cache = cache
        self.timing = timing  # how much time each turn holds
        self.turns = turns
        self.vacations = vacations
        self.clock = clock
        self.scheduled: Callable[[], None] = lambda: None  # the scheduler's wake-up call

    def now(self) -> int:
        return int(self.clock.now())

    async def deadline(self, match: Match) -> int | None:
        """When the player to move must have moved, or None without a limit. The first call
        for a turn (the board post) starts its clock and schedules its reminders and
        timeout; later calls read the same time back. A player on vacation has their
        clock started when it ends; how much time it holds is `Timing`'s to say."""
        mover = match.to_move
        if mover is None or match.row.days_per_move == 0:
            return None
        store = self.cache.store
        due = await store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
        if due is not None:
            return due
        away = None if mover.engine is not None else await self.vacations.current(mover.user_id)
        start = max(self.now(), away.ends_at if away else 0)
        jobs = await self.timing.turn_jobs(match, start)
        await store.schedule(match.id, match.row.ply, jobs, away.id if away else None)
        self.scheduled()
        return await store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)

    async def expire_later(self, match: Match) -> int:
        """Schedule an open challenge's expiry; returns when it expires."""
        store = self.cache.store
        await store.schedule(match.id, 0, [(JobKind.EXPIRY, self.now() + CHALLENGE_LIFETIME)])
        self.scheduled()
        due = await store.due_time(match.id, JobKind.EXPIRY, 0)
        assert due is not None
        return due

    async def replay_later(self, match: Match) -> None:
        """Have the scheduler make and post the finished match's replay, once: a stop before
        it is posted leaves the job to the next start."""
        await self.cache.store.schedule(match.id, match.row.ply, [(JobKind.REPLAY, self.now())])
        self.scheduled()

    async def catch_up(self, shards: Shards | None = None) -> list[int]:
        """Schedule what a stop between a write and its scheduling left out, from now, for
        the matches of these shards' servers: a restart loses no deadline (the player gains
        the downtime). Returns the matches."""
        found = await self.cache.store.unscheduled(shards)
        for match_id in found:
            match = await self.cache.get(match_id)
            if match.status == Status.PENDING:
                await self.expire_later(match)
            else:
                await self.deadline(match)
        return found

    async def remind(self, job: JobRow) -> Reminder | None:
        """The reminder a due job asks for, or None when the player has moved since or
        the computer is to move (it moves at once and needs no reminding)."""
        match = await self.cache.get(job.match_id)
        mover = match.to_move
        if match.row.ply != job.ply or mover is None or mover.engine is not None:
            return None
        deadline = await self.cache.store.due_time(match.id, JobKind.TIMEOUT, job.ply)
        if deadline is None or deadline <= self.now():  # too late: the timeout follows
            return None
        return Reminder(match, mover, deadline)

    async def time_out(self, match_id: int, ply: int) -> MoveResult | None:
        """The player to move at `ply` loses on time (in 3-4 player Boost they leave and the
        others play on). None when the match moved on (a move landed first) or the computer
        is to move: its turns have deadlines, but it never loses on time."""
        match = await self.cache.get(match_id)
        mover = match.to_move
        if match.row.ply != ply or mover is None or mover.engine is not None:
            return None
        state = match.game.time_out(match.state, mover.seat)
        lost = Turn(mover.seat, mover.user_id, f"timeout {mover.seat}")
        try:
            return await self.turns.advance(match, state, [lost])
        except TooComplex:  # the passes after it overran their budget: a failure, logged
            raise
        except ServiceError:  # the ply check refused the write: a move landed first
            return None

    async def expire(self, match_id: int) -> Match | None:
        """Close a challenge nobody answered in time; None if it was answered first."""
        match = await self.cache.get(match_id)
        if match.status != Status.PENDING:
            return None
        try:
            with self.cache.writing(match.id):
                await self.cache.store.update_match(
                    match.id,
                    match.row.ply,
                    expected_status=Status.PENDING,
                    status=Status.WITHDRAWN,
                    expired_at=self.now(),
                )
        except ServiceError:
            return None
        return await self.cache.get(match.id)
