"""Premoves (conditional moves): lines of the reply a player expects and their answer to it,
entered while the opponent is to move, and played for them the moment the opponent plays a
line's first move.

A line is checked move by move when entered (rules work, so in a worker through the
offload) and kept per (match, seat) for the position it starts from; a position the match
has left makes the lines void. Every move saved through `Turns.move` or `engine_move` comes
here: the lines of the player now to move that expect it give their answer, played through
the same ply-guarded save as a typed move (so a takeback, a timeout or another process's
move that lands first refuses it), and go on from there; lines that expected another move
are dropped. The answer is played in the same call, under the same match lock, as the move
it answers: nobody can take that move back or time out in between.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.posts import limits
from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, Turn
from bot.service.offload import MOVE_SECONDS, Offload
from bot.service.turns import TOO_COMPLEX, MoveResult, Turns, _playing_seat
from bot.store import PremoveRow
from bot.texts import t
from rules import RulesError

log = logging.getLogger(__name__)

MAX_LINES = 10
MAX_MOVES = 20  # in one line: ten exchanges ahead is already far for days-per-move play
LINE_TEXT = 1000  # characters of one line as typed

Line = tuple[str, ...]


@dataclass(frozen=True)
class PremoveLines:
    """A player's lines in a match, as they stand now."""

    match: Match
    seat: int
    lines: tuple[Line, ...]


class Premoves:
    def __init__(self, cache: MatchCache, turns: Turns, offload: Offload) -> None:
        self.cache = cache
        self.turns = turns
        self.offload = offload

    async def add(self, match_id: int, user_id: int, text: str) -> PremoveLines:
        """Check one more line and keep it beside the player's others."""
        match = await self.cache.get(match_id)
        seat = _premove_seat(match, user_id)
        mover = match.to_move
        if mover is not None and mover.seat == seat:
            raise ServiceError(t("service.premove.your_move"), t("service.premove.your_move_hint"))
        kept = _valid(match, await self.cache.store.premoves(match.id, seat))
        if len(kept) >= MAX_LINES:
            raise ServiceError(
                t("service.premove.full", count=MAX_LINES, game=match.title),
                t("service.premove.full_hint"),
            )
        moves = tuple(text.replace(",", " ").split())
        if len(text) > LINE_TEXT or len(moves) > MAX_MOVES:
            raise ServiceError(
                t("service.premove.too_long", count=MAX_MOVES), t("service.premove.too_long_hint")
            )
        if len(moves) < 2 or len(moves) % 2:
            raise ServiceError(t("service.premove.shape"), t("service.premove.shape_hint"))
        line = await self.offload.run(MOVE_SECONDS, TOO_COMPLEX, _check_line, match, seat, moves)
        _require_consistent(kept, line)
        lines = (*kept, line)
        await self.cache.store.set_premoves(match.id, seat, match.row.ply, lines)
        return PremoveLines(match, seat, lines)

    async def lines(self, match_id: int, user_id: int) -> PremoveLines:
        match = await self.cache.get(match_id)
        seat = _premove_seat(match, user_id)
        stored = await self.cache.store.premoves(match.id, seat)
        return PremoveLines(match, seat, _valid(match, stored))

    async def clear(self, match_id: int, user_id: int) -> PremoveLines:
        """Drop all of the player's lines; returns the ones dropped."""
        found = await self.lines(match_id, user_id)
        await self.cache.store.set_premoves(found.match.id, found.seat, found.match.row.ply, ())
        return found

    async def reply(self, result: MoveResult) -> MoveResult:
        """After a saved move: the answers of the lines that expected it, each followed by
        any lines of the other player that expected that answer, as one result."""
        match, batch, turns = result.match, result.turns, list(result.turns)
        while (mover := match.to_move) is not None and len(match.seats) == 2:
            stored = await self.cache.store.premoves(match.id, mover.seat)
            if stored is None:
                break
            answer, rest = _follow(stored, match.row.ply - len(batch), batch)
            if answer is None:
                await self.cache.store.set_premoves(match.id, mover.seat, match.row.ply, ())
                break
            try:
                answered = await self.turns.premove(match, mover.user_id, answer)
            except ServiceError as error:
                log.info("match #%s: premove %s not played: %s", match.id, answer, error)
                await self.cache.store.set_premoves(match.id, mover.seat, match.row.ply, ())
                break
            match, batch = answered.match, answered.turns
            await self.cache.store.set_premoves(match.id, mover.seat, match.row.ply, rest)
            turns.extend(batch)
        return MoveResult(match, tuple(turns))


def _premove_seat(match: Match, user_id: int) -> int:
    seat = _playing_seat(match, user_id)
    if len(match.seats) != 2:
        raise ServiceError(t("service.premove.two_players"), t("service.premove.two_players_hint"))
    return seat


def _valid(match: Match, stored: PremoveRow | None) -> tuple[Line, ...]:
    """The stored lines, if they were entered for the position the match is in."""
    return stored.lines if stored is not None and stored.ply == match.row.ply else ()


def _follow(
    stored: PremoveRow, ply: int, batch: tuple[Turn, ...]
) -> tuple[str | None, tuple[Line, ...]]:
    """The answer of the lines that expected `batch` (one move played at `ply`) and what
    remains of them; no answer if none did."""
    if stored.ply != ply or len(batch) != 1 or batch[0].automatic:
        return None, ()
    expecting = [line for line in stored.lines if line[0] == batch[0].notation]
    if not expecting:
        return None, ()
    return expecting[0][1], tuple(line[2:] for line in expecting if len(line) > 2)


def _check_line(match: Match, seat: int, moves: Line) -> Line:
    """Each move legal in turn, alternating from the opponent's, in canonical notation
    (rules work: run in a worker)."""
    game, state = match.game, match.state
    canonical: list[str] = []
    for number, typed in enumerate(moves, 1):
        whose = t("service.premove.theirs") if number % 2 else t("service.premove.yours")
        quoted = limits.quote(typed)
        where = t("service.premove.where", number=number, move=quoted, whose=whose)
        if game.outcome(state) is not None:
            raise ServiceError(
                t("service.premove.over", where=where), t("service.premove.over_hint")
            )
        if game.must_pass(state) or game.to_move(state) != (3 - seat if number % 2 else seat):
            raise ServiceError(
                t("service.premove.pass", where=where), t("service.premove.pass_hint")
            )
        try:
            move = game.parse_move(state, typed, names=match.names)
        except RulesError as error:
            raise ServiceError(
                t(
                    "service.premove.illegal",
                    number=number,
                    move=quoted,
                    whose=whose,
                    error=error,
                )
            ) from None
        canonical.append(game.format_move(state, move))
        state = game.apply(state, move, check=False)
    return tuple(canonical)


def _require_consistent(kept: tuple[Line, ...], line: Line) -> None:
    """A new line may share a beginning with a kept one, but not answer the same replies
    differently, nor repeat what a kept line already says."""
    for number, other in enumerate(kept, 1):
        same = 0
        while same < min(len(line), len(other)) and line[same] == other[same]:
            same += 1
        if same == len(line):
            raise ServiceError(
                t("service.premove.repeats", number=number), t("service.premove.repeats_hint")
            )
        if same < len(other) and same % 2:
            raise ServiceError(
                t(
                    "service.premove.differs",
                    number=number,
                    moves=" ".join(line[:same]),
                    kept=other[same],
                    new=line[same],
                ),
                t("service.premove.differs_hint"),
            )
