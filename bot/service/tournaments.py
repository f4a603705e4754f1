"""Tournaments: a scheduler of matches. Entries, the start, each round's matches opened
through the challenge path, results learnt from the same "match finished" hook as ratings,
withdrawals, standings. Who meets whom is bot/service/pairing.py's business (pure); everything here
is read back from the store, so a restart or a second process changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import rules
from bot.service import pairing
from bot.service.cache import MatchCache
from bot.service.challenges import Challenges
from bot.service.clocks import DAYS_PER_MOVE, ClockTerms
from bot.service.clocks import terms as clock_terms
from bot.service.deadlines import DEFAULT_DAYS
from bot.service.matches import Match, Player, ServiceError, Turn, opening
from bot.service.pairing import NoPairing, Pairing, Result, Standing, System
from bot.service.turns import MoveResult, Turns
from bot.store import BoardRow, EntrantRow, Shards, Stage, Status, TournamentRow
from bot.texts import say, t

log = logging.getLogger(__name__)

MIN_PLAYERS = 3
MAX_PLAYERS = 64
"""A Swiss round of 64 pairs in under 5 ms of CPU (benchmarks/pairing_speed), so pairing
stays on the event loop."""
DEFAULT_MAX_PLAYERS = 16
KINDS = {
    System.ROUND_ROBIN: t("service.tournament.round_robin"),
    System.SWISS: t("service.tournament.swiss"),
}
"""Each system in words, for a tournament's title (a double round robin says so)."""


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored: its row, entrants (seed order) and every board so far."""

    row: TournamentRow
    entrants: tuple[EntrantRow, ...]
    boards: tuple[BoardRow, ...]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def system(self) -> System:
        return System(self.row.system)

    @property
    def title(self) -> str:
        game = rules.get_game(self.row.game).title
        kind = t("service.tournament.double") if self.row.double else KINDS[self.system]
        title = t(
            "service.tournament.title",
            tournament=self.id,
            game=game,
            variant=self.row.variant,
            kind=kind,
        )
        return say(title)

    def name_of(self, user_id: int) -> str:
        return next((e.name for e in self.entrants if e.user_id == user_id), str(user_id))

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def active(self) -> list[int]:
        """Entrants still playing, in seed order."""
        return [e.user_id for e in self.entrants if not e.withdrawn]

    def results(self) -> list[Result]:
        """Every finished board as the pairing module reads it."""
        return [
            Result(b.round, Pairing(b.first_id, b.second_id), b.points)
            for b in self.boards
            if b.points is not None
        ]

    def round_boards(self, number: int) -> list[BoardRow]:
        return [b for b in self.boards if b.round == number]

    def standings(self) -> list[Standing]:
        seeds = [e.user_id for e in self.entrants]
        return pairing.standings(seeds, self.results(), self.system)


@dataclass(frozen=True)
class TournamentRequest:
    """A checked tournament, ready to store."""

    guild_id: int
    channel_id: int
    creator: Player
    game: str
    variant: str
    system: System
    rounds: int  # Swiss: as asked, 0 for the default (fixed at the start)
    days: int
    max_players: int
    rated: bool
    double: bool
    clock: ClockTerms = DAYS_PER_MOVE  # its matches' bank and weekends


@dataclass(frozen=True)
class RoundBegun:
    """A round's boards are written and its matches opened (each with its opening turns)."""

    tournament: Tournament
    round: int
    matches: tuple[tuple[Match, tuple[Turn, ...]], ...]


@dataclass(frozen=True)
class Finished:
    """The last round ended (or no further round could be paired): the standings are final."""

    tournament: Tournament
    early: bool


@dataclass(frozen=True)
class Scored:
    """A game's result counted: the standings changed."""

    tournament: Tournament


Event = RoundBegun | Finished | Scored
Listener = Callable[[Event], Awaitable[None]]


@dataclass(frozen=True)
class Left:
    """A withdrawal: before the start the entry is gone; after it, these games were resigned."""

    tournament: Tournament
    started: bool
    resigned: tuple[MoveResult, ...] = ()


