"""Challenges: checked before anything is stored, then accepted seat by seat, declined, or
withdrawn. The last acceptance starts the match.

An open challenge names nobody: its free seats (OPEN_SEAT) go to the first members who
accept, in seat order. A rematch challenges a finished match's players again, seats rotated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import rules
from bot.clock import DAY
from bot.posts import limits
from bot.service.cache import MatchCache
from bot.service.clocks import DAYS_PER_MOVE, ClockTerms
from bot.service.clocks import terms as clock_terms
from bot.service.deadlines import CHALLENGE_LIFETIME, DAY_CHOICES, DEFAULT_DAYS
from bot.service.matches import STATUS, Match, Player, ServiceError, Turn, refusal
from bot.service.turns import Turns
from bot.store import OPEN_SEAT, Status
from bot.texts import say, t
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
    challenger: int = 1  # the seat of whoever makes it
    rematch_of: int | None = None
    start: str | None = None  # the diagram of the position it begins from (never rated)
    clock: ClockTerms = DAYS_PER_MOVE  # or a bank; weekends off


@dataclass(frozen=True)
class AcceptResult:
    match: Match
    started: bool
    turns: tuple[Turn, ...] = ()


@dataclass(frozen=True)
class RematchResult:
    """A rematch asked for: a new challenge (`created`), or the answer to the one already
    asked for by another player of the match."""

    answer: AcceptResult
    created: bool


FREE_SEAT = Player(OPEN_SEAT, say(t("service.challenge.open_seat")))
CHANGED = t("service.challenge.changed")  # what a write refused by the ply check says


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
        players: int | None = None,
        clock: ClockTerms = DAYS_PER_MOVE,
    ) -> ChallengeRequest:
        """Check a challenge without touching the database (so errors come before defer).
        With no opponents it is open: `players` (default 2) seats, all but the challenger's
        free for anyone. A game with a bot in a seat is never rated: engines are not on the
        ladder."""
        try:
            chosen = rules.get_game(game)
        except RulesError as error:
            raise ServiceError(refusal(error)) from error
        if opponents and players is not None:
            raise ServiceError(
                t("service.challenge.players_open"), t("service.challenge.players_open_hint")
            )
        if not opponents:
            counts = ", ".join(map(str, chosen.player_counts))
            if (players or 2) not in chosen.player_counts:
                raise ServiceError(
                    t(
                        "service.challenge.player_count",
                        game=chosen.title,
                        counts=counts,
                        players=players,
                    ),
                    t("service.challenge.player_count_hint", counts=counts),
                )
            opponents = [FREE_SEAT] * ((players or 2) - 1)
        seen = {challenger.user_id}
        for opponent in opponents:
            if opponent.user_id == challenger.user_id:
                raise ServiceError(
                    t("service.challenge.yourself"), t("service.challenge.yourself_hint")
                )
            if opponent.engine is not None or opponent is FREE_SEAT:
                continue  # the computer may take several seats, anyone a free one
            if opponent.bot:
                raise ServiceError(
                    t("service.challenge.bot", name=opponent.name),
                    t("service.challenge.bot_hint"),
                )
            if opponent.user_id in seen:
                raise ServiceError(
                    t("service.challenge.twice", name=opponent.name),
                    t("service.challenge.twice_hint"),
                )
            seen.add(opponent.user_id)
        if days not in DAY_CHOICES:
            choices = ", ".join(map(str, DAY_CHOICES))
            raise ServiceError(
                t("service.challenge.days", count=days),
                t("service.challenge.days_hint", choices=choices),
            )
        count = len(opponents) + 1
        if count not in chosen.player_counts:
            allowed = [n - 1 for n in chosen.player_counts]
            raise ServiceError(
                t(
                    "service.challenge.opponents",
                    game=chosen.title,
                    players=_either(allowed, 1),
                    given=count,
                    opponents=_either(allowed),
                    count=allowed[-1],
                )
            )
        return ChallengeRequest(
            guild_id,
            channel_id,
            chosen.name,
            _variant(chosen, variant, count),
            (challenger, *opponents),
            days,
            rated and not any(p.bot for p in (challenger, *opponents)),
            clock=clock,
        )

    def from_position(self, request: ChallengeRequest, state: Any) -> ChallengeRequest:
        """A prepared challenge begun from `state` (a position a member gave): its players
        must fit the challenge, and its variant is the position's; it is never rated, a
        position being no fair test of either side."""
        game = rules.get_game(request.game)
        seats = game.players(state)
        if seats != len(request.players):
            raise ServiceError(
                t("records.position_players", seats=seats, players=len(request.players))
            )
        diagram = game.format_diagram(state)
        return replace(request, variant=state.variant, rated=False, start=diagram)

    async def open(self, request: ChallengeRequest) -> Match:
        """Store a prepared challenge; the challenger's seat is accepted already."""
        game = rules.get_game(request.game)
        seed = self.seeds()
        if request.start is None:
            state = game.new(players=len(request.players), variant=request.variant, seed=seed)
        else:
            state = game.parse_diagram(request.start)
        match_id = await self.cache.store.create_match(
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            game=game.name,
            variant=request.variant,
            seed=seed,
            snapshot=json.dumps(game.dump(state)),
            seats=[
                (p.user_id, seat_name(game, n, p), n == request.challenger, p.engine)
                for n, p in enumerate(request.players, 1)
            ],
            days_per_move=request.days,
            rated=request.rated,
            challenger=request.challenger,
            rematch_of=request.rematch_of,
            start=request.start,
            clock=(request.clock.increment, request.clock.cap, request.clock.weekends_off),
        )
        return await self.cache.get(match_id)

    async def duplicate_of(self, request: ChallengeRequest) -> Match | None:
        """A challenge still pending that `request` would only repeat: the same challenger,
        players, game, variant, pace and rating, in the same server."""
        challenger = request.players[request.challenger - 1].user_id
        players = (p.user_id for p in request.players)
        wanted = _terms(request.game, request.variant, request.days, request.rated, players)
        rows, _ = await self.cache.store.matches_of(challenger, [Status.PENDING], request.guild_id)
        for row in rows:
            seated = (s.user_id for s in row.seats)
            same = _terms(row.game, row.variant, row.days_per_move, row.rated, seated)
            if row.seats[row.challenger - 1].user_id == challenger and same == wanted:
                return await self.cache.get(row.id)
        return None

    async def accept(self, match_id: int, user_id: int, name: str = "") -> AcceptResult:
        """An invited player's acceptance, or, in an open challenge, a member taking the
        first free seat under `name`."""
        match = await self.cache.get(match_id)
        if match.seat_of(user_id) is None and any(s.free for s in match.seats):
            require_open(match)
            seat, taker = next(s.seat for s in match.seats if s.free), (user_id, name)
        else:
            seat, taker = _challenged_seat(match, user_id), None
        with self.cache.writing(match_id, CHANGED):
            start = await self.cache.store.accept_seat(match_id, seat, taker)
        return await self._answered(match_id, start)

    async def rematch(self, match_id: int, user_id: int) -> RematchResult:
        """Challenge the players of a finished match again (same game, variant, pace and
        rating), seats rotated by one so the second player moves first; the one asking has
        accepted. If another player already asked, asking is accepting theirs."""
        old = await self.cache.get(match_id)
        seat = old.seat_of(user_id)
        if seat is None:
            raise ServiceError(t("service.challenge.rematch_players", game=old.title))
        if old.status != Status.FINISHED:
            raise ServiceError(
                t("service.match.not_finished", game=old.title),
                t("service.challenge.rematch_hint"),
            )
        asked = await self.cache.store.rematch(old.id)
        if asked is not None:
            again = await self.cache.get(asked)
            if again.status == Status.PENDING and again.row.expired_at is None:
                return RematchResult(await self.accept(again.id, user_id), created=False)
        rotated = (*old.seats[1:], old.seats[0])
        request = ChallengeRequest(
            old.row.guild_id,
            old.row.channel_id,
            old.game.name,
            old.row.variant,
            tuple(Player(s.user_id, s.name, s.engine is not None, s.engine) for s in rotated),
            old.row.days_per_move,
            old.row.rated,
            challenger=next(n for n, s in enumerate(rotated, 1) if s.user_id == user_id),
            rematch_of=old.id,
            clock=clock_terms(old.row),
        )
        match = await self.open(request)
        return RematchResult(await self.accept_engines(match.id), created=True)

    async def accept_engines(self, match_id: int) -> AcceptResult:
        """The computer takes its seats at once (if it has any); when it was the last to
        answer, the match starts."""
        match = await self.cache.get(match_id)
        seats = [s.seat for s in match.seats if s.engine is not None and not s.accepted]
        if not seats:
            return AcceptResult(match, started=False)
        with self.cache.writing(match_id, CHANGED):
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
        if user_id != match.challenger.user_id:
            raise ServiceError(t("service.challenge.withdraw_only", name=match.challenger.name))
        require_open(match)
        return await self._close(match, Status.WITHDRAWN)

    async def _close(self, match: Match, status: Status) -> Match:
        with self.cache.writing(match.id, CHANGED):
            await self.cache.store.update_match(
                match.id, match.row.ply, expected_status=Status.PENDING, status=status
            )
        return await self.cache.get(match.id)


