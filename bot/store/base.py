"""What every storage backend offers: the `Store` interface, its row types and errors.

The service and the admin tools speak only to this interface, so the same code runs on the
embedded SQLite file and on a shared PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol


class Status(StrEnum):
    """Where a match is in its life. Declared in lifecycle order: a match only moves forward
    (pending, then active or declined or withdrawn; active, then finished)."""

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


# The statuses as the schema's CHECK constraint lists them.
STATUSES = tuple(map(str, Status))

UPDATABLE = frozenset(
    {"thread_id", "challenge_message_id", "board_message_id", "status", "ply", "snapshot"}
    | {"outcome", "draw_offer", "expired_at", "board_ply"}
)


class StoreError(Exception):
    """Base of the storage errors the service turns into messages."""


class StaleWrite(StoreError):
    """The match moved on since it was read: someone else's command landed first."""


class CorruptMatch(StoreError):
    """A match row that cannot be read; reported and skipped, never fatal."""


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

    @property
    def ordinal(self) -> float:
        """The conservative rating shown as one number (mu - 3 sigma, openskill's ordinal);
        the SQL that ranks players computes the same expression."""
        return self.mu - 3 * self.sigma


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


@dataclass(frozen=True)
class ServerRow:
    """A server's defaults; None means the bot's own default."""

    guild_id: int
    theme: str | None = None
    orientation: str = "first"  # thread posts: 'first' (seat 1 at the bottom) or 'mover'
    days: int | None = None
    games: tuple[str, ...] | None = None  # the games that may be challenged; None: all
    channel_id: int | None = None  # where challenges are made


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


