"""Following: members outside a match get its boards and its result by direct message.

Following is the member's own request for DMs, so it needs no `/settings dm`; a member whose
DMs Discord refused is not followed until they open them again (`/settings dm:on`).
"""

from __future__ import annotations

import contextlib

from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, Viewer, status_of
from bot.service.queries import OPEN
from bot.store import CorruptMatch, Status
from bot.texts import t

CHOICES_READ = 100  # matches read to offer choices from (autocomplete shows at most 25)


class Following:
    def __init__(self, cache: MatchCache) -> None:
        self.cache = cache

    async def follow(self, match: Match, user_id: int) -> None:
        if match.status not in (Status.PENDING, Status.ACTIVE):
            raise ServiceError(
                t("service.match.over", game=match.title, status=status_of(match)),
                t("service.follow.over_hint"),
            )
        if match.seat_of(user_id) is not None:
            raise ServiceError(
                t("service.follow.playing", match=match.describe()),
                t("service.follow.playing_hint"),
            )
        if (await self.cache.store.preferences(user_id)).dm_refused:
            raise ServiceError(t("service.follow.refused"), t("service.follow.refused_hint"))
        if not await self.cache.store.follow(match.id, user_id, True):
            raise ServiceError(
                t("service.follow.already", match=match.describe()),
                t("service.follow.already_hint"),
            )

    async def unfollow(self, match: Match, user_id: int) -> None:
        if not await self.cache.store.follow(match.id, user_id, False):
            raise ServiceError(
                t("service.follow.not_following", match=match.describe()),
                t("service.follow.not_following_hint"),
            )

    async def to_follow(self, viewer: Viewer, typed: str) -> list[Match]:
        """The matches in progress (or waiting to start) in the viewer's server whose
        description contains what was typed, the most recently played first."""
        if viewer.guild_id is None:
            return []
        rows, _ = await self.cache.store.server_matches(viewer.guild_id, OPEN, CHOICES_READ)
        found = []
        for row in rows:
            with contextlib.suppress(CorruptMatch):  # /matches reports it to its players
                found.append(self.cache.load(row))
        wanted = typed.strip().lower().lstrip("#")
        return [m for m in found if wanted in m.describe().lower()]

    async def recipients(self, match_id: int) -> list[int]:
        """The followers to send the match's boards to: those whose DMs were not refused."""
        store = self.cache.store
        return [
            u
            for u in await store.followers(match_id)
            if not (await store.preferences(u)).dm_refused
        ]
