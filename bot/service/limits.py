"""How much one member may have going at once, so no member can flood another with pings or
hold the bot's workers: pending challenges (in all, and to one person), tournaments created
and not yet over (per server), analyses asked for and not yet done, and games in progress
against the computer. A refusal says the limit and what frees a place; nothing is stored.

The numbers are settings (bot/settings.py, `LIMIT_*`); the counts come from the member's
own matches (index `seats_user_match`), the server's tournaments and the analysis queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from bot.posts.names import safe_name
from bot.service.cache import MatchCache
from bot.service.matches import ServiceError
from bot.store import Stage, Status
from bot.texts import Text, t

if TYPE_CHECKING:
    from bot.service.challenges import ChallengeRequest


@dataclass(frozen=True)
class Limits:
    """The most one member may have at once (see docs/limits.md)."""

    challenges: int = 10
    """Challenges they made that nobody has answered yet."""
    challenges_to_one: int = 3
    """Of those, naming one person (each pings them)."""
    tournaments: int = 2
    """Tournaments they created in one server that are open or running."""
    analyses: int = 3
    """Analyses they asked for that are queued or running."""
    computer_games: int = 5
    """Games against the computer waiting or in progress (each holds a worker at its turns)."""


class MemberLimits:
    """The checks, made before anything is stored; the app sets `allowed` from the settings."""

    def __init__(self, cache: MatchCache, allowed: Limits | None = None) -> None:
        self.cache = cache
        self.allowed = allowed or Limits()

    async def challenge(self, request: ChallengeRequest) -> None:
        """Refuse a challenge past the challenger's limits (tournament rounds do not ask)."""
        challenger = request.players[request.challenger - 1].user_id
        rows, _ = await self.cache.store.matches_of(challenger, [Status.PENDING, Status.ACTIVE])
        made = [
            row
            for row in rows
            if row.status is Status.PENDING
            and row.expired_at is None
            and row.seats[row.challenger - 1].user_id == challenger
        ]
        if len(made) >= self.allowed.challenges:
            most = self.allowed.challenges
            _refuse(t("limits.challenges", count=most), t("limits.challenges_hint"))
        for opponent in request.players:
            if opponent.user_id == challenger or opponent.engine is not None:
                continue
            to_them = [r for r in made if any(s.user_id == opponent.user_id for s in r.seats)]
            if len(to_them) >= self.allowed.challenges_to_one:
                most, name = self.allowed.challenges_to_one, safe_name(opponent.name)
                _refuse(
                    t("limits.challenges_to_one", count=most, name=name),
                    t("limits.challenges_to_one_hint", name=name),
                )
        if any(p.engine is not None for p in request.players):
            computer = [r for r in rows if any(s.engine is not None for s in r.seats)]
            if len(computer) >= self.allowed.computer_games:
                most = self.allowed.computer_games
                _refuse(t("limits.computer_games", count=most), t("limits.computer_games_hint"))

    async def tournament(self, guild_id: int, creator_id: int) -> None:
        """Refuse a tournament past the creator's limit in this server."""
        rows = await self.cache.store.tournaments_in(guild_id, [Stage.OPEN, Stage.RUNNING])
        created = [row for row in rows if row.creator_id == creator_id]
        if len(created) >= self.allowed.tournaments:
            most = self.allowed.tournaments
            _refuse(t("limits.tournaments", count=most), t("limits.tournaments_hint"))

    def analysis(self, waiting: int) -> None:
        """Refuse a new analysis to a member with `waiting` of theirs queued or running."""
        if waiting >= self.allowed.analyses:
            most = self.allowed.analyses
            _refuse(t("limits.analyses", count=most), t("limits.analyses_hint"))


def _refuse(limit: Text, freed_by: Text) -> NoReturn:
    """The refusal: the limit, and (as its hint) what frees a place."""
    raise ServiceError(limit, freed_by)
