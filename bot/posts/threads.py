"""A match thread's upkeep once its board has moved on or its match has ended: old boards
lose their buttons, and the thread of a match that is over is archived."""

from __future__ import annotations

import logging

import discord

from bot.posts.undelivered import delivering, match_places
from bot.service import Match
from bot.texts import t

log = logging.getLogger(__name__)


async def strip_buttons(channel: discord.PartialMessageable, message_id: int) -> None:
    """The message's buttons go; a failure is only logged (its clicks are refused anyway)."""
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as error:
        log.info("could not strip the buttons of message %s: %s", message_id, error)


async def archive(client: discord.Client, match: Match) -> None:
    """Archive the match's thread, if it has one; Undelivered if Discord refused."""
    if match.row.thread_id is None:
        return
    try:
        thread = client.get_channel(match.row.thread_id)
        if thread is None:
            thread = await client.fetch_channel(match.row.thread_id)
    except discord.HTTPException as error:
        log.info("could not find the thread of match #%s: %s", match.id, error)
        return
    if isinstance(thread, discord.Thread):
        doing, over = t("posts.undelivered.archive"), t("posts.undelivered.over_anyway")
        async with delivering(doing, match_places(match), ("manage_threads",), over, match):
            await thread.edit(archived=True)
