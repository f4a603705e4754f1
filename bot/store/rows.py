"""The values the store hands out: its rows, and the closed sets they name (statuses,
job kinds, tournament stages), the same on every backend."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """Where a match is in its life. Declared in lifecycle order: a match only moves forward
    (pending, then active or declined or withdrawn; active, then finished, or withdrawn when
    aborted before every player had moved: `MatchRow.aborted_at` tells the two apart)."""

    PENDING = "pending"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"


class JobKind(StrEnum):
    """What a scheduled job does when it falls due (`jobs.kind`)."""

    REMINDER = "reminder"
    """A quarter of the player's time is left: remind them."""
    LAST_REMINDER = "last-reminder"
    """One hour is left: remind them again."""
    TIMEOUT = "timeout"
    """The deadline passed: the player to move loses on time."""
    EXPIRY = "expiry"
    """A challenge went unanswered too long: close it."""
    REPLAY = "replay"
    """The match ended: make its replay GIF in a worker and post it after the result."""
    BOARD = "board"
    """Discord did not take a turn's board (or result): post it again. The clock of the
    player to move starts only when it is posted."""
    CLOSING = "closing"
    """Discord did not take the post saying a match was aborted: post it again."""
    ANALYSIS = "analysis"
    """Discord did not take a judged analysis's results: post them again; the analysis is
    finished only once they are posted."""


# The statuses as the schema's CHECK constraint lists them.
STATUSES = tuple(map(str, Status))

OPEN_SEAT = 0
"""The user id of a seat of an open challenge that nobody has taken yet (never a snowflake)."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    accepted: bool
    engine: int | None = None  # the computer's level, in a seat it plays

    @property
    def free(self) -> bool:
        """An open challenge's seat that anyone may still take."""
        return self.user_id == OPEN_SEAT


@dataclass(frozen=True)
class MatchRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    challenge_message_id: int | None
    board_message_id: int | None
    game: str
    variant: str
    seed: int
    status: Status
    ply: int
    snapshot: str
    outcome: dict[str, Any] | None
    draw_offer: int | None
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...]
    days_per_move: int = 0  # 0: no time limit
    expired_at: int | None = None  # when an unanswered challenge expired (Unix seconds)
    rated: bool = True  # False for `/challenge ... rated:false` and games against the bot
    board_ply: int | None = None  # the ply whose board was last posted
    challenger: int = 1  # the seat of whoever made the challenge (may withdraw it)
    rematch_of: int | None = None  # the finished match this challenge repeats
    start: str | None = None  # the diagram the match began from; None: the game's setup
    aborted_at: int | None = None  # when a started match was aborted (status withdrawn)
    aborted_by: int | None = None  # the user who aborted it (None: a first move timed out)
    draw_message_id: int | None = None  # the post of the draw offer standing (or lapsed)
    clock_increment: int = 0  # days a move adds to a bank (bot/service/clocks.py)
    clock_cap: int = 0  # days a bank may reach by increments; 0: days per move, no bank
    weekends_off: bool = False  # every clock stops on Saturdays and Sundays
    banks: tuple[int | None, ...] = ()  # seconds per seat: the bank, or time given


@dataclass(frozen=True)
class RatingRow:
    """A player's standing in one game on one server: the openskill rating (mu, sigma) and
    the counts shown beside it. `streak` counts wins in a row (positive) or losses (negative)."""

    game: str
    user_id: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0


@dataclass(frozen=True)
class RatingChange:
    """What one rated match did to one player's rating: mu and sigma before (None for a
    newcomer's first match) and after, and the games counted once it was."""

    user_id: int
    mu_before: float | None
    sigma_before: float | None
    mu: float
    sigma: float
    games: int


# Given the current standings of a match's players (by user id; newcomers absent), the new ones.
RatingUpdate = Callable[[Mapping[int, RatingRow]], Sequence[RatingRow]]


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    notation: str
    played_at: str


