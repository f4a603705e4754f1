"""What happens when a scheduled job falls due: reminders (a DM for those who opted in, else
a mention in the match thread), timeouts, expired challenges, and the posts Discord did not
take (boards, replays, analyses, aborts: bot/jobs/delivery.py). A reminder Discord failed is
tried again like a post, and its player's timeout waits until it has reached them
(`Deadlines.warned`).

Each job but the posts runs under its match's lock, like a command, and acts through a
guarded service call: when the match has moved on, the call returns None and nothing is
posted. What is posted, and in which words, is the announcer's.
"""

from __future__ import annotations

import logging

import discord

from bot.jobs.delivery import POSTS, Deliveries
from bot.jobs.scheduler import Retry
from bot.posts.conversations import OutOfReach
from bot.posts.match_texts import abort_text
from bot.posts.notifications import Announcer
from bot.posts.undelivered import Undelivered
from bot.service import MatchService
from bot.service.delivery import last_try
from bot.store import JobKind, JobRow

log = logging.getLogger(__name__)


class JobHandler:
    def __init__(self, service: MatchService, announcer: Announcer):
        self.service = service
        self.announcer = announcer
        self.deliveries = Deliveries(service, announcer)

    async def __call__(self, job: JobRow) -> None:
        try:
            await self._act(job)
        except OutOfReach as error:  # a private match's players were told by DM, if Discord let
            log.info("%s", error)

    async def _act(self, job: JobRow) -> None:
        deadlines = self.service.deadlines
        if job.kind in POSTS:
            await self.deliveries(job)
            return
        async with self.service.cache.lock(job.match_id):
            if job.kind in (JobKind.REMINDER, JobKind.LAST_REMINDER):
                reminder = await deadlines.remind(job)
                if reminder is None:
                    return
                if await self.announcer.remind(reminder):
                    await deadlines.reminded(reminder)
                elif not last_try(job.attempts):  # its timeout waits for it
                    raise Retry("Discord did not take the reminder")
                else:
                    log.warning("match #%s: gave up reminding its player", job.match_id)
            elif job.kind == JobKind.TIMEOUT:
                again = await deadlines.warned(job)
                if again is not None:
                    raise Retry("its player's last reminder has not reached them", again)
                aborted = await self.service.aborts.time_out(job.match_id, job.ply)
                if aborted is not None:
                    try:
                        await self.announcer.closed(aborted.match, abort_text(aborted))
                    except (Undelivered, discord.HTTPException) as error:
                        later = "match #%s: its CLOSING job posts it later: %s"
                        log.info(later, job.match_id, error)
                    return
                result = await deadlines.time_out(job.match_id, job.ply)
                if result is not None:
                    try:
                        await self.announcer.after_turns(result.match, result.turns)
                    except (Undelivered, discord.HTTPException) as error:
                        log.info("match #%s: its BOARD job posts it later: %s", job.match_id, error)
            elif job.kind == JobKind.EXPIRY:
                expired = await deadlines.expire(job.match_id)
                if expired is not None and not await self.announcer.challenge_expired(expired):
                    await deadlines.post_later(job.match_id, JobKind.CLOSING, expired.row.ply)
