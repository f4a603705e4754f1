"""Playing a started match: moves, resignations and draws by agreement, each checked for
whose turn it is, followed by any automatic passes, and saved under the ply check."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from bot.posts import limits
from bot.service.cache import MatchCache
from bot.service.hints import legal_hint
from bot.service.matches import Match, ServiceError, Turn, refusal, status_of
from bot.service.offload import MOVE_SECONDS, Offload, TooComplex
from bot.store import Status
from bot.texts import t
from rules import PASS, Outcome, RulesError
from rules.outcomes import Reason, outcome_to_json


@dataclass(frozen=True)
class MoveResult:
    match: Match
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class DrawResult:
    match: Match
    agreed: bool  # False for an offer made, or one declined


# After a move is saved: whatever it sets off at once (premove answers), as one result.
Answers = Callable[[MoveResult], Awaitable[MoveResult]]

# After turns are saved: the match (as it was before them, and as saved) with what they
# changed on its clocks saved too.
Spent = Callable[[Match, Match, Sequence[Turn]], Awaitable[Match]]


MOVE_TEXT = 160  # characters: more than any turn (Kyo's longest has 81), typed loosely

TOO_COMPLEX = TooComplex(t("service.turn.too_complex"), t("service.turn.too_complex_hint"))


@dataclass(frozen=True)
class Plan:
    """What a turn leads to, worked out off the event loop: ready to save."""

    state: Any
    turns: tuple[Turn, ...]
    fields: dict[str, Any]


class Turns:
    """Every change to a started match's state goes through `advance` or `draw` here."""

    def __init__(
        self,
        cache: MatchCache,
        offload: Offload,
        finished: Callable[[Match], Awaitable[None]] | None = None,
    ) -> None:
        self.cache = cache
        self.offload = offload
        self.finished = finished  # told of every match a turn or a draw ends (ratings)
        self.answers: Answers | None = None  # premove lines answering a move at once
        self.spent: Spent | None = None  # saves what a move changes on the clocks (banks)

    def require_turn(self, match: Match, user_id: int) -> Match:
        return require_turn(match, user_id)

    def require_playing(self, match: Match, user_id: int) -> int:
        """The user's seat, if they are playing this match now; otherwise why not."""
        return _playing_seat(match, user_id)

    async def move(self, match_id: int, user_id: int, text: str) -> MoveResult:
        match = require_typed_turn(await self.cache.get(match_id), user_id, text)
        return await self._answered(await self._play(match, user_id, text))

    async def engine_move(self, match_id: int, ply: int, text: str) -> MoveResult:
        """The computer's move, chosen for the position at `ply`: refused if the match moved
        on meanwhile (a resignation) or the seat to move is not the computer's."""
        match = await self.cache.get(match_id)
        mover = match.to_move
        if match.row.ply != ply or mover is None or mover.engine is None:
            raise ServiceError(t("service.turn.computer_moved_on", game=match.title))
        return await self._answered(await self._play(match, mover.user_id, text))

    async def premove(self, match: Match, user_id: int, text: str) -> MoveResult:
        """A stored premove answer, for the seat to move in `match` as it was just saved:
        the same guarded save as a typed move, so if anything else landed first (a
        takeback, a timeout, another process's move) it is refused and nothing is played."""
        return await self._play(match, user_id, text, premove=True)

    async def _answered(self, result: MoveResult) -> MoveResult:
        return result if self.answers is None else await self.answers(result)

    async def _play(
        self, match: Match, user_id: int, text: str, *, premove: bool = False
    ) -> MoveResult:
        """Play `text` for the seat to move, whose turn has been checked."""
        # Moving lapses the opponent's draw offer; the mover's own offer stands.
        seat = match.game.to_move(match.state)
        offer = match.row.draw_offer if match.row.draw_offer == seat else None
        plan = await self.offload.run(
            MOVE_SECONDS, TOO_COMPLEX, _plan_move, match, user_id, text, offer, premove
        )
        return await self._commit(match, plan)

    async def resign(self, match_id: int, user_id: int) -> MoveResult:
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        try:
            state = match.game.resign(match.state, seat)
        except RulesError as error:
            raise ServiceError(refusal(error)) from error
        return await self.advance(match, state, [Turn(seat, user_id, f"resign {seat}")])

    async def advance(
        self,
        match: Match,
        state: Any,
        played: Sequence[Turn],
        draw_offer: int | None = None,
    ) -> MoveResult:
        """After `played` led to `state`: pass for whoever cannot move, then save it all in
        one write (no write when nothing was played)."""
        plan = await self.offload.run(
            MOVE_SECONDS, TOO_COMPLEX, _plan, match, state, tuple(played), draw_offer
        )
        return await self._commit(match, plan)

    async def _commit(self, match: Match, plan: Plan) -> MoveResult:
        if not plan.turns:
            return MoveResult(match, ())
        saved = await self._save(match, plan)
        if self.spent is not None:
            saved = await self.spent(match, saved, plan.turns)
        return MoveResult(saved, plan.turns)

    async def draw(self, match_id: int, user_id: int) -> DrawResult:
        """Offer a draw, or accept the opponent's pending offer."""
        match, seat = await self._drawing(match_id, user_id)
        other = match.at(3 - seat)
        if match.row.draw_offer == seat:
            raise ServiceError(
                t("service.draw.offered", name=other.name), t("service.draw.offered_hint")
            )
        if match.row.draw_offer == other.seat:
            return await self._settle_draw(match, agreed=True)
        with self.cache.writing(match.id):
            await self.cache.store.update_match(match.id, match.row.ply, draw_offer=seat)
        return DrawResult(await self.cache.get(match.id), agreed=False)

    async def withdraw_draw_offer(self, match_id: int, user_id: int) -> None:
        """The user's standing draw offer is no longer made (Discord did not show it)."""
        match, seat = await self._drawing(match_id, user_id)
        if match.row.draw_offer == seat:
            with self.cache.writing(match.id):
                await self.cache.store.update_match(match.id, match.row.ply, draw_offer=None)

    async def answer_draw(self, match_id: int, user_id: int, accept: bool) -> DrawResult:
        """Accept or decline the offer standing now (the buttons under an offer)."""
        match, seat = await self._drawing(match_id, user_id)
        if match.row.draw_offer == seat:
            raise ServiceError(
                t("service.draw.own"), t("service.draw.own_hint", name=match.at(3 - seat).name)
            )
        if match.row.draw_offer is None:
            raise ServiceError(
                t("service.draw.none", game=match.title), t("service.draw.none_hint")
            )
        return await self._settle_draw(match, agreed=accept)

    async def _drawing(self, match_id: int, user_id: int) -> tuple[Match, int]:
        """The match and the user's seat, if they may offer or answer a draw in it."""
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        if len(match.seats) != 2:
            raise ServiceError(t("service.draw.two_players"), t("service.draw.two_players_hint"))
        if any(s.engine is not None for s in match.seats):
            raise ServiceError(t("lifecycle.draw.computer"), t("lifecycle.draw.computer_hint"))
        return match, seat

    async def _settle_draw(self, match: Match, *, agreed: bool) -> DrawResult:
        """End the match drawn, or drop the offer."""
        with self.cache.writing(match.id):
            if agreed:
                state = match.game.end(match.state, Outcome((), "agreement"))
                await self.cache.store.update_match(
                    match.id,
                    match.row.ply,
                    expected_status=Status.ACTIVE,
                    **_state_fields(match, state, draw_offer=None),
                )
            else:
                await self.cache.store.update_match(match.id, match.row.ply, draw_offer=None)
        result = DrawResult(await self.cache.get(match.id), agreed)
        if agreed:
            await self._ended(result.match)
        return result

    async def _save(self, match: Match, plan: Plan) -> Match:
        """Log the turns and the new snapshot; the returned match needs no second read."""
        with self.cache.writing(match.id, t("service.turn.landed_first")):
            stamp = await self.cache.store.append_moves(
                match.id,
                match.row.ply,
                [(t.seat, t.notation) for t in plan.turns],
                **plan.fields,
            )
        row = replace(
            match.row, ply=match.row.ply + len(plan.turns), updated_at=stamp, **plan.fields
        )
        saved = self.cache.remember(Match(row, match.game, plan.state))
        if saved.status == Status.FINISHED:
            await self._ended(saved)
        return saved

    async def _ended(self, match: Match) -> None:
        if self.finished is not None:
            await self.finished(match)


