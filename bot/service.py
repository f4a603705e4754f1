"""The match service: who may do what to a match, decided here and nowhere else.

It knows the rules API and the store, and nothing of Discord: users are snowflake ids with
a display name, and every answer is a result object or a `ServiceError` whose message is
written for the player. Cogs only translate.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import rules
from bot.store import STATUSES, CorruptMatch, MatchRow, SeatRow, StaleWrite, Store
from rules import PASS, Game, Outcome, Record, RulesError
from rules.core import outcome_from_json, outcome_to_json

log = logging.getLogger(__name__)

OPEN = ("pending", "active")
MAX_CHOICES = 25
CACHED_MATCHES = 512


class ServiceError(Exception):
    """Something a user asked for that cannot be done; `hint` says what would work."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str
    bot: bool = False


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
    def status(self) -> str:
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

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def at(self, seat: int) -> SeatRow:
        return self.seats[seat - 1]

    @property
    def to_move(self) -> SeatRow | None:
        """The seat whose turn it is, while the match is being played."""
        if self.status != "active" or self.outcome is not None:
            return None
        return self.at(self.game.to_move(self.state))

    @property
    def waiting_for(self) -> list[SeatRow]:
        return [s for s in self.seats if not s.accepted]

    def describe(self) -> str:
        """`Quorum #3: alice vs bob`, for lists and autocomplete."""
        return f"{self.title}: {' vs '.join(self.names)}"

    def describe_outcome(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return "the game goes on"
        if outcome.is_draw:
            return f"Draw ({outcome.reason.replace('-', ' ')})"
        winners = " and ".join(self.at(s).name for s in outcome.winners)
        verb = "wins" if len(outcome.winners) == 1 else "win"
        return f"{winners} {verb} ({outcome.reason.replace('-', ' ')})"


@dataclass(frozen=True)
class Turn:
    seat: int
    user_id: int
    notation: str
    automatic: bool = False


@dataclass(frozen=True)
class ChallengeRequest:
    """A checked challenge, ready to store: everything here is already known to be valid."""

    guild_id: int | None
    channel_id: int
    game: str
    variant: str
    players: tuple[Player, ...]


@dataclass(frozen=True)
class AcceptResult:
    match: Match
    started: bool
    turns: tuple[Turn, ...] = ()


@dataclass(frozen=True)
class MoveResult:
    match: Match
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class DrawResult:
    match: Match
    agreed: bool


@dataclass(frozen=True)
class Listing:
    matches: tuple[Match, ...]
    unreadable: int


_MATCH_REF = re.compile(r"^\s*#?(\d{1,12})\b")


class MatchService:
    """Challenges, moves and endings, with every permission check inside."""

    def __init__(self, store: Store, *, seeds: Callable[[], int] | None = None) -> None:
        self.store = store
        self._seeds = seeds or (lambda: random.randrange(2**31))
        # Recently used matches. The bot is the database's only writer, and every write
        # below either stores the match it produced here or forgets the entry, so a cached
        # match is current and a move costs no read. (Were it ever stale, the ply check
        # would refuse the write, which forgets the entry.)
        self._cache: OrderedDict[int, Match] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, match_id: int) -> asyncio.Lock:
        """Held by a command for its whole run, so one command per match is in flight."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    # -- loading ---------------------------------------------------------------------------

    def _load(self, row: MatchRow) -> Match:
        """A match from its row, reusing the cached state when the position is the same."""
        cached = self._cache.get(row.id)
        if cached is not None and _version(cached.row) > _version(row):
            return cached  # a read that was overtaken by a write of ours
        if cached is not None and _version(cached.row) == _version(row):
            return self._remember(Match(row, cached.game, cached.state))
        try:
            game = rules.get_game(row.game)
            state = game.load(json.loads(row.snapshot))
        except (RulesError, ValueError) as error:
            raise CorruptMatch(f"match #{row.id} cannot be loaded: {error}") from error
        return self._remember(Match(row, game, state))

    def _remember(self, match: Match) -> Match:
        self._cache[match.id] = match
        self._cache.move_to_end(match.id)
        if len(self._cache) > CACHED_MATCHES:
            self._cache.popitem(last=False)
        return match

    @contextmanager
    def _writing(self, match_id: int, conflict: str) -> Iterator[None]:
        """Forget the cached match around a write; a stale write becomes `conflict`."""
        self._cache.pop(match_id, None)
        try:
            yield
        except StaleWrite as error:
            raise ServiceError(conflict, "look again and retry") from error

    async def get(self, match_id: int) -> Match:
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache.move_to_end(match_id)
            return cached
        try:
            row = await self.store.get_match(match_id)
            if row is None:
                raise ServiceError(
                    f"there is no match #{match_id}", "use /matches to see your matches"
                )
            return self._load(row)
        except CorruptMatch as error:
            log.error("%s", error)
            raise ServiceError(
                f"match #{match_id} is damaged and cannot be played",
                "a server admin can run `python -m bot --check-db` to see what is wrong",
            ) from error

    async def in_thread(self, thread_id: int) -> Match | None:
        match_id = await self.store.match_in_thread(thread_id)
        return None if match_id is None else await self.get(match_id)

    async def listing(self, user_id: int, guild_id: int | None = None) -> Listing:
        """A user's open matches, those waiting for them first, then the most recent."""
        rows, broken = await self.store.matches_of(user_id, OPEN, guild_id)
        matches: list[Match] = []
        for row in rows:
            try:
                matches.append(self._load(row))
            except CorruptMatch as error:
                broken.append(error)
        for problem in broken:
            log.error("skipped in a listing: %s", problem)
        matches.sort(key=lambda m: not _waits_for(m, user_id))
        return Listing(tuple(matches), len(broken))

    async def resolve(
        self, user_id: int, guild_id: int | None, channel_id: int, ref: str | None
    ) -> Match:
        """The match a command means: named, this thread's, or the user's only one here."""
        if ref and ref.strip():
            found = _MATCH_REF.match(ref)
            if not found:
                raise ServiceError(
                    f"{ref.strip()!r} is not a match number",
                    "pick one from the list, or type its number like 12",
                )
            return await self.get(int(found[1]))
        here = await self.in_thread(channel_id)
        if here is not None:
            return here
        listing = await self.listing(user_id, guild_id)
        active = [m for m in listing.matches if m.status == "active"]
        if len(active) == 1:
            return active[0]
        if not active:
            raise ServiceError(
                "you have no match in progress in this server",
                "start one with /challenge, or run this inside a match thread",
            )
        raise ServiceError(
            f"you have {len(active)} matches in progress here, so say which one",
            "fill in the match option, or run the command inside the match's thread",
        )

    # -- challenges ------------------------------------------------------------------------

    def prepare_challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Player,
        game: str,
        opponents: Sequence[Player],
        variant: str | None = None,
    ) -> ChallengeRequest:
        """Check a challenge without touching the database (so errors come before defer)."""
        try:
            chosen = rules.get_game(game)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        seen = {challenger.user_id}
        for opponent in opponents:
            if opponent.user_id == challenger.user_id:
                raise ServiceError(
                    "you cannot challenge yourself", "pick another member as opponent"
                )
            if opponent.bot:
                raise ServiceError(
                    f"{opponent.name} is a bot and cannot play", "challenge a person instead"
                )
            if opponent.user_id in seen:
                raise ServiceError(
                    f"{opponent.name} is named twice", "each opponent takes one seat"
                )
            seen.add(opponent.user_id)
        count = len(opponents) + 1
        if not opponents or count not in chosen.player_counts:
            counts = ", ".join(str(n - 1) for n in chosen.player_counts)
            raise ServiceError(
                f"{chosen.title} cannot be played by {count} players",
                f"name {counts} opponent(s)",
            )
        return ChallengeRequest(
            guild_id,
            channel_id,
            chosen.name,
            self._variant(chosen, variant, count),
            (challenger, *opponents),
        )

    @staticmethod
    def _variant(game: Game[Any, Any], wanted: str | None, count: int) -> str:
        if wanted and wanted.strip():
            name = wanted.strip().lower()
            if name not in game.variants:
                raise ServiceError(
                    f"{game.title} has no variant {wanted.strip()!r}",
                    f"choose from: {', '.join(game.variants)}",
                )
            if count not in game.variants[name].player_counts:
                allowed = ", ".join(str(n) for n in game.variants[name].player_counts)
                raise ServiceError(
                    f"{game.title} {name} is played by {allowed} players, not {count}",
                    "change the variant or the number of opponents",
                )
            return name
        if count in game.variants[game.default_variant].player_counts:
            return game.default_variant
        return next(v.name for v in game.variants.values() if count in v.player_counts)

    async def challenge(self, request: ChallengeRequest) -> Match:
        game = rules.get_game(request.game)
        seed = self._seeds()
        state = game.new(players=len(request.players), variant=request.variant, seed=seed)
        match_id = await self.store.create_match(
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            game=game.name,
            variant=request.variant,
            seed=seed,
            snapshot=json.dumps(game.dump(state)),
            seats=[(p.user_id, p.name, n == 0) for n, p in enumerate(request.players)],
        )
        return await self.get(match_id)

    def _challenged_seat(self, match: Match, user_id: int) -> int:
        if match.status != "pending":
            raise ServiceError(f"this challenge is no longer open ({_STATUS[match.status]})")
        seat = match.seat_of(user_id)
        if seat is None:
            invited = ", ".join(s.name for s in match.seats[1:])
            raise ServiceError(f"this challenge is for {invited}, not you")
        if seat == 1:
            raise ServiceError(
                "this is your own challenge", "use Withdraw to take it back before it starts"
            )
        if match.at(seat).accepted:
            raise ServiceError("you have already accepted this challenge")
        return seat

    async def accept(self, match_id: int, user_id: int) -> AcceptResult:
        match = await self.get(match_id)
        seat = self._challenged_seat(match, user_id)
        with self._writing(match_id, "this challenge changed meanwhile"):
            start = await self.store.accept_seat(match_id, seat)
        match = await self.get(match_id)
        if not start:
            return AcceptResult(match, started=False)
        passes = self._automatic_passes(match, match.state)
        if passes:
            match = await self._save(match, passes[-1][1], [t for t, _ in passes])
        return AcceptResult(match, True, tuple(t for t, _ in passes))

    async def decline(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        self._challenged_seat(match, user_id)
        return await self._set_status(match, "declined")

    async def withdraw(self, match_id: int, user_id: int) -> Match:
        match = await self.get(match_id)
        if match.seat_of(user_id) != 1:
            raise ServiceError(f"only {match.at(1).name}, who made this challenge, may withdraw it")
        if match.status != "pending":
            raise ServiceError(f"this challenge is no longer open ({_STATUS[match.status]})")
        return await self._set_status(match, "withdrawn")

    async def _set_status(self, match: Match, status: str) -> Match:
        with self._writing(match.id, "this challenge changed meanwhile"):
            await self.store.update_match(
                match.id, match.row.ply, expected_status="pending", status=status
            )
        return await self.get(match.id)

    async def set_messages(self, match: Match, **ids: Any) -> Match:
        """Remember where the bot posted (challenge, thread, board), for later edits."""
        with self._writing(match.id, "the match changed meanwhile"):
            await self.store.update_match(match.id, match.row.ply, **ids)
        return self._remember(Match(replace(match.row, **ids), match.game, match.state))

    # -- playing ---------------------------------------------------------------------------

    def _playing_seat(self, match: Match, user_id: int) -> int:
        if match.status == "pending":
            waiting = ", ".join(s.name for s in match.waiting_for)
            raise ServiceError(f"{match.title} has not started: waiting for {waiting} to accept")
        if match.status != "active":
            raise ServiceError(
                f"{match.title} is over ({_STATUS[match.status]})",
                "start a new one with /challenge",
            )
        seat = match.seat_of(user_id)
        if seat is None:
            raise ServiceError(f"you are not playing in {match.describe()}")
        return seat

    def require_turn(self, match: Match, user_id: int) -> Match:
        """The match, if it is this user's turn in it; otherwise why not."""
        seat = self._playing_seat(match, user_id)
        mover = match.at(match.game.to_move(match.state))
        if mover.seat != seat:
            raise ServiceError(
                f"it is {mover.name}'s turn ({match.game.seat_name(mover.seat)}), not yours",
                "you will be mentioned when it is your move",
            )
        return match

    async def move(self, match_id: int, user_id: int, text: str) -> MoveResult:
        match = self.require_turn(await self.get(match_id), user_id)
        game, state = match.game, match.state
        seat = game.to_move(state)
        try:
            move = game.parse_move(state, text)
        except RulesError as error:
            raise ServiceError(str(error), self._legal_hint(match, text)) from error
        notation = game.format_move(state, move)
        state = game.apply(state, move)
        first = Turn(seat, user_id, notation)
        passes = self._automatic_passes(match, state)
        final = passes[-1][1] if passes else state
        offer = match.row.draw_offer if match.row.draw_offer == seat else None
        match = await self._save(match, final, [first, *(t for t, _ in passes)], offer)
        return MoveResult(match, (first, *(t for t, _ in passes)))

    def _legal_hint(self, match: Match, text: str) -> str:
        """The legal moves from the square the text starts with, or where moves start."""
        game, state = match.game, match.state
        tree = game.move_tree(state)
        typed = game.normalize(text)
        # The longest matching token, so "e10..." is not taken for e1.
        matching = [t for t in tree.children if typed.startswith(game.normalize(t))]
        if matching:
            token = max(matching, key=len)
            moves = [game.format_move(state, m) for m in tree.children[token].moves()]
            shown = ", ".join(moves[:MAX_CHOICES])
            more = f" and {len(moves) - MAX_CHOICES} more" if len(moves) > MAX_CHOICES else ""
            return f"legal moves from {token}: {shown}{more}"
        starts = ", ".join(list(tree.children)[:MAX_CHOICES])
        return f"moves can start with: {starts}" if starts else "there is no legal move"

    @staticmethod
    def _automatic_passes(match: Match, state: Any) -> list[tuple[Turn, Any]]:
        """Play `pass` for each player whose only legal turn it is (at most one round)."""
        game = match.game
        played: list[tuple[Turn, Any]] = []
        for _ in range(game.players(state)):
            if game.outcome(state) is not None or game.legal_moves(state) != (PASS,):
                break
            seat = game.to_move(state)
            notation = game.format_move(state, PASS)
            state = game.apply(state, PASS)
            played.append((Turn(seat, match.at(seat).user_id, notation, True), state))
        return played

    async def _save(
        self,
        match: Match,
        state: Any,
        turns: Sequence[Turn],
        draw_offer: int | None = None,
    ) -> Match:
        """Log the turns and the new snapshot; the returned match needs no second read."""
        outcome = match.game.outcome(state)
        fields: dict[str, Any] = {
            "status": "finished" if outcome is not None else match.status,
            "outcome": outcome_to_json(outcome),
            "draw_offer": draw_offer,
        }
        snapshot = json.dumps(match.game.dump(state))
        ply = match.row.ply + len(turns)
        with self._writing(match.id, "another move in this match landed first"):
            stamp = await self.store.append_moves(
                match.id,
                match.row.ply,
                [(t.seat, t.notation) for t in turns],
                snapshot=snapshot,
                **fields,
            )
        row = replace(match.row, ply=ply, snapshot=snapshot, updated_at=stamp, **fields)
        return self._remember(Match(row, match.game, state))

    async def resign(self, match_id: int, user_id: int) -> MoveResult:
        match = await self.get(match_id)
        seat = self._playing_seat(match, user_id)
        try:
            state = match.game.resign(match.state, seat)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        first = Turn(seat, user_id, f"resign {seat}")
        passes = self._automatic_passes(match, state)
        final = passes[-1][1] if passes else state
        match = await self._save(match, final, [first, *(t for t, _ in passes)])
        return MoveResult(match, (first, *(t for t, _ in passes)))

    async def draw(self, match_id: int, user_id: int) -> DrawResult:
        """Offer a draw, or accept the opponent's pending offer."""
        match = await self.get(match_id)
        seat = self._playing_seat(match, user_id)
        if len(match.seats) != 2:
            raise ServiceError("draws by agreement are for 2-player matches", "play on, or /resign")
        other = match.at(3 - seat)
        if match.row.draw_offer == seat:
            raise ServiceError(
                f"you have already offered a draw; it is up to {other.name}",
                "the offer lapses when they move",
            )
        agreed = match.row.draw_offer == other.seat
        with self._writing(match.id, "the match changed meanwhile"):
            if agreed:
                outcome = Outcome((), "agreement")
                state = match.game.end(match.state, outcome)
                await self.store.update_match(
                    match.id,
                    match.row.ply,
                    expected_status="active",
                    snapshot=json.dumps(match.game.dump(state)),
                    status="finished",
                    outcome=outcome_to_json(outcome),
                    draw_offer=None,
                )
            else:
                await self.store.update_match(match.id, match.row.ply, draw_offer=seat)
        return DrawResult(await self.get(match.id), agreed)

    # -- reading helpers for the interface ---------------------------------------------------

    @staticmethod
    def suggestions(match: Match, typed: str) -> list[str]:
        """Legal moves whose notation starts with what was typed, for autocomplete."""
        game, state = match.game, match.state
        wanted = game.normalize(typed)
        found: list[str] = []
        for move in game.legal_moves(state):
            if move == PASS:
                continue
            text = game.format_move(state, move)
            if game.normalize(text).startswith(wanted):
                found.append(text)
                if len(found) == MAX_CHOICES:
                    break
        return found

    async def record(self, match_id: int) -> Record:
        match = await self.get(match_id)
        moves = await self.store.moves(match_id)
        tags = {f"Seat{s.seat}": s.name for s in match.seats} | {"Match": str(match_id)}
        stored = match.row.outcome
        outcome = outcome_from_json(stored)
        return Record(
            game=match.game.name,
            variant=match.row.variant,
            players=len(match.seats),
            seed=match.row.seed,
            turns=tuple(m.notation for m in moves),
            result=outcome,
            tags=tags,
        )

    async def check(self) -> list[str]:
        """Replay every match's move log; one line per match that does not add up."""
        problems: list[str] = []
        for match_id in await self.store.match_ids():
            try:
                row = await self.store.get_match(match_id)
                assert row is not None
                match = self._load(row)
                record = await self.record(match_id)
                replayed = match.game.dump(record.replay(match.game))
            except (CorruptMatch, ServiceError, RulesError, KeyError, TypeError) as error:
                problems.append(f"match #{match_id}: unreadable: {error}")
                continue
            if replayed != match.game.dump(match.state):
                problems.append(
                    f"match #{match_id}: the snapshot differs from the replayed move log "
                    f"({len(record.turns)} turns)"
                )
        return problems


_STATUS = {
    "pending": "waiting for answers",
    "active": "in progress",
    "finished": "finished",
    "declined": "declined",
    "withdrawn": "withdrawn",
}


def _version(row: MatchRow) -> tuple[int, int]:
    """Orders a match's rows in time: moves raise the ply, and statuses only move forward."""
    return row.ply, STATUSES.index(row.status)


def _waits_for(match: Match, user_id: int) -> bool:
    if match.status == "pending":
        return any(s.user_id == user_id for s in match.waiting_for)
    mover = match.to_move
    return mover is not None and mover.user_id == user_id
