"""Confirm-move: a typed move checked and shown before it is played, for members who asked
for it (`/settings confirm:on`). Nothing is kept: the Play button carries the move as the
picker's path (its positions among each step's choices), so it plays through the picker's
own guarded path, after a restart too, and only while the match is at the same ply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.cache import MatchCache
from bot.service.hints import legal_hint
from bot.service.matches import Match, ServiceError, refusal
from bot.service.offload import MOVE_SECONDS, Offload
from bot.service.turns import TOO_COMPLEX, require_typed_turn
from rules import RulesError


@dataclass(frozen=True)
class Preview:
    """A typed move, legal and not played: its notation, the position it leads to and its
    path through the move tree."""

    match: Match
    notation: str
    state: Any
    positions: tuple[int, ...]


class Confirming:
    def __init__(self, cache: MatchCache, offload: Offload) -> None:
        self.cache = cache
        self.offload = offload

    async def preview(self, match_id: int, user_id: int, text: str) -> Preview:
        """Check a typed move as /move would, without playing it."""
        match = require_typed_turn(await self.cache.get(match_id), user_id, text)
        return await self.offload.run(MOVE_SECONDS, TOO_COMPLEX, _preview, match, text)


def _preview(match: Match, text: str) -> Preview:
    """Parse the move, play it on a copy and find its path (rules work: run in a worker)."""
    game, state = match.game, match.state
    try:
        move = game.parse_move(state, text, names=match.names)
    except RulesError as error:
        raise ServiceError(refusal(error, match.names), legal_hint(match, text)) from error
    node, positions = game.move_tree(state), []
    for token in game.move_tokens(state, move):
        positions.append(list(node.children).index(token))
        node = node.children[token]
    after = game.apply(state, move, check=False)
    return Preview(match, game.format_move(state, move), after, tuple(positions))
