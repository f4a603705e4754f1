"""A file a member attached to a command, read: checked for size before it is downloaded,
parsed off the event loop (bot.records knows the formats, not Discord)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.records.imports import MAX_BYTES, RecordError, Study, read_position, read_record
from bot.texts import t
from rules import Game


async def download(attachment: discord.Attachment) -> bytes:
    if attachment.size > MAX_BYTES:
        raise RecordError(
            t("records.bad.too_large", size=attachment.size // 1024, limit=MAX_BYTES // 1024)
        )
    return await attachment.read()


async def read_attached(game: Game[Any, Any], attachment: discord.Attachment) -> Any:
    """The position of `game` an attached diagram or record gives (a record is replayed,
    which is CPU work: in a thread)."""
    data = await download(attachment)
    return await asyncio.to_thread(read_position, game, data)


async def study_attached(attachment: discord.Attachment) -> Study:
    """An attached record, read (not yet replayed)."""
    return await asyncio.to_thread(read_record, await download(attachment))
