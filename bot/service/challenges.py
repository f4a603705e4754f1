"""Challenges: checked before anything is stored, then accepted seat by seat, declined, or
withdrawn. The last acceptance starts the match."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import rules
from bot import limits
from bot.clock import DAY
from bot.service.cache import MatchCache
from bot.service.deadlines import CHALLENGE_LIFETIME, DAY_CHOICES, DEFAULT_DAYS
from bot.service.matches import Match, Player, ServiceError, Turn
from bot.service.turns import Turns
from bot.store import Status
from rules import Game, RulesError


@dataclass(frozen=True)
class ChallengeRequest:
    """A checked challenge, ready to store: everything here is already known to be valid."""

    guild_id: int | None
    channel_id: int
    game: str
    variant: str
    players: tuple[Player, ...]
    days: int = DEFAULT_DAYS  # per move; 0 is no limit
    rated: bool = True


@dataclass(frozen=True)
class AcceptResult:
    match: Match
    started: bool
    turns: tuple[Turn, ...] = ()


class Challenges:
    """Who may open, answer or take back a challenge, and what each answer stores."""

    def __init__(self, cache: MatchCache, turns: Turns, seeds: Callable[[], int]) -> None:
        self.cache = cache
        self.turns = turns
        self.seeds = seeds

    def prepare(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger: Player,
        game: str,
        opponents: Sequence[Player],
        variant: str | None = None,
        days: int = DEFAULT_DAYS,
        rated: bool = True,
    ) -> ChallengeRequest:
        """Check a challenge without touching the database (so errors come before defer).
        A game with a bot in a seat is never rated: engines are not on the ladder."""
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
            if opponent.engine is not None:
                continue  # the computer may take several seats
            if opponent.bot:
                raise ServiceError(
                    f"{opponent.name} is a bot and cannot play",
                    "challenge a person, or this bot itself to play the computer",
                    names=(opponent.name,),
                )
            if opponent.user_id in seen:
                raise ServiceError(
                    f"{opponent.name} is named twice",
                    "each opponent takes one seat",
                    names=(opponent.name,),
                )
            seen.add(opponent.user_id)
        if days not in DAY_CHOICES:
            choices = ", ".join(map(str, DAY_CHOICES))
            raise ServiceError(f"{days} days per move is not offered", f"choose one of {choices}")
        count = len(opponents) + 1
        if not opponents or count not in chosen.player_counts:
            counts = [n - 1 for n in chosen.player_counts]
            many = "s" if counts[-1] > 1 else ""
            raise ServiceError(
                f"{chosen.title} is played by {_either(counts, 1)} players, not {count}: "
                f"name {_either(counts)} opponent{many}"
            )
        return ChallengeRequest(
            guild_id,
            channel_id,
            chosen.name,
            _variant(chosen, variant, count),
            (challenger, *opponents),
            days,
            rated and not any(p.bot for p in (challenger, *opponents)),
        )

    async def open(self, request: ChallengeRequest) -> Match:
        """Store a prepared challenge; the challenger's seat is accepted already."""
        game = rules.get_game(request.game)
        seed = self.seeds()
        state = game.new(players=len(request.players), variant=request.variant, seed=seed)
        match_id = await self.cache.store.create_match(
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            game=game.name,
            variant=request.variant,
            seed=seed,
            snapshot=json.dumps(game.dump(state)),
            seats=[(p.user_id, p.name, n == 0, p.engine) for n, p in enumerate(request.players)],
            days_per_move=request.days,
            rated=request.rated,
        )
        return await self.cache.get(match_id)

    async def accept(self, match_id: int, user_id: int) -> AcceptResult:
        match = await self.cache.get(match_id)
        seat = _challenged_seat(match, user_id)
        with self.cache.writing(match_id, "this challenge changed meanwhile"):
            start = await self.cache.store.accept_seat(match_id, seat)
        return await self._answered(match_id, start)

    async def accept_engines(self, match_id: int) -> AcceptResult:
        """The computer takes its seats at once (if it has any); when it was the last to
        answer, the match starts."""
        match = await self.cache.get(match_id)
        seats = [s.seat for s in match.seats if s.engine is not None and not s.accepted]
        if not seats:
            return AcceptResult(match, started=False)
        with self.cache.writing(match_id, "this challenge changed meanwhile"):
            for seat in seats:
                start = await self.cache.store.accept_seat(match_id, seat)
        return await self._answered(match_id, start)

    async def _answered(self, match_id: int, start: bool) -> AcceptResult:
        """After an acceptance: the match as it stands, opened with any automatic passes
        when that acceptance was the last."""
        match = await self.cache.get(match_id)
        if not start:
            return AcceptResult(match, started=False)
        opening = await self.turns.advance(match, match.state, ())
        return AcceptResult(opening.match, True, opening.turns)

    async def decline(self, match_id: int, user_id: int) -> Match:
        match = await self.cache.get(match_id)
        _challenged_seat(match, user_id)
        return await self._close(match, Status.DECLINED)

    async def withdraw(self, match_id: int, user_id: int) -> Match:
        match = await self.cache.get(match_id)
        if match.seat_of(user_id) != 1:
            raise ServiceError(f"only {match.at(1).name}, who made this challenge, may withdraw it")
        require_open(match)
        return await self._close(match, Status.WITHDRAWN)

    async def _close(self, match: Match, status: Status) -> Match:
        with self.cache.writing(match.id, "this challenge changed meanwhile"):
            await self.cache.store.update_match(
                match.id, match.row.ply, expected_status=Status.PENDING, status=status
            )
        return await self.cache.get(match.id)


def require_open(match: Match) -> None:
    if match.row.expired_at is not None:
        raise ServiceError(
            f"this challenge expired unanswered after {CHALLENGE_LIFETIME // DAY} days",
            f"ask {match.at(1).name} for a new one",
        )
    if match.status != Status.PENDING:
        raise ServiceError(f"this challenge is no longer open ({match.status.phrase})")


def _challenged_seat(match: Match, user_id: int) -> int:
    """The seat this user is invited to and may still answer for."""
    require_open(match)
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


def _variant(game: Game[Any, Any], wanted: str | None, count: int) -> str:
    """The variant named (checked against the player count), or the first that fits."""
    if wanted and wanted.strip():
        name = wanted.strip().lower()
        if name not in game.variants:
            raise ServiceError(
                f"{game.title} has no variant {limits.quote(wanted)}",
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


def _either(numbers: Sequence[int], plus: int = 0) -> str:
    """`1`, `1 or 2`, `1, 2 or 3`: the choices in words, each raised by `plus`."""
    words = [str(n + plus) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
