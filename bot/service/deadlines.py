"""Time limits: each turn's deadline and reminders, challenge expiry, and what a job does
when it falls due. A turn's clock starts when its board is posted (Discord took it), never
before: see `clock_starts`. Every due action is a guarded write (the ply, or the status, it
expects), so a move that lands first wins and a job run twice acts once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.clock import DAY, Clock
from bot.service import clocks
from bot.service.cache import MatchCache
from bot.service.clocks import LAST_WARNING
from bot.service.delivery import retry_delay
from bot.service.matches import Match, ServiceError, Turn
from bot.service.offload import TooComplex
from bot.service.timing import Timing
from bot.service.turns import MoveResult, Turns
from bot.service.vacations import Vacations
from bot.store import JobKind, JobRow, SeatRow, Shards, Status, VacationRow

DAY_CHOICES = (1, 2, 3, 5, 7, 14, 0)  # days per move; 0 is no limit
DEFAULT_DAYS = 3
CHALLENGE_LIFETIME = 7 * DAY


@dataclass(frozen=True)
class TurnClock:
    """A turn's time limit as its board shows it: due at `due`; `started` once its
    reminders and timeout are scheduled; else `jobs` are those to schedule when its board
    is posted (put off by vacation `vacation_id`, if any; how long: `Timing`'s to say)."""

    ply: int
    due: int
    vacation_id: int | None
    started: bool
    jobs: tuple[tuple[JobKind, int], ...] = ()


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
        """When the player to move must have moved: None without a limit, or while their
        clock has not started (their board is not posted yet)."""
        if match.to_move is None or match.row.days_per_move == 0:
            return None
        return await self.cache.store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)

    async def clock_starts(self, match: Match, posted_at: int) -> tuple[int, VacationRow | None]:
        """When the player to move starts using time, their board posted at `posted_at`:
        then, or when their vacation ends if later (the vacation that put it off is
        returned with it). The one place that decides it: the time their board was
        missing is never charged to them."""
        mover = match.to_move
        assert mover is not None
        away = None if mover.engine is not None else await self.vacations.current(mover.user_id)
        return max(posted_at, away.ends_at if away else 0), away

    async def upcoming(self, match: Match) -> TurnClock | None:
        """The clock of the turn whose board is about to be posted, to show on it: the
        one running already (the board is posted again), else one starting now, which
        `start_clock` starts once Discord has taken the post. None without a limit."""
        mover = match.to_move
        if mover is None or match.row.days_per_move == 0:
            return None
        due = await self.cache.store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
        if due is not None:
            return TurnClock(match.row.ply, due, None, started=True)
        start, away = await self.clock_starts(match, self.now())
        jobs = tuple(await self.timing.turn_jobs(match, start))
        due = next(at for kind, at in jobs if kind == JobKind.TIMEOUT)
        return TurnClock(match.row.ply, due, away.id if away else None, False, jobs)

    async def start_clock(self, match: Match, clock: TurnClock) -> int:
        """Schedule the turn's reminders and timeout as its posted board shows them (a
        clock started already keeps its times); returns the deadline."""
        if not clock.started:
            await self.cache.store.schedule(match.id, clock.ply, clock.jobs, clock.vacation_id)
            self.scheduled()
        due = await self.cache.store.due_time(match.id, JobKind.TIMEOUT, clock.ply)
        assert due is not None  # just scheduled, or read back
        return due

    async def post_later(self, match_id: int, kind: JobKind, ply: int) -> None:
        """Keep a post Discord did not take as a job (BOARD or ANALYSIS), tried again after
        `retry_delay(0)`."""
        await self.cache.store.post_later(match_id, kind, ply, self.now() + retry_delay(0))
        self.scheduled()

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
        """Schedule what a stop left out, for the matches of these shards' servers: a BOARD
        job due now for each turn saved but never shown (its clock starts when it is
        posted), and the expiry of each open challenge without one, from now. Returns the
        challenges."""
        store = self.cache.store
        if await store.boards_due(self.now(), shards):
            self.scheduled()
        found = await store.unscheduled(shards)
        for match_id in found:
            match = await self.cache.get(match_id)
            if match.status == Status.PENDING:
                await self.expire_later(match)
        return found

    async def remind(self, job: JobRow) -> Reminder | None:
        """The reminder a due job asks for, or None when the player has moved since, the
        computer is to move (it moves at once and needs no reminding), or it comes too late
        (the bot was down: the timeout follows). A reminder Discord refused before still
        gives its player LAST_WARNING from when it comes: it says that deadline, which
        `reminded` keeps once it is sent."""
        match = await self.cache.get(job.match_id)
        mover = match.to_move
        if match.row.ply != job.ply or mover is None or mover.engine is not None:
            return None
        store = self.cache.store
        deadline = await store.due_time(match.id, JobKind.TIMEOUT, job.ply)
        if deadline is None:
            return None
        if job.attempts:
            if job.kind == JobKind.REMINDER:  # held back until the last one is due: one will do
                last = await store.due_time(match.id, JobKind.LAST_REMINDER, job.ply)
                if last is not None and last <= self.now():
                    return None
            owed = await self._warning_ends(match, mover, self.now())
            return Reminder(match, mover, max(deadline, owed))
        if deadline <= self.now():
            return None
        return Reminder(match, mover, deadline)

    async def reminded(self, reminder: Reminder) -> None:
        """The reminder reached its player: their deadline is the one it said."""
        match = reminder.match
        due = await self.cache.store.due_time(match.id, JobKind.TIMEOUT, match.row.ply)
        if due is not None and due < reminder.deadline:
            jobs = [(JobKind.TIMEOUT, reminder.deadline)]
            await self.cache.store.move_jobs(match.id, match.row.ply, jobs)
            self.scheduled()

    async def warned(self, job: JobRow) -> int | None:
        """None if the TIMEOUT `job` may act now; else when to look again (its deadline as
        shown meanwhile): Discord refused its player's last reminder, which is still being
        tried (an hour from now, at least), or reached them late and gives them
        LAST_WARNING from then. Nobody loses on time unwarned because Discord
        failed (a reminder the bot was down for is skipped, as the timeout is not)."""
        store = self.cache.store
        for kind in (JobKind.LAST_REMINDER, JobKind.REMINDER):
            progress = await store.progress(job.match_id, kind, job.ply)
            if progress is None:
                continue
            finished, refusals = progress
            if not refusals:
                return None
            match = await self.cache.get(job.match_id)
            mover = match.to_move
            if match.row.ply != job.ply or mover is None:
                return None
            if finished is None:  # its deadline reads an hour off while it is tried again
                return await self._warning_ends(match, mover, self.now())
            owed = await self._warning_ends(match, mover, finished)
            return owed if owed > self.now() else None
        return None

    async def _warning_ends(self, match: Match, seat: SeatRow, start: int) -> int:
        """When LAST_WARNING from `start` runs out on this seat's clock (never on a weekend
        it stops for)."""
        weekends = await self.timing.weekends(match, seat)
        return clocks.deadline_after(start, LAST_WARNING, weekends)

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