class Tournaments:
    """Every change to a tournament goes through here; listeners (the cog) post what a
    change opened or ended, since a round may begin inside someone else's move."""

    def __init__(self, cache: MatchCache, challenges: Challenges, turns: Turns) -> None:
        self.cache = cache
        self.challenges = challenges
        self.turns = turns
        self.listeners: list[Listener] = []

    async def get(self, tournament_id: int) -> Tournament:
        row = await self.cache.store.get_tournament(tournament_id)
        if row is None:
            raise ServiceError(
                t("service.tournament.missing", tournament=tournament_id),
                t("service.tournament.missing_hint"),
            )
        entrants = await self.cache.store.entrants(tournament_id)
        boards = await self.cache.store.boards(tournament_id)
        return Tournament(row, tuple(entrants), tuple(boards))

    def prepare(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator: Player,
        game: str,
        system: str,
        rounds: int | None = None,
        days: int = DEFAULT_DAYS,
        max_players: int = DEFAULT_MAX_PLAYERS,
        rated: bool = True,
        variant: str | None = None,
        double: bool = False,
        clock: ClockTerms = DAYS_PER_MOVE,
    ) -> TournamentRequest:
        """Check a new tournament without touching the database (so errors come before the
        command is answered in public). The game and variant are checked as a challenge
        between two players would be."""
        try:
            kind = System(system)
        except ValueError:
            raise ServiceError(
                t("service.tournament.no_format", system=opening(system)),
                t("service.tournament.no_format_hint"),
            ) from None
        probe = self.challenges.prepare(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger=creator,
            game=game,
            opponents=[Player(0, "opponent")],
            variant=variant,
            days=days,
            rated=rated,
            clock=clock,
        )
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise ServiceError(
                t(
                    "service.tournament.size",
                    least=MIN_PLAYERS,
                    most=MAX_PLAYERS,
                    given=max_players,
                ),
                t("service.tournament.size_hint"),
            )
        if rounds is not None and kind is System.ROUND_ROBIN:
            raise ServiceError(
                t("service.tournament.rounds_fixed"), t("service.tournament.rounds_fixed_hint")
            )
        if double and kind is System.SWISS:
            raise ServiceError(
                t("service.tournament.double_only"), t("service.tournament.double_only_hint")
            )
        if rounds is not None and rounds < 1:
            raise ServiceError(
                t("service.tournament.rounds", count=rounds), t("service.tournament.rounds_hint")
            )
        return TournamentRequest(
            guild_id, channel_id, creator, probe.game, probe.variant, kind, rounds or 0, days,
            max_players, probe.rated, double, clock,
        )  # fmt: skip

    async def open(self, request: TournamentRequest) -> Tournament:
        """Store a prepared tournament; its creator is its first entrant."""
        tournament_id = await self.cache.store.create_tournament(
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            creator_id=request.creator.user_id,
            game=request.game,
            variant=request.variant,
            system=request.system.value,
            rounds=request.rounds,
            days_per_move=request.days,
            max_players=request.max_players,
            rated=request.rated,
            double=request.double,
            clock=(request.clock.increment, request.clock.cap, request.clock.weekends_off),
        )
        await self.cache.store.enter(tournament_id, request.creator.user_id, request.creator.name)
        return await self.get(tournament_id)

    async def set_entry_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the entry message, which is kept up to date."""
        await self.cache.store.set_entry_message(tournament_id, message_id)

    async def join(self, tournament_id: int, player: Player) -> Tournament:
        tournament = await self.get(tournament_id)
        if player.bot:
            raise ServiceError(t("service.tournament.bots"))
        if tournament.entrant(player.user_id) is not None:
            raise ServiceError(t("service.tournament.entered", tournament=tournament_id))
        _require_open(tournament)
        if not await self.cache.store.enter(tournament_id, player.user_id, player.name):
            tournament = await self.get(tournament_id)
            _require_open(tournament)
            raise ServiceError(
                t(
                    "service.tournament.full",
                    tournament=tournament_id,
                    count=tournament.row.max_players,
                )
            )
        return await self.get(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> Left:
        """Before the start: the entry goes. After it: the running games are resigned and the
        player is not paired again; their results stay."""
        tournament = await self.get(tournament_id)
        entrant = tournament.entrant(user_id)
        if entrant is None:
            raise ServiceError(t("service.tournament.not_entered", tournament=tournament_id))
        if tournament.row.stage is Stage.FINISHED:
            raise ServiceError(t("service.tournament.over", tournament=tournament_id))
        if tournament.row.stage is Stage.OPEN:
            if user_id == tournament.row.creator_id:
                raise ServiceError(
                    t("service.tournament.creator_stays"),
                    t("service.tournament.creator_stays_hint"),
                )
            await self.cache.store.leave(tournament_id, user_id)
            return Left(await self.get(tournament_id), started=False)
        if entrant.withdrawn:
            raise ServiceError(t("service.tournament.withdrawn", tournament=tournament_id))
        await self.cache.store.withdraw(tournament_id, user_id)
        resigned: list[MoveResult] = []
        for board in tournament.boards:
            if board.match_id is None or board.points is not None:
                continue
            if user_id not in (board.first_id, board.second_id):
                continue
            async with self.cache.lock(board.match_id):
                match = await self.cache.get(board.match_id)
                if match.status == Status.ACTIVE:
                    resigned.append(await self.turns.resign(board.match_id, user_id))
        tournament = await self.get(tournament_id)
        await self._advance(tournament)
        return Left(await self.get(tournament_id), started=True, resigned=tuple(resigned))

    def check_admin(self, tournament: Tournament, user_id: int, manager: bool) -> None:
        """Why this user may not cancel the tournament or remove an entrant, if they may not:
        only its creator or a server manager may, and only before it is over."""
        if user_id != tournament.row.creator_id and not manager:
            creator = tournament.name_of(tournament.row.creator_id)
            raise ServiceError(t("lifecycle.tournament.who_admins", name=creator))
        if tournament.row.stage is Stage.FINISHED:
            raise ServiceError(t("service.tournament.over", tournament=tournament.id))

    async def cancel(self, tournament_id: int, user_id: int, manager: bool) -> Tournament:
        """End the tournament with no winner. Games in progress play on as ordinary matches
        (rated as the tournament was) and no longer count for it; no round follows."""
        tournament = await self.get(tournament_id)
        self.check_admin(tournament, user_id, manager)
        if not await self.cache.store.cancel_tournament(tournament_id):
            raise ServiceError(t("service.tournament.over", tournament=tournament_id))
        return await self.get(tournament_id)

    async def remove(
        self, tournament_id: int, user_id: int, manager: bool, entrant_id: int
    ) -> Tournament:
        """Take an entrant out: before the start their entry goes (the creator's stays);
        once it runs, only between their games (none in progress), and they are not paired
        again while their results so far keep counting."""
        tournament = await self.get(tournament_id)
        self.check_admin(tournament, user_id, manager)
        entrant = tournament.entrant(entrant_id)
        if entrant is None or entrant.withdrawn:
            raise ServiceError(
                t("lifecycle.tournament.not_entrant", tournament=tournament_id),
                t("lifecycle.tournament.not_entrant_hint"),
            )
        if tournament.row.stage is Stage.OPEN:
            if entrant_id == tournament.row.creator_id:
                raise ServiceError(t("lifecycle.tournament.creator_stays"))
            await self.cache.store.leave(tournament_id, entrant_id)
            return await self.get(tournament_id)
        playing = [
            b.round
            for b in tournament.boards
            if b.points is None and entrant_id in (b.first_id, b.second_id)
        ]
        if playing:
            raise ServiceError(
                t("lifecycle.tournament.playing", name=entrant.name, round=playing[0]),
                t("lifecycle.tournament.playing_hint"),
            )
        await self.cache.store.withdraw(tournament_id, entrant_id)
        await self._advance(await self.get(tournament_id))
        return await self.get(tournament_id)

    def check_start(self, tournament: Tournament, user_id: int, manager: bool) -> None:
        """Why this user may not start it now, if they may not (read before any writing, so
        a refusal comes before the command is answered in public)."""
        if user_id != tournament.row.creator_id and not manager:
            creator = tournament.name_of(tournament.row.creator_id)
            raise ServiceError(t("service.tournament.who_starts", name=creator))
        _require_open(tournament)
        count = len(tournament.entrants)
        if count < MIN_PLAYERS:
            raise ServiceError(
                t(
                    "service.tournament.too_few",
                    tournament=tournament.id,
                    count=count,
                    least=MIN_PLAYERS,
                ),
                t("service.tournament.too_few_hint"),
            )

    async def start(self, tournament_id: int, user_id: int, manager: bool) -> Tournament:
        """Close entries and begin round 1 (its creator or a server manager)."""
        tournament = await self.get(tournament_id)
        self.check_start(tournament, user_id, manager)
        rounds = _planned_rounds(tournament.row, len(tournament.entrants))
        if not await self.cache.store.start_tournament(tournament_id, rounds):
            raise ServiceError(t("service.tournament.started", tournament=tournament_id))
        await self._advance(await self.get(tournament_id))
        return await self.get(tournament_id)

    async def listing(self, guild_id: int) -> list[Tournament]:
        rows = await self.cache.store.tournaments_in(guild_id, (Stage.OPEN, Stage.RUNNING))
        return [await self.get(row.id) for row in rows]

    async def resolve(
        self, guild_id: int, tournament_id: int | None, *, finished: bool = False
    ) -> Tournament:
        """The tournament named, or the server's newest one still open or running (or
        finished too, when `finished`: standings stay readable after the end)."""
        if tournament_id is not None:
            tournament = await self.get(tournament_id)
            if tournament.row.guild_id != guild_id:
                raise ServiceError(t("service.tournament.elsewhere", tournament=tournament_id))
            return tournament
        stages = [Stage.OPEN, Stage.RUNNING, *([Stage.FINISHED] if finished else [])]
        rows = await self.cache.store.tournaments_in(guild_id, stages)
        if not rows:
            raise ServiceError(t("service.tournament.none"), t("service.tournament.none_hint"))
        return await self.get(rows[0].id)

    async def finished(self, match: Match) -> None:
        """The "match finished" hook: score the match's board, and when it was the round's
        last, pair the next round (or end the tournament)."""
        found = await self.cache.store.board_of_match(match.id)
        if found is None or match.outcome is None:
            return
        tournament_id, board = found
        if (await self.get(tournament_id)).row.cancelled_at is not None:
            return  # its games play on as ordinary matches
        if await self.cache.store.score_board(
            tournament_id, board.round, board.board, _points_of_first(match)
        ):
            await self._tell(Scored(await self.get(tournament_id)))
        await self._advance(await self.get(tournament_id))

    async def finished_quietly(self, match: Match) -> None:
        """The hook as turns call it: a failure must not undo the result; the next start's
        catch-up scores the board."""
        try:
            await self.finished(match)
        except Exception:
            log.exception("match #%s: the tournament did not take its result", match.id)

    async def catch_up(self, shards: Shards | None = None) -> None:
        """After a restart: open the current rounds' matches a stop left unopened, score the
        boards whose games ended meanwhile, and move on where a round is complete (for the
        tournaments of these shards' servers)."""
        for tournament_id in await self.cache.store.running_tournaments(shards):
            tournament = await self.get(tournament_id)
            for board in tournament.round_boards(tournament.row.round):
                if board.points is None and board.match_id is not None:
                    match = await self.cache.get(board.match_id)
                    if match.status == Status.FINISHED and match.outcome is not None:
                        await self.cache.store.score_board(
                            tournament_id, board.round, board.board, _points_of_first(match)
                        )
            tournament = await self.get(tournament_id)
            opened = await self._open_matches(tournament, tournament.row.round)
            if opened:
                await self._tell(RoundBegun(tournament, tournament.row.round, tuple(opened)))
            await self._advance(await self.get(tournament_id))

    async def _advance(self, tournament: Tournament) -> None:
        """While the current round is complete: begin the next (or finish). Each step is
        guarded in the store, so a racing process changes nothing twice."""
        while tournament.row.stage is Stage.RUNNING:
            number = tournament.row.round
            if any(b.points is None for b in tournament.round_boards(number)):
                return
            boards: list[Pairing] | None = None
            if number < tournament.row.rounds and len(tournament.active) >= 2:
                boards = _next_round(tournament, number + 1)
            if boards is None:
                if await self.cache.store.finish_tournament(tournament.id):
                    early = number < tournament.row.rounds
                    await self._tell(Finished(await self.get(tournament.id), early))
                return
            rows = [(p.first, p.second, pairing.BYE_POINTS if p.bye else None) for p in boards]
            if not await self.cache.store.begin_round(tournament.id, number + 1, rows):
                return
            tournament = await self.get(tournament.id)
            opened = await self._open_matches(tournament, number + 1)
            await self._tell(RoundBegun(tournament, number + 1, tuple(opened)))
            tournament = await self.get(tournament.id)

    async def _open_matches(
        self, tournament: Tournament, number: int
    ) -> list[tuple[Match, tuple[Turn, ...]]]:
        """Open (or finish opening) a round's matches through the challenge path: the first
        seat challenges, the second accepts at once. A board takes one match, whichever
        process claims it first; a loser's spare challenge is withdrawn."""
        opened: list[tuple[Match, tuple[Turn, ...]]] = []
        row = tournament.row
        for board in tournament.round_boards(number):
            if board.second_id is None or board.points is not None:
                continue
            match_id = board.match_id
            if match_id is None:
                first, second = board.first_id, board.second_id
                request = self.challenges.prepare(
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    challenger=Player(first, tournament.name_of(first)),
                    game=row.game,
                    opponents=[Player(second, tournament.name_of(second))],
                    variant=row.variant,
                    days=row.days_per_move,
                    rated=row.rated,
                    clock=clock_terms(row),
                )
                spare = await self.challenges.open(request)
                if not await self.cache.store.set_board_match(
                    tournament.id, number, board.board, spare.id
                ):
                    await self.challenges.withdraw(spare.id, first)
                    continue
                match_id = spare.id
            async with self.cache.lock(match_id):
                match = await self.cache.get(match_id)
                if match.status != Status.PENDING:
                    continue
                second_id = match.at(2).user_id
                accepted = await self.challenges.accept(match_id, second_id)
            opened.append((accepted.match, accepted.turns))
        return opened

    async def _tell(self, event: Event) -> None:
        for listener in self.listeners:
            try:
                await listener(event)
            except Exception:
                log.exception("tournament #%s: a listener failed", event.tournament.id)


def _require_open(tournament: Tournament) -> None:
    if tournament.row.stage is not Stage.OPEN:
        raise ServiceError(t("service.tournament.closed", tournament=tournament.id))


def _planned_rounds(row: TournamentRow, entrants: int) -> int:
    system = System(row.system)
    most = pairing.most_rounds(system, entrants, double=row.double)
    if system is System.ROUND_ROBIN:
        return most
    return min(row.rounds or pairing.swiss_rounds(entrants), most)


def _next_round(tournament: Tournament, number: int) -> list[Pairing] | None:
    """Round `number`'s boards, or None when no round can be paired. A round robin skips the
    boards of withdrawn players (their opponents sit out); a Swiss round pairs the rest."""
    if tournament.system is System.ROUND_ROBIN:
        seeds = [e.user_id for e in tournament.entrants]
        table = pairing.round_robin(seeds, double=tournament.row.double)
        active = set(tournament.active)
        return [p for p in table[number - 1] if all(player in active for player in p.players)]
    try:
        return pairing.pair_swiss(tournament.active, tournament.results())
    except NoPairing:
        return None


def _points_of_first(match: Match) -> float:
    """What the seat-1 player scored: a win 1, a draw ½, a loss (resignation, timeout) 0."""
    outcome = match.outcome
    assert outcome is not None
    if outcome.is_draw:
        return pairing.DRAW
    return pairing.WIN if 1 in outcome.winners else pairing.LOSS