class Store(Protocol):
    """Matches, their seats and move logs, preferences, takeback votes, scheduled jobs and
    tournaments.

    Every write that changes a match names the ply (log length) it expects, so of two writes
    racing on one match, from one process or many, only the first lands; the other raises
    StaleWrite and changes nothing.
    """

    backend: str  # "sqlite" or "postgresql", for messages
    shared: bool
    """Other processes write this database too (PostgreSQL): a match cached in memory may be
    out of date, so it is read again before use. A SQLite file has one process."""

    async def close(self) -> None: ...

    async def get_match(self, match_id: int) -> MatchRow | None: ...

    async def match_in_thread(self, thread_id: int) -> int | None:
        """The id of the match played in this thread, if any."""
        ...

    async def matches_of(
        self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        """A user's matches in the given statuses; unreadable ones come back as errors."""
        ...

    async def server_matches(
        self, guild_id: int, statuses: Sequence[str], limit: int
    ) -> tuple[list[MatchRow], list[CorruptMatch]]:
        """Up to `limit` of a server's matches in the given statuses, the most recently
        played first (for choosing one to follow); unreadable ones come back as errors."""
        ...

    async def match_ids(self) -> list[int]: ...

    async def history(
        self, user_id: int, guild_id: int | None, game: str | None, *, limit: int, offset: int
    ) -> tuple[list[MatchRow], list[CorruptMatch], int]:
        """One page of a user's finished matches (on a server, in a game, if given), newest
        first, the unreadable ones as errors, and how many there are in all."""
        ...

    async def unposted_boards(self, shards: Shards | None = None) -> list[int]:
        """Started matches (on these shards' servers; None: all) whose latest turn was
        saved but its board never posted."""
        ...

    async def matches_with_engines(self, shards: Shards | None = None) -> list[int]:
        """The ids of the matches in progress (on these shards' servers) where the computer
        holds a seat."""
        ...

    async def moves(self, match_id: int) -> list[MoveRow]: ...

    async def create_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        variant: str,
        seed: int,
        snapshot: str,
        seats: Sequence[tuple[int, str, bool, int | None]],
        days_per_move: int = 0,
        rated: bool = True,
        challenger: int = 1,
        rematch_of: int | None = None,
    ) -> int:
        """A pending challenge; seats are (user id, name, accepted, the computer's level or
        None for a person) in turn order; `challenger` is the seat of whoever made it."""
        ...

    async def update_match(
        self, match_id: int, expected_ply: int, *, expected_status: str | None = None, **fields: Any
    ) -> None:
        """Change match columns if the match is still at `expected_ply` (and status), else
        StaleWrite."""
        ...

    async def accept_seat(
        self, match_id: int, seat: int, taker: tuple[int, str] | None = None
    ) -> bool:
        """Mark one seat of a pending match accepted (given to `taker`, a user id and name,
        when it is an open seat); the last acceptance starts the match in the same
        transaction. Returns whether it started."""
        ...

    async def rematch(self, match_id: int) -> int | None:
        """The newest challenge made as a rematch of this match, if any."""
        ...

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[tuple[int, str]],
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
        draw_offer: int | None,
    ) -> str:
        """Log (seat, notation) turns after `expected_ply` with the match's new snapshot and
        fields in one atomic write, returning the time stamped on the match."""
        ...

    async def rewind(
        self,
        match_id: int,
        expected_ply: int,
        target_ply: int,
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Undo the turns after `target_ply` in one transaction: the log loses them, the match
        gets the earlier snapshot, and jobs and takeback votes from those plies go.
        StaleWrite if the match is no longer at `expected_ply`."""
        ...

    # -- scheduled jobs: one row per (match, kind, ply), claimed by one process at a time --

    async def schedule(
        self,
        match_id: int,
        ply: int,
        jobs: Sequence[tuple[JobKind, int]],
        vacation_id: int | None = None,
    ) -> None:
        """Record (kind, due time) jobs for the match at this ply, once: scheduling again is a
        no-op, so the first call fixes the times. Unclaimed jobs of earlier plies go, unrun.
        `vacation_id`: the times were put off by this vacation (see `end_vacation`)."""
        ...

    async def due_time(self, match_id: int, kind: JobKind, ply: int) -> int | None: ...

    async def next_due(self, lease: int, shards: Shards | None = None) -> int | None:
        """The earliest time a job (of a match on these shards' servers) falls due, or a
        claim older than `lease` seconds goes stale (see `recover_claims`), if any job is
        unfinished."""
        ...

    async def claim_job(self, owner: str, at: int, shards: Shards | None = None) -> JobRow | None:
        """Claim the earliest unclaimed job due by `at`, of a match on these shards'
        servers, for `owner` (a process name), in one statement: of any number of claimers,
        in any number of processes, exactly one gets each job. None when nothing is due."""
        ...

    async def renew_claims(self, owner: str, job_ids: Sequence[int], at: int) -> None:
        """Stamp `owner`'s claims on these running jobs with `at`, so no lease runs out
        while they work."""
        ...

    async def finish_job(self, job_id: int, owner: str, at: int) -> None:
        """Record that the job is done, if `owner` still holds its claim."""
        ...

    async def recover_claims(
        self,
        retry: Sequence[JobKind],
        *,
        at: int,
        lease: int,
        owner: str | None = None,
        shards: Shards | None = None,
    ) -> int:
        """Claims never finished, by a process that died: those older than `lease` seconds,
        and any by `owner` (this process, restarted), of matches on these shards' servers.
        Jobs of the `retry` kinds are released to run again (their writes are guarded, so a
        second run acts at most once); the rest count as done, since acting twice (a second
        reminder) is worse than not at all. Returns how many claims were recovered."""
        ...

    async def prune_jobs(self, before: int) -> int:
        """Forget the jobs finished before `before`; how many went."""
        ...

    async def unscheduled(self, shards: Shards | None = None) -> list[int]:
        """Matches (on these shards' servers) that should have jobs and have none (a stop
        between a write and its scheduling): active ones with a time limit, and pending
        challenges."""
        ...

    # -- vacations: one player's clocks stopped, in every server ---------------------------

    async def vacations(self, user_id: int, since: int) -> list[VacationRow]:
        """The user's vacations that end after `since`, oldest first."""
        ...

    async def away(self, user_ids: Sequence[int], at: int) -> list[VacationRow]:
        """The vacations of these users under way at `at`."""
        ...

    async def start_vacation(self, user_id: int, start: int, end: int) -> int | None:
        """Record a vacation from `start` to `end`; None (and nothing recorded) when the user
        is on one at `start` already."""
        ...

    async def pause_jobs(self, match_id: int, ply: int, vacation_id: int, by: int) -> int:
        """Put off the match's unclaimed jobs at `ply` by `by` seconds for this vacation,
        unless it put them off already; how many moved."""
        ...

    async def end_vacation(self, vacation: VacationRow, at: int) -> bool:
        """End a vacation at `at`, before its planned end, and bring the unclaimed jobs it put
        off forward by the time left, in one transaction; False if it was over already."""
        ...

    # -- followers ----------------------------------------------------------------------

    async def follow(self, match_id: int, user_id: int, wanted: bool) -> bool:
        """Start (or with `wanted` False, stop) following a match; False if nothing
        changed."""
        ...

    async def followers(self, match_id: int) -> list[int]: ...

    # -- preferences and takeback votes ------------------------------------------------------

    async def preferences(self, user_id: int) -> PreferenceRow: ...

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        """Choose direct messages on or off; either way, forget an earlier refusal."""
        ...

    async def refuse_dm(self, user_id: int) -> bool:
        """Remember that Discord refused a DM to this user (who may have no preferences
        yet: a follower); True the first time only."""
        ...

    async def set_board_preferences(self, user_id: int, theme: str | None, flip: bool) -> None:
        """Save how this member sees boards (their other preferences unchanged)."""
        ...

    async def server_settings(self, guild_id: int) -> ServerRow:
        """The server's defaults (every one the bot's own when never set)."""
        ...

    async def set_server_settings(self, settings: ServerRow) -> None: ...

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        """Record one seat's agreement to take back the turn that led to `ply`; returns
        every seat agreed so far."""
        ...

    async def drop_takeback(self, match_id: int) -> None: ...

    async def premoves(self, match_id: int, seat: int) -> PremoveRow | None: ...

    async def set_premoves(
        self, match_id: int, seat: int, ply: int, lines: Sequence[Sequence[str]]
    ) -> None:
        """Keep a seat's premove lines for the match at `ply`; no lines deletes them."""
        ...

    async def rate_match(
        self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int], update: RatingUpdate
    ) -> bool:
        """Apply a finished match to its players' ratings, once: in one transaction, record the
        match as rated (False, and nothing changes, if it was already) and write what
        `update` makes of the current standings, which it reads there, so two matches ending
        at once for one player both count."""
        ...

    async def unrated_matches(self, shards: Shards | None = None) -> list[int]:
        """Finished rated matches (on these shards' servers) whose result has not reached
        the ratings yet (a process stopped in between)."""
        ...

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        """The best standings in a game on a server, highest ordinal first."""
        ...

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        """A player's place on the leaderboard (1 = top) and standing; None if unrated."""
        ...

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's standings in every game rated on a server, most games first."""
        ...

    # -- computer analyses ---------------------------------------------------------------

    async def start_analysis(self, match_id: int, user_id: int, positions: int) -> bool:
        """Record that a match is to be analysed; False (and nothing changes) if it was
        already, so two requests share one analysis."""
        ...

    async def analysis(self, match_id: int) -> AnalysisRow | None: ...

    async def set_analysis_message(self, match_id: int, message_id: int) -> None: ...

    async def save_reading(self, match_id: int, step: int, reading: str) -> None:
        """Store one position's reading (a second write of the same position is ignored)."""
        ...

    async def finish_analysis(self, match_id: int) -> None: ...

    async def unfinished_analyses(self, shards: Shards | None = None) -> list[int]:
        """Analyses a stopped process left incomplete on these shards, oldest first."""
        ...

    async def registered_hash(self, scope: str) -> str | None:
        """The hash of the command payload last registered with Discord for this scope."""
        ...

    async def set_registered_hash(self, scope: str, payload_hash: str) -> None: ...
    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game: str,
        variant: str,
        system: str,
        rounds: int,
        days_per_move: int,
        max_players: int,
        rated: bool,
        double: bool,
    ) -> int: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments_in(self, guild_id: int, stages: Sequence[Stage]) -> list[TournamentRow]:
        """The server's tournaments at these stages, newest first."""
        ...

    async def running_tournaments(self, shards: Shards | None = None) -> list[int]:
        """The tournaments under way (on these shards' servers)."""
        ...

    async def set_entry_message(self, tournament_id: int, message_id: int) -> None: ...

    async def enter(self, tournament_id: int, user_id: int, name: str) -> bool:
        """Add an entrant while entries are open and the field is not full; False if not."""
        ...

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Remove an entrant before the start; False if they were not in or it started."""
        ...

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Mark an entrant withdrawn, once."""
        ...

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """In order of entry: the seeds."""
        ...

    async def start_tournament(self, tournament_id: int, rounds: int) -> bool:
        """Close entries and fix the number of rounds; False if it had started already."""
        ...

    async def begin_round(
        self,
        tournament_id: int,
        number: int,
        boards: Sequence[tuple[int, int | None, float | None]],
    ) -> bool:
        """Write round `number`'s boards, (first, second, points) in board order, if the
        tournament is still at round `number - 1`; False, and nothing written, if not: of
        two processes finishing a round's last game at once, one pairs the next round."""
        ...

    async def boards(self, tournament_id: int) -> list[BoardRow]:
        """Every board of every round so far, in order."""
        ...

    async def set_board_match(
        self, tournament_id: int, number: int, board: int, match_id: int
    ) -> bool:
        """Give a board its match, once; False if another process did first."""
        ...

    async def board_of_match(self, match_id: int) -> tuple[int, BoardRow] | None:
        """The tournament and board a match was opened for, if any."""
        ...

    async def score_board(self, tournament_id: int, number: int, board: int, points: float) -> bool:
        """Write a board's result, once."""
        ...

    async def finish_tournament(self, tournament_id: int) -> bool:
        """Mark it over, once; False if it was not running."""
        ...

    async def schema_version(self) -> int: ...

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of a table (its column names, then the rows), for copying a database."""
        ...

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert copied rows as they are, ids included, into an empty table."""
        ...


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def encode_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Match columns to write, checked against UPDATABLE, JSON-encoded, stamped."""
    unknown = set(fields) - UPDATABLE
    if unknown:
        raise ValueError(f"not a match column one may update: {sorted(unknown)}")
    values = {
        key: json.dumps(value) if isinstance(value, dict) else value
        for key, value in fields.items()
    }
    values["updated_at"] = now()
    return values


class Row(Protocol):
    """A result row read by column name or position: sqlite3.Row and asyncpg's Record both
    are."""

    def __getitem__(self, key: str | int, /) -> Any: ...


def match_row(row: Row) -> MatchRow:
    """Decode one row (with its seats folded into a JSON array); garbage becomes CorruptMatch
    naming the match (the snapshot is parsed later, by whoever needs the state, so that a
    cached state costs no JSON work)."""
    try:
        outcome = json.loads(row["outcome"]) if row["outcome"] is not None else None
        if not (outcome is None or isinstance(outcome, dict)):
            raise ValueError("the outcome must be a JSON object")
        return MatchRow(
            id=int(row["id"]),
            guild_id=row["guild_id"],
            channel_id=int(row["channel_id"]),
            thread_id=row["thread_id"],
            challenge_message_id=row["challenge_message_id"],
            board_message_id=row["board_message_id"],
            game=str(row["game"]),
            variant=str(row["variant"]),
            seed=int(row["seed"]),
            status=_status(row["status"]),
            ply=int(row["ply"]),
            snapshot=str(row["snapshot"]),
            outcome=outcome,
            draw_offer=row["draw_offer"],
            created_at=str(row["created_at"]),
            updated_at=str(row["updated_at"]),
            seats=tuple(
                SeatRow(int(seat), int(user), str(name), bool(accepted), engine)
                for seat, user, name, accepted, engine in json.loads(row["seats"])
            ),
            days_per_move=int(row["days_per_move"]),
            expired_at=None if row["expired_at"] is None else int(row["expired_at"]),
            rated=bool(row["rated"]),
            board_ply=row["board_ply"],
            challenger=int(row["challenger"]),
            rematch_of=row["rematch_of"],
        )
    except (ValueError, TypeError, KeyError) as error:
        raise CorruptMatch(f"match #{row['id']} cannot be read: {error}") from error


def tournament_row(row: Row) -> TournamentRow:
    message = row["entry_message_id"]
    return TournamentRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        creator_id=int(row["creator_id"]),
        game=str(row["game"]),
        variant=str(row["variant"]),
        system=str(row["system"]),
        rounds=int(row["rounds"]),
        days_per_move=int(row["days_per_move"]),
        max_players=int(row["max_players"]),
        rated=bool(row["rated"]),
        double=bool(row["double_round"]),
        stage=Stage(row["stage"]),
        round=int(row["round"]),
        entry_message_id=None if message is None else int(message),
        created_at=str(row["created_at"]),
    )


def board_row(row: Row) -> BoardRow:
    second, match, points = row["second_id"], row["match_id"], row["points"]
    return BoardRow(
        round=int(row["round"]),
        board=int(row["board"]),
        first_id=int(row["first_id"]),
        second_id=None if second is None else int(second),
        match_id=None if match is None else int(match),
        points=None if points is None else float(points),
    )


def rating_row(row: Row) -> RatingRow:
    return RatingRow(
        game=str(row["game"]),
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        draws=int(row["draws"]),
        losses=int(row["losses"]),
        streak=int(row["streak"]),
    )


def rating_values(standing: RatingRow) -> tuple[Any, ...]:
    """A standing's values in the order of RATING_COLUMNS (bot/store/sql.py)."""
    return (
        standing.game,
        standing.user_id,
        standing.mu,
        standing.sigma,
        standing.games,
        standing.wins,
        standing.draws,
        standing.losses,
        standing.streak,
    )


def _status(stored: Any) -> Status:
    try:
        return Status(stored)
    except ValueError:
        raise ValueError(f"unknown status {stored!r}") from None


def parse_url(url: str) -> tuple[str, str]:
    """A database URL as SQLAlchemy writes it, split into (backend, where): `sqlite:///rel`
    and `sqlite:////abs` give the file's path, `postgresql://...` (or `postgres://`, with an
    optional `+driver`) gives the URL asyncpg connects with."""
    scheme, separator, rest = url.strip().partition("://")
    backend = scheme.split("+", 1)[0].lower()
    if separator and backend == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise ValueError(
                f"{url!r} names no file: write sqlite:///relative/path or sqlite:////absolute/path"
            )
        return "sqlite", rest[1:]
    if separator and backend in ("postgresql", "postgres"):
        return "postgresql", f"postgresql://{rest}"
    raise ValueError(
        f"{url!r} is not a database URL this bot understands: use sqlite:///path/to/file "
        "or postgresql://user@host:port/database"
    )
