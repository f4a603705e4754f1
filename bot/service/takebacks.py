"""Takebacks: the player who just moved asks to undo it, until the next player has moved;
every other player still in the game must agree. The move log and the snapshot then return
to before that move, in one guarded write."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError
from bot.service.queries import Queries
from bot.service.turns import KnowsWhoIsOut, _playing_seat
from bot.store import SeatRow, Status
from bot.texts import t
from rules import PASS


@dataclass(frozen=True)
class Takeback:
    """A request to undo `notation`, played by `seat`, returning the match to `target`."""

    match: Match
    seat: int
    notation: str
    target: int
    agreed: frozenset[int]

    @property
    def waiting(self) -> list[SeatRow]:
        """The players who still have to accept."""
        return [s for s in _in_game(self.match) if s.seat not in self.agreed]

    @property
    def done(self) -> bool:
        return not self.waiting


class Takebacks:
    def __init__(self, cache: MatchCache, queries: Queries) -> None:
        self.cache = cache
        self.queries = queries

    async def request(self, match_id: int, user_id: int) -> Takeback:
        """Ask to take back one's own last move; the asker's agreement counts at once.
        Never in a game with the computer: it replies at once, so the only window is while
        it thinks, and a move it chose for the position taken back must not land later."""
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        if any(s.engine is not None for s in match.seats):
            raise ServiceError(t("service.takeback.computer"), t("service.takeback.computer_hint"))
        found = await self._undoable(match)
        if found is None or found[0] != seat:
            raise ServiceError(
                t("service.takeback.not_yours"), t("service.takeback.not_yours_hint")
            )
        return await self._vote(match, seat, found)

    async def answer(self, match_id: int, ply: int, user_id: int, accept: bool) -> Takeback:
        """Accept or decline the request for the match at `ply`. A decline ends the request;
        the last acceptance takes the move back."""
        match = await self.cache.get(match_id)
        seat = _playing_seat(match, user_id)
        found = await self._undoable(match)
        if match.row.ply != ply or found is None:
            raise ServiceError(t("service.takeback.out_of_date"))
        if seat == found[0]:
            raise ServiceError(t("service.takeback.own"), t("service.takeback.own_hint"))
        if not accept:
            await self.cache.store.drop_takeback(match.id)
            return Takeback(match, found[0], found[1], found[2], frozenset())
        request = await self._vote(match, seat, found)
        if not request.done:
            return request
        record = await self.queries.record(match.id)
        earlier = replace(record, turns=record.turns[: request.target], result=None)
        state = earlier.replay(match.game)
        with self.cache.writing(match.id):
            await self.cache.store.rewind(
                match.id,
                ply,
                request.target,
                snapshot=json.dumps(match.game.dump(state)),
                status=Status.ACTIVE,
                outcome=None,
            )
        return replace(request, match=await self.cache.get(match.id))

    async def _vote(self, match: Match, seat: int, found: tuple[int, str, int]) -> Takeback:
        agreed = await self.cache.store.vote_takeback(match.id, match.row.ply, seat)
        return Takeback(match, found[0], found[1], found[2], agreed)

    async def _undoable(self, match: Match) -> tuple[int, str, int] | None:
        """The last turn a player chose (automatic passes after it are undone with it), as
        (seat, notation, the ply before it); None if there is none or it was a resignation
        or a timeout, or the game is over."""
        if match.status != Status.ACTIVE or match.outcome is not None:
            return None
        for entry in reversed(await self.cache.store.moves(match.id)):
            if entry.notation == str(PASS):
                continue
            if entry.notation.startswith(("resign", "timeout")):
                return None
            return entry.seat, entry.notation, entry.ply - 1
        return None


def _in_game(match: Match) -> list[SeatRow]:
    """The seats still playing (in 3-4 player Boost, those who have not left)."""
    game = match.game
    out = game.defeated(match.state) if isinstance(game, KnowsWhoIsOut) else ()
    return [s for s in match.seats if s.seat not in out]