@runtime_checkable
class KnowsWhoIsOut(Protocol):
    """Games where a player can leave while the others play on (3-4 player Boost)."""

    def defeated(self, state: Any) -> tuple[int, ...]: ...


def require_turn(match: Match, user_id: int) -> Match:
    """The match, if it is this user's turn in it; otherwise why not."""
    seat = _playing_seat(match, user_id)
    mover = match.at(match.game.to_move(match.state))
    if mover.seat != seat:
        raise ServiceError(
            t("service.turn.not_yours", name=mover.name, side=match.game.seat_phrase(mover.seat)),
            t("service.turn.not_yours_hint"),
        )
    return match


def require_typed_turn(match: Match, user_id: int, text: str) -> Match:
    """The match, if it is this user's turn and `text` is short enough to be a move."""
    require_turn(match, user_id)
    if len(text) > MOVE_TEXT:
        raise ServiceError(
            t("service.turn.too_long", text=limits.quote(text), count=len(text)),
            t("service.turn.too_long_hint", most=MOVE_TEXT),
        )
    return match


def _plan_move(
    match: Match, user_id: int, text: str, draw_offer: int | None, premove: bool
) -> Plan:
    """Parse and play a typed move, then plan what follows (rules work: run in a worker)."""
    game, state = match.game, match.state
    seat = game.to_move(state)
    try:
        move = game.parse_move(state, text, names=match.names)
    except RulesError as error:
        raise ServiceError(refusal(error, match.names), legal_hint(match, text)) from error
    description = game.describe_move(state, move, names=match.names)
    notation = game.format_move(state, move)
    played = Turn(seat, user_id, notation, description=description, premove=premove)
    return _plan(match, game.apply(state, move, check=False), (played,), draw_offer)