@dataclass(frozen=True)
class JobRow:
    """A scheduled job as its claimer gets it; times are Unix seconds, as the clock gives."""

    id: int
    match_id: int
    kind: JobKind
    ply: int  # the match must still be at this ply for the job to act
    due_at: int
    attempts: int = 0  # how often it ran and was refused (a post Discord did not take)


@dataclass(frozen=True)
class Shards:
    """The Discord shards one process runs, out of `count`. Discord sends a server's events
    to shard `(guild_id >> 22) % count` and direct messages to shard 0; the process holding
    that shard is the one that acts for the server's matches."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int | None, count: int) -> int:
    """Discord's formula: which of `count` shards a server's events arrive on."""
    return 0 if guild_id is None else (guild_id >> 22) % count


@dataclass(frozen=True)
class PremoveRow:
    """A player's premove lines, valid while the match is still at `ply`."""

    ply: int
    lines: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class PreferenceRow:
    dm: bool = False
    dm_refused: bool = False
    theme: str | None = None  # a renderers.THEMES name; None: the default
    flip: bool = True  # boards of their own matches drawn from their side
    large: bool = False  # their private boards in halves, for phones (renderers/large.py)
    locale: str | None = None  # Discord's locale of their last interaction; None: never seen
    installed: bool = False  # seen using the app through their own account's install


@dataclass(frozen=True)
class HabitRow:
    """How a person plays: their time zone (IANA; None: UTC) and whether a typed move is
    shown to them to confirm before it is played."""

    time_zone: str | None = None
    confirm: bool = False


@dataclass(frozen=True)
class ServerRow:
    """A server's defaults; None means the bot's own default."""

    guild_id: int
    theme: str | None = None
    orientation: str = "first"  # thread posts: 'first' (seat 1 at the bottom) or 'mover'
    days: int | None = None
    games: tuple[str, ...] | None = None  # the games that may be challenged; None: all
    channel_id: int | None = None  # where challenges are made
    language: str | None = None  # one of bot.texts.LANGUAGES; None: the server's own locale
    locale: str | None = None  # Discord's locale of the server, as its last interaction gave it


@dataclass(frozen=True)
class VacationRow:
    """A stretch of time a player's clocks stop (Unix seconds); `ends_at` is brought
    forward when it is ended early."""

    id: int
    user_id: int
    started_at: int
    ends_at: int


class Stage(StrEnum):
    """Where a tournament is in its life (`tournaments.stage`)."""

    OPEN = "open"
    """Taking entries."""
    RUNNING = "running"
    """Playing its rounds."""
    FINISHED = "finished"
    """Over: its standings are final."""


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game: str
    variant: str
    system: str  # bot.service.pairing.System
    rounds: int  # Swiss: asked for (0: the default) until the start fixes it
    days_per_move: int
    max_players: int
    rated: bool
    double: bool
    stage: Stage
    round: int  # the round being played; 0 before the start
    entry_message_id: int | None
    created_at: str
    cancelled_at: str | None = None  # set when its creator or an admin cancelled it
    clock_increment: int = 0  # its matches' clock (see MatchRow)
    clock_cap: int = 0
    weekends_off: bool = False


@dataclass(frozen=True)
class EntrantRow:
    """An entrant; `seed` is their place in the order of entry (1 first): the pairing order."""

    user_id: int
    name: str
    seed: int
    withdrawn: bool


@dataclass(frozen=True)
class BoardRow:
    """One board of a tournament round: `second_id` None is a bye; `points` are `first_id`'s
    (1, 0.5 or 0) once the game has ended, and 1 for a bye."""

    round: int
    board: int
    first_id: int
    second_id: int | None
    match_id: int | None
    points: float | None


@dataclass(frozen=True)
class AnalysisRow:
    """A computer analysis asked for: the progress message, how many positions the match
    has, the readings stored so far (position -> JSON) and whether it is complete."""

    match_id: int
    requested_by: int
    message_id: int | None
    positions: int
    readings: Mapping[int, str]
    finished: bool
