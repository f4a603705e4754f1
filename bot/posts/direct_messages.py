"""The bot's own direct messages to a member: what Discord's refusals of them mean."""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from bot.posts import limits
from bot.posts.undelivered import DmsClosed

log = logging.getLogger(__name__)

DMS_CLOSED = 50007  # Discord's error code: this user does not accept DMs from the bot
NO_MENTIONS = discord.AllowedMentions.none()


class Refusals(Protocol):
    """Where a refusal for closed DMs is remembered (the store)."""

    async def refuse_dm(self, user_id: int) -> bool: ...


class DirectMessages:
    def __init__(self, client: discord.Client, refusals: Refusals) -> None:
        self.client = client
        self.refusals = refusals

    async def send(self, user_id: int, text: str, picture: discord.File) -> bool:
        """A direct message; False if Discord refused it, DmsClosed if because the member
        closed their DMs (which is then remembered)."""
        try:
            await self._deliver(user_id, text, picture)
        except discord.HTTPException:
            return False
        return True

    async def anyway(self, user_id: int, text: str, picture: discord.File) -> bool:
        """A DM whatever `/settings dm` says: a private match's players have no other way to
        hear what happened between interactions. True if Discord took it or refused it for
        good (closed DMs, any refusal but a server error or too many requests), False if it
        failed for now: try later."""
        try:
            await self._deliver(user_id, text, picture)
        except DmsClosed:
            return True
        except discord.HTTPException as error:
            return not (error.status >= 500 or error.status == 429)
        return True

    async def _deliver(self, user_id: int, text: str, picture: discord.File) -> None:
        """Send it; Discord's refusal is raised (as DmsClosed for closed DMs) and logged."""
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            await channel.send(limits.content(text), file=picture, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            if error.code == DMS_CLOSED:
                raise DmsClosed(await self.refusals.refuse_dm(user_id)) from error
            log.warning("could not send a DM to %s: %s", user_id, error)
            raise
