"""Playing a started match: moves, resignations and draws by agreement, each checked for
whose turn it is, followed by any automatic passes, and saved under the ply check."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.service.cache import MatchCache
from bot.service.hints import legal_hint
from bot.service.matches import Match, ServiceError, Turn
from bot.store import Status
from rules import PASS, Outcome, RulesError
from rules.core import outcome_to_json


@dataclass(frozen=True)
class MoveResult:
    match: Match
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class DrawResult:
    match: Match
    agreed: bool


class Turns:
    """Every change to a started match's state goes through `advance` or `draw` here."""

    def __init__(self, cache: MatchCache) -> None:
        self.cache = cache

    def require_turn(self, match: Match, user_id: int) -> Match:
        """The match, if it is this user's turn in it; otherwise why not."""
        seat = _playing_seat(match, user_id)
        mover = match.at(match.game.to_move(match.state))
        if mover.seat != seat:
            raise ServiceError(
                f"it is {mover.name}'s turn ({match.game.seat_name(mover.seat)}), not yours",
                "you will be mentioned when it is your move",
            )
        return match

    def require_playing(self, match: Match, user_id: int) -> int:
        """The user's seat, if they are playing this match now; otherwise why not."""
        return _playing_seat(match, user_id)

    async def move(self, match_id: int, user_id: int, text: str) -> MoveResult:
        match = self.require_turn(await self.cache.get(match_id), user_id)
        game, state = match.game, match.state
        seat = game.to_move(state)
        try:
            move = game.parse_move(state, text)
        except RulesError as error:
            raise ServiceError(str(error), legal_hint(match, text)) from error
        played = Turn(seat, user_id, game.format_move(state, move))
        # Moving lapses the opponent's draw offer; the mover's own offer stands.
        offer = match.row.draw_offer if match.row.draw_offer == seat else None
        return await self.advance(match, game.apply(state, move), [played], offer)

    async def resign(self, match_id: int, user_id: int) -> MoveResult:
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        try:
            state = match.game.resign(match.state, seat)
        except RulesError as error:
            raise ServiceError(str(error)) from error
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
        passes = _automatic_passes(match, state)
        turns = (*played, *(turn for turn, _ in passes))
        if not turns:
            return MoveResult(match, ())
        final = passes[-1][1] if passes else state
        return MoveResult(await self._save(match, final, turns, draw_offer), turns)

    async def draw(self, match_id: int, user_id: int) -> DrawResult:
        """Offer a draw, or accept the opponent's pending offer."""
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        if len(match.seats) != 2:
            raise ServiceError("draws by agreement are for 2-player matches", "play on, or /resign")
        other = match.at(3 - seat)
        if match.row.draw_offer == seat:
            raise ServiceError(
                f"you have already offered a draw; it is up to {other.name}",
                "the offer lapses when they move",
            )
        agreed = match.row.draw_offer == other.seat
        with self.cache.writing(match.id, "the match changed meanwhile"):
            if agreed:
                state = match.game.end(match.state, Outcome((), "agreement"))
                await self.cache.store.update_match(
                    match.id,
                    match.row.ply,
                    expected_status=Status.ACTIVE,
                    **_state_fields(match, state, draw_offer=None),
                )
            else:
                await self.cache.store.update_match(match.id, match.row.ply, draw_offer=seat)
        return DrawResult(await self.cache.get(match.id), agreed)

    async def _save(
        self, match: Match, state: Any, turns: Sequence[Turn], draw_offer: int | None
    ) -> Match:
        """Log the turns and the new snapshot; the returned match needs no second read."""
        fields = _state_fields(match, state, draw_offer)
        with self.cache.writing(match.id, "another move in this match landed first"):
            stamp = await self.cache.store.append_moves(
                match.id, match.row.ply, [(t.seat, t.notation) for t in turns], **fields
            )
        row = replace(match.row, ply=match.row.ply + len(turns), updated_at=stamp, **fields)
        return self.cache.remember(Match(row, match.game, state))


def _playing_seat(match: Match, user_id: int) -> int:
    """The user's seat in a match being played; otherwise why they cannot act in it."""
    if match.status == Status.PENDING:
        waiting = ", ".join(s.name for s in match.waiting_for)
        raise ServiceError(f"{match.title} has not started: waiting for {waiting} to accept")
    if match.status != Status.ACTIVE:
        raise ServiceError(
            f"{match.title} is over ({match.status.phrase})",
            "start a new one with /challenge",
        )
    seat = match.seat_of(user_id)
    if seat is None:
        raise ServiceError(f"you are not playing in {match.describe()}")
    return seat


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


def _state_fields(match: Match, state: Any, draw_offer: int | None) -> dict[str, Any]:
    """The match columns that follow from a new state: snapshot, status and outcome."""
    outcome = match.game.outcome(state)
    return {
        "snapshot": json.dumps(match.game.dump(state)),
        "status": Status.FINISHED if outcome is not None else match.status,
        "outcome": outcome_to_json(outcome),
        "draw_offer": draw_offer,
    }
