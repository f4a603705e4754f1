"""Why a button or menu that is no longer on its message does nothing: a client showing an
old copy of a message (a challenge that expired, a finished match, an old picker) is told
why, and nothing is done on its behalf."""

from __future__ import annotations

from typing import NoReturn

from bot.service.cache import MatchCache
from bot.service.challenges import require_open
from bot.service.matches import ServiceError, status_of
from bot.service.tournaments import Tournament
from bot.store import Stage, Status
from bot.texts import t


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
            raise ServiceError(
                t("service.match.not_started", game=match.title),
                t("service.stale.not_started_hint"),
            )
        elif match.status != Status.ACTIVE:
            raise ServiceError(
                t("service.match.over", game=match.title, status=status_of(match)),
                t("service.stale.over_hint"),
            )
        elif ply is not None and ply != match.row.ply:
            raise ServiceError(
                t("service.stale.moved_on", game=match.title), t("service.stale.moved_on_hint")
            )
        raise ServiceError(t("service.stale.out_of_date"), t("service.stale.out_of_date_hint"))

    @staticmethod
    def refuse_entry(tournament: Tournament) -> NoReturn:
        """Raise the reason a Join or Leave button no longer on its entry message (a client
        showing it as it was before the start) does nothing."""
        tournament_id = tournament.id
        if tournament.row.stage is Stage.RUNNING:
            raise ServiceError(t("service.tournament.closed", tournament=tournament_id))
        if tournament.row.stage is Stage.FINISHED:
            raise ServiceError(t("service.tournament.over", tournament=tournament_id))
        raise ServiceError(t("gates.out_of_date"))
