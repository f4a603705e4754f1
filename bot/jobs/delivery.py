"""The jobs that post what Discord did not take: a turn's board (BOARD), a finished match's
replay (REPLAY), a judged analysis (ANALYSIS) and the news that a match is aborted or its
challenge expired unanswered (CLOSING).
Each is tried again after a growing
backoff (Retry) until Discord takes it (in a private conversation, until its players get it by
DM: the post itself waits for the next interaction there), and given up, with the players
told by DM, after GIVE_UP_AFTER refusals or at once when the place is gone (404); see
bot/service/delivery.py.
"""

from __future__ import annotations

import logging

import discord

from bot.jobs.scheduler import Retry
from bot.posts.conversations import OutOfReach
from bot.posts.match_texts import abort_text
from bot.posts.notifications import Announcer
from bot.posts.undelivered import Undelivered
from bot.service import MatchService
from bot.service.delivery import last_try
from bot.store import JobKind, JobRow
from bot.texts import t

log = logging.getLogger(__name__)

WHAT = {
    JobKind.BOARD: t("delivery.board"),
    JobKind.REPLAY: t("delivery.replay"),
    JobKind.ANALYSIS: t("delivery.analysis"),
    JobKind.CLOSING: t("delivery.closing"),
}
POSTS = tuple(WHAT)  # the kinds of job handled here


class HeldBack(Exception):
    """Discord failed a post for now, which its poster reported rather than raised."""


class Deliveries:
    def __init__(self, service: MatchService, announcer: Announcer) -> None:
        self.service = service
        self.announcer = announcer

    async def __call__(self, job: JobRow) -> None:
        try:
            await self._post(job)
        except discord.NotFound as error:  # the thread or channel was deleted: for good
            await self._give_up(job, error)
        except OutOfReach as unreached:  # it waits for the conversation's next interaction
            if not unreached.told:  # nor did its players get it by DM: that is tried again
                await self._again(job, unreached)
                return
            log.info("%s", unreached)
        except (Undelivered, HeldBack, discord.HTTPException) as error:
            await self._again(job, error)

    async def _again(self, job: JobRow, error: Exception) -> None:
        """Retry, or give up once GIVE_UP_AFTER tries were refused."""
        if last_try(job.attempts):
            await self._give_up(job, error)
            return
        raise Retry(str(error)) from error

    async def _post(self, job: JobRow) -> None:
        if job.kind == JobKind.BOARD:
            async with self.service.cache.lock(job.match_id):
                await self.announcer.post_missing_board(job.match_id)
        elif job.kind == JobKind.ANALYSIS:
            await self.service.analyses.post(job.match_id)
        elif job.kind == JobKind.CLOSING:
            async with self.service.cache.lock(job.match_id):
                await self._closing(job.match_id)
        else:  # a finished match: no write to guard, seconds of work
            await self.announcer.post_replay(job.match_id)

    async def _closing(self, match_id: int) -> None:
        """Say again that a match was aborted, or that its challenge expired unanswered."""
        aborted = await self.service.aborts.aborted(match_id)
        if aborted is not None:
            match, by = aborted.match, aborted.by
            others = [] if by is None else [u for u in match.people if u != by.user_id]
            await self.announcer.closed(match, abort_text(aborted), others)
            return
        match = await self.service.cache.get(match_id)
        if match.row.expired_at is not None and not await self.announcer.challenge_expired(match):
            raise HeldBack(f"match #{match_id}: Discord did not take its expiry's news")

    async def _give_up(self, job: JobRow, error: Exception) -> None:
        log.warning("match #%s: gave up posting its %s: %s", job.match_id, job.kind, error)
        match = await self.service.cache.get(job.match_id)
        title = match.title
        if job.kind == JobKind.CLOSING:  # an expired challenge's news was its challenger's
            to = [match.challenger.user_id] if match.row.expired_at is not None else []
            await self.announcer.gave_up(
                match, lambda place: t("delivery.gave_up_closing", match=title, place=place), to
            )
            return
        what = WHAT[job.kind]
        await self.announcer.gave_up(
            match, lambda place: t("delivery.gave_up", what=what, match=title, place=place)
        )
