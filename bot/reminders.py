"""What the bot says and does when a scheduled job falls due: reminders (a DM for those who
opted in, else a mention in the match thread), timeouts and expired challenges.

Each job runs under its match's lock, like a command, and acts through a guarded service
call: when the match has moved on, the call returns None and nothing is posted.
"""

from __future__ import annotations

import logging

import discord

from bot import limits
from bot.clock import DAY
from bot.cogs.challenges import challenge_text
from bot.notifications import Announcer, jump_url, mention, pinging, shown
from bot.service import Match, MatchService, Reminder
from bot.service.deadlines import CHALLENGE_LIFETIME
from bot.store import JobKind, JobRow

log = logging.getLogger(__name__)


class JobHandler:
    def __init__(self, client: discord.Client, service: MatchService, announcer: Announcer):
        self.client = client
        self.service = service
        self.announcer = announcer

    async def __call__(self, job: JobRow) -> None:
        deadlines = self.service.deadlines
        async with self.service.lock(job.match_id):
            if job.kind in (JobKind.REMINDER, JobKind.LAST_REMINDER):
                reminder = await deadlines.remind(job)
                if reminder is not None:
                    await self.remind(reminder)
            elif job.kind == JobKind.TIMEOUT:
                result = await deadlines.time_out(job.match_id, job.ply)
                if result is not None:
                    await self.announcer.after_turns(result.match, result.turns)
            elif job.kind == JobKind.EXPIRY:
                expired = await deadlines.expire(job.match_id)
                if expired is not None:
                    await self.expired(expired)

    async def remind(self, reminder: Reminder) -> None:
        match, seat = reminder.match, reminder.seat
        due = f"<t:{reminder.deadline}:R>"
        link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
        text = f"Reminder: your move in {shown(match.describe())} is due {due}.\n{link}"
        if not await self.announcer.direct(match, seat.user_id, text):
            await self.announcer.say(
                match,
                f"{mention(seat.user_id)}, reminder: your move is due {due}.",
                ping=[seat.user_id],
            )

    async def expired(self, match: Match) -> None:
        """The challenge loses its buttons and says why; the challenger is told."""
        days = CHALLENGE_LIFETIME // DAY
        note = f"This challenge expired: it was not answered within {days} days."
        channel = self.client.get_partial_messageable(
            match.row.channel_id, guild_id=match.row.guild_id
        )
        if match.row.challenge_message_id is not None:
            try:
                await channel.get_partial_message(match.row.challenge_message_id).edit(
                    content=limits.content(f"{challenge_text(match)}\n{note}"), view=None
                )
            except discord.HTTPException as error:
                log.info("could not edit the expired challenge #%s: %s", match.id, error)
        text = f"Your challenge {shown(match.describe())} expired unanswered."
        if not await self.announcer.direct(match, match.at(1).user_id, text, board=False):
            challenger = match.at(1).user_id
            await channel.send(
                limits.content(f"{mention(challenger)}, {text}"),
                allowed_mentions=pinging(challenger),
            )
