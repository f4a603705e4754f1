"""What the service hands out: a loaded match, its players and turns, and the error users see."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import MatchRow, SeatRow, Status
from bot.texts import Text, Wordable, say, t
from rules import Game, Outcome
from rules.outcomes import described
from rules.phrases import Phrase, Words


class ServiceError(Exception):
    """Something a user asked for that cannot be done: a sentence of the catalogue
    (`service.*`); `hint` says what would work. Both are worded when read, in the language
    of whoever is told (see bot.ui.interface.tell), not where the error is raised."""

    def __init__(self, message: str | Wordable, hint: str | Wordable | None = None) -> None:
        super().__init__(message)
        self.text = message
        self.hint_text = hint

    @property
    def message(self) -> str:
        return say(self.text)

    @property
    def hint(self) -> str | None:
        return None if self.hint_text is None else say(self.hint_text)

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


def no_match(match_id: int) -> ServiceError:
    """What a user hears of a match that does not exist, or is not theirs to see: the same
    words, so other servers' match numbers cannot be probed."""
    return ServiceError(t("service.match.missing", match=match_id), t("service.match.missing_hint"))


def opening(phrase: str, names: Sequence[str] = ()) -> str:
    """A phrase that starts a sentence (a rules refusal, a word the member typed): its first
    word capitalised, unless it is a player's name or not a plain word (`c3`, `'x'`)."""
    first = phrase.partition(" ")[0]
    if first.isalpha() and not phrase.startswith(tuple(names)):
        return phrase[:1].upper() + phrase[1:]
    return phrase


@dataclass(frozen=True)
class Opening:
    """A phrase that opens a sentence, capitalised once worded (see `opening`)."""

    phrase: str | Wordable
    names: tuple[str, ...] = ()

    def word(self, locale: str) -> str:
        return opening(say(self.phrase, locale), self.names)


def refusal(error: str | Wordable, names: Sequence[str] = ()) -> Text:
    """What the rules refused, as a sentence: the rules word a refusal as a phrase that fits
    inside others (`c3 has no stone`), so told on its own it needs a capital and a stop."""
    return t("service.refused", refusal=Opening(error, tuple(names)))


STATUS: Mapping[Status, Text] = {
    Status.PENDING: t("service.status.pending"),
    Status.ACTIVE: t("service.status.active"),
    Status.FINISHED: t("service.status.finished"),
    Status.DECLINED: t("service.status.declined"),
    Status.WITHDRAWN: t("service.status.withdrawn"),
}
"""How a player is told a match's status: `this challenge is no longer open (declined)`."""


def status_of(match: Match) -> Text:
    """A match's status as a player is told it; an aborted match says so, not `withdrawn`."""
    if match.row.aborted_at is not None:
        return t("service.status.aborted")
    return STATUS[match.status]


@dataclass(frozen=True)
class Viewer:
    """Who uses a command or button, and where: a server reaches only its own matches, and a
    direct message only the matches its user plays."""

    user_id: int
    guild_id: int | None

    def reaches(self, row: MatchRow) -> bool:
        if self.guild_id is not None:
            return row.guild_id == self.guild_id
        return any(seat.user_id == self.user_id for seat in row.seats)

    def reads_history_of(self, user_id: int) -> bool:
        """Whether a player's finished matches may be listed here: a server lists its own
        matches of anyone, a direct message only the viewer's own history (a history is
        paged in the store, which knows the server, not who else played)."""
        return self.guild_id is not None or user_id == self.user_id


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str
    bot: bool = False
    engine: int | None = None  # the computer's level, when this is the bot itself playing


@dataclass(frozen=True)
class Turn:
    """One logged turn; `description` says what a played move did (the rules' words, worded
    by the post)."""

    seat: int
    user_id: int
    notation: str
    automatic: bool = False
    description: Words = ""
    premove: bool = False  # played for its player by a stored premove line


@dataclass(frozen=True)
class Match:
    """A stored match with its game and current state loaded."""

    row: MatchRow
    game: Game[Any, Any]
    state: Any

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> Status:
        return self.row.status

    @property
    def seats(self) -> tuple[SeatRow, ...]:
        return self.row.seats

    @property
    def channel_id(self) -> int:
        """Where the match is played: its thread, or the channel when no thread exists."""
        return self.row.thread_id or self.row.channel_id

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def title(self) -> str:
        return f"{self.game.title} #{self.id}"

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def people(self) -> list[int]:
        """The user ids of the seats people play: who a post about the match may ping (never
        the bot itself, in the computer's seats)."""
        return [s.user_id for s in self.seats if s.engine is None and not s.free]

    @property
    def challenger(self) -> SeatRow:
        """Whoever made the challenge (a rematch's maker need not sit first)."""
        return self.at(self.row.challenger)

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def at(self, seat: int) -> SeatRow:
        return self.seats[seat - 1]

    @property
    def to_move(self) -> SeatRow | None:
        """The seat whose turn it is, while the match is being played."""
        if self.status != Status.ACTIVE or self.outcome is not None:
            return None
        return self.at(self.game.to_move(self.state))

    @property
    def waiting_for(self) -> list[SeatRow]:
        return [s for s in self.seats if not s.accepted]

    def waits_for(self, user_id: int) -> bool:
        """Whether the match needs this user now: to accept, or to move."""
        if self.status == Status.PENDING:
            return any(s.user_id == user_id for s in self.waiting_for)
        mover = self.to_move
        return mover is not None and mover.user_id == user_id

    def describe(self) -> str:
        """`Quorum #3: alice vs bob`, for lists and autocomplete."""
        players = say(t("service.list.versus")).join(self.names)
        return say(t("service.match.describe", title=self.title, players=players))

    @property
    def turns_played(self) -> int:
        """Moves and automatic passes, not resignations: the count /board and /record give,
        which the board's turn number follows."""
        return int(self.game.ply(self.state))

    def describe_outcome(self, shown: Callable[[str], str] = str) -> Phrase:
        """How the result reads mid-sentence: `draw (agreement)`, `bob wins (resignation)`;
        `shown` is how a message shows a player's name."""
        return described(self.outcome, [shown(name) for name in self.names])