def _plan(match: Match, state: Any, played: tuple[Turn, ...], draw_offer: int | None) -> Plan:
    """The automatic passes after `played` and the columns to save (run in a worker)."""
    state = _unattended(match, state, played)
    passes = _automatic_passes(match, state)
    final = passes[-1][1] if passes else state
    turns = (*played, *(turn for turn, _ in passes))
    return Plan(final, turns, _state_fields(match, final, draw_offer))


def _unattended(match: Match, state: Any, played: tuple[Turn, ...]) -> Any:
    """No game without a person: once every person has left a game the others play on
    (resigned, timed out or beaten on the board in 3-4 player Boost), it ends at once and the
    computer seats still in share the win, instead of playing itself out."""
    game = match.game
    if game.outcome(state) is not None or not isinstance(game, KnowsWhoIsOut):
        return state
    out = game.defeated(state)
    if any(s.engine is None and s.seat not in out for s in match.seats):
        return state
    how = played[-1].notation.split()[0] if played else ""
    reason = {"resign": Reason.RESIGNATION, "timeout": Reason.TIMEOUT}.get(how, Reason.CAPTURE)
    staying = tuple(s.seat for s in match.seats if s.seat not in out)
    return game.end(state, Outcome(staying, reason))


def _playing_seat(match: Match, user_id: int) -> int:
    """The user's seat in a match being played; otherwise why they cannot act in it."""
    if match.status == Status.PENDING:
        waiting = ", ".join(s.name for s in match.waiting_for)
        raise ServiceError(t("service.turn.waiting", game=match.title, waiting=waiting))
    if match.status != Status.ACTIVE:
        raise ServiceError(
            t("service.match.over", game=match.title, status=status_of(match)),
            t("service.turn.over_hint"),
        )
    seat = match.seat_of(user_id)
    if seat is None:
        raise ServiceError(t("service.turn.not_playing", match=match.describe()))
    return seat


def _automatic_passes(match: Match, state: Any) -> list[tuple[Turn, Any]]:
    """Play `pass` for each player whose only legal turn it is (at most one round)."""
    game = match.game
    played: list[tuple[Turn, Any]] = []
    for _ in range(game.players(state)):
        if game.outcome(state) is not None or not game.must_pass(state):
            break
        seat = game.to_move(state)
        notation = game.format_move(state, PASS)
        state = game.apply(state, PASS, check=False)  # must_pass just said it is the only move
        played.append((Turn(seat, match.at(seat).user_id, notation, True), state))
    return played


def _state_fields(match: Match, state: Any, draw_offer: int | None) -> dict[str, Any]:
    """The match columns that follow from a new state: snapshot, status and outcome."""
    outcome = match.game.outcome(state)
    return {
        "snapshot": json.dumps(match.game.dump(state)),
        "status": Status.FINISHED if outcome is not None else match.status,
        "outcome": outcome_to_json(outcome),
        "draw_offer": draw_offer,
    }
