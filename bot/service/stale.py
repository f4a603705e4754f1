"""Why a button or menu that is no longer on its message does nothing: a client showing an
old copy of a message (a challenge that expired, a finished match, an old picker) is told
why, and nothing is done on its behalf."""

from __future__ import annotations

from typing import NoReturn

from bot.service.cache import MatchCache
from bot.service.challenges import require_open
from bot.service.matches import ServiceError
from bot.store import Status


class Stale:
    def __init__(self, cache: MatchCache) -> None:
        self.cache = cache

    async def refuse(self, match_id: int, *, challenge: bool, ply: int | None) -> NoReturn:
        """Raise the reason a component of match `match_id` (made at `ply`, if it names
        one) no longer works."""
        match = await self.cache.get(match_id)
        if challenge:
            require_open(match)
        elif match.status == Status.PENDING:
            raise ServiceError(f"{match.title} has not started", "answer the challenge first")
        elif match.status != Status.ACTIVE:
            raise ServiceError(
                f"{match.title} is over ({match.status.phrase})", "/replay shows how it went"
            )
        elif ply is not None and ply != match.row.ply:
            raise ServiceError(
                f"these buttons are out of date: {match.title} has moved on since",
                "use the Move button under the latest board, or /move",
            )
        raise ServiceError("these buttons are out of date", "/board shows the match as it stands")
