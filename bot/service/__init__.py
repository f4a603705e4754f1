"""The match service: who may do what to a match, decided here and nowhere else.

It knows the rules API and the store, and nothing of Discord: users are snowflake ids with
a display name, and every answer is a result object or a `ServiceError` whose message and
hint are sentences of the catalogue (bot/texts/en.toml [service]), as the player reads them.
Cogs only translate.

One module per concern; new behaviour goes into the module whose job it is:

    matches     the values handed out (Match, Player, Turn) and ServiceError
    cache       loading matches through a cache, forgetting them around writes, per-match locks
    challenges  checking, opening, accepting, declining and withdrawing challenges
    turns       moves, resignations, draws: turn checks, automatic passes, the guarded save
    queries     reads: by thread, a user's listing, the match a command means, the record
    ratings     counting finished matches once; leaderboards, profiles, histories, replays
    hints       legal-move suggestions and hints (pure functions)
    deadlines   time limits: deadlines, reminders, timeouts and challenge expiry
    clocks      the clock model (pure): time per turn, banks, weekends off in a zone
    timing      what each clock holds: a turn's jobs, banks after moves, time given
    notes       each person's private note on a match
    confirming  a typed move checked and shown before it is played (confirm-move)
    takebacks   undoing the last move when every other player agrees
    vacations   a player's clocks stopped in every server while away
    following   who gets a match's boards by DM without playing in it
    premoves    conditional moves: lines of expected replies, answered the moment they come
    offload     rules work in worker threads, each call with a time budget
    picker      the guided move picker's steps, from the match and the path chosen
    audit       replaying every log against its snapshot
    settings    how each member sees boards, each server's defaults, who may change them
    stale       why a component no longer on its message does nothing
    tournaments entries, rounds opened as matches, results from the finished hook, standings
    analysis    computer analyses of finished matches: requests, the queue, stored readings
    aborts      ending a match before every player has moved: no result, unrated
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.clock import Clock, SystemClock
from bot.service.aborts import Aborts
from bot.service.analysis import Analyses
from bot.service.audit import Audit
from bot.service.cache import MatchCache
from bot.service.challenges import AcceptResult, ChallengeRequest, Challenges, RematchResult
from bot.service.confirming import Confirming
from bot.service.deadlines import Deadlines, Reminder
from bot.service.following import Following
from bot.service.limits import MemberLimits
from bot.service.matches import Match, Player, ServiceError, Turn, Viewer, refusal
from bot.service.notes import Notes
from bot.service.offload import Offload, TooComplex
from bot.service.picker import OutOfDate, Picker, PickerStep
from bot.service.premoves import PremoveLines, Premoves
from bot.service.queries import Listing, Queries, Waiting
from bot.service.ratings import Leaderboard, Profile, Ratings
from bot.service.settings import ServerChange, Settings, View
from bot.service.stale import Stale
from bot.service.takebacks import Takeback, Takebacks
from bot.service.timing import Timing
from bot.service.tournaments import Tournaments
from bot.service.turns import DrawResult, MoveResult, Turns
from bot.service.vacations import Away, Vacations, VacationState
from bot.store import Status, Store

__all__ = [
    "AcceptResult",
    "Away",
    "ChallengeRequest",
    "DrawResult",
    "Leaderboard",
    "Listing",
    "Match",
    "MatchService",
    "MoveResult",
    "Offload",
    "OutOfDate",
    "PickerStep",
    "Player",
    "PremoveLines",
    "Profile",
    "RematchResult",
    "Reminder",
    "ServerChange",
    "ServiceError",
    "Status",
    "Takeback",
    "TooComplex",
    "Turn",
    "VacationState",
    "View",
    "Viewer",
    "Waiting",
    "refusal",
]


class MatchService:
    """Wires the concerns to one store; callers reach each operation through its concern.

    Only wiring belongs here (`service.turns.move`, `service.cache.lock`, ...): a new concern
    is one more attribute, and no operation gets a second name.
    """

    def __init__(
        self,
        store: Store,
        *,
        seeds: Callable[[], int] | None = None,
        offload: Offload | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.cache = MatchCache(store)
        self.offload = offload or Offload()
        self.queries = Queries(self.cache, self.offload)
        self.ratings = Ratings(self.cache, self.queries)
        self.turns = Turns(self.cache, self.offload, finished=self._finished)
        self.limits = MemberLimits(self.cache)
        self.challenges = Challenges(
            self.cache, self.turns, seeds or (lambda: random.randrange(2**31)), self.limits
        )
        clock = clock or SystemClock()
        self.vacations = Vacations(self.cache, clock)
        self.timing = Timing(self.cache, self.turns, self.vacations, clock)
        self.turns.spent = self.timing.spent
        self.deadlines = Deadlines(self.cache, self.turns, self.vacations, self.timing, clock)
        self.following = Following(self.cache)
        self.takebacks = Takebacks(self.cache, self.queries)
        self.premoves = Premoves(self.cache, self.turns, self.offload)
        self.turns.answers = self.premoves.reply
        self.picker = Picker(self.cache, self.offload)
        self.audit = Audit(self.cache, self.queries)
        self.settings = Settings(store)
        self.stale = Stale(self.cache)
        self.tournaments = Tournaments(self.cache, self.challenges, self.turns)
        self.analyses = Analyses(self.cache, self.ratings, self.deadlines, clock, self.limits)
        self.aborts = Aborts(self.cache, self.turns, clock)
        self.notes = Notes(self.cache)
        self.confirming = Confirming(self.cache, self.offload)

    async def _finished(self, match: Match) -> None:
        """Every match a turn, a draw or a timeout ends: rated, then counted in its
        tournament (each step catches its own failure, so one cannot stop the other)."""
        await self.ratings.rate_quietly(match)
        await self.tournaments.finished_quietly(match)