def require_open(match: Match) -> None:
    if match.row.expired_at is not None:
        raise ServiceError(
            t("service.challenge.expired", count=CHALLENGE_LIFETIME // DAY),
            t("service.challenge.expired_hint", name=match.challenger.name),
        )
    if match.status != Status.PENDING:
        raise ServiceError(t("service.challenge.closed", status=STATUS[match.status]))


def _challenged_seat(match: Match, user_id: int) -> int:
    """The seat this user is invited to and may still answer for."""
    require_open(match)
    seat = match.seat_of(user_id)
    if seat is None:
        named = [s.name for s in match.seats if s.seat != match.row.challenger and not s.free]
        if not named:
            raise ServiceError(
                t("service.challenge.seated_only"), t("service.challenge.seated_only_hint")
            )
        raise ServiceError(t("service.challenge.not_for_you", players=", ".join(named)))
    if seat == match.row.challenger:
        raise ServiceError(t("service.challenge.own"), t("service.challenge.own_hint"))
    if match.at(seat).accepted:
        raise ServiceError(t("service.challenge.accepted"))
    return seat


def _variant(game: Game[Any, Any], wanted: str | None, count: int) -> str:
    """The variant named (checked against the player count), or the first that fits."""
    if wanted and wanted.strip():
        name = wanted.strip().lower()
        if name not in game.variants:
            raise ServiceError(
                t("service.challenge.no_variant", game=game.title, variant=limits.quote(wanted)),
                t("service.challenge.no_variant_hint", variants=", ".join(game.variants)),
            )
        if count not in game.variants[name].player_counts:
            allowed = ", ".join(str(n) for n in game.variants[name].player_counts)
            raise ServiceError(
                t(
                    "service.challenge.variant_players",
                    game=game.title,
                    variant=name,
                    allowed=allowed,
                    given=count,
                ),
                t("service.challenge.variant_players_hint"),
            )
        return name
    if count in game.variants[game.default_variant].player_counts:
        return game.default_variant
    return next(v.name for v in game.variants.values() if count in v.player_counts)


def seat_name(game: Game[Any, Any], seat: int, player: Player) -> str:
    """The name a seat goes by: the member's, or for the computer its side's colour, so that
    several computer seats are told apart as people are ("Computer (Red)")."""
    if player.engine is None:
        return player.name
    return say(t("service.challenge.computer", side=game.seat_phrase(seat)))


def _terms(
    game: str, variant: str, days: int, rated: bool, players: Iterable[int]
) -> tuple[str, str, int, bool, list[int]]:
    """What makes two challenges the same one, whatever the order of the seats."""
    return game, variant, days, rated, sorted(players)


def _either(numbers: Sequence[int], plus: int = 0) -> str:
    """`1`, `1 or 2`, `1, 2 or 3`: the choices in words, each raised by `plus`."""
    words = [str(n + plus) for n in numbers]
    if len(words) == 1:
        return words[0]
    return say(t("service.list.or", first=", ".join(words[:-1]), last=words[-1]))
