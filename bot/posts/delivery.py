"""Posting where a permission may be withheld: an embed goes as plain text where the bot may
not embed links, so what it says still arrives (an analysis's summary beside its graph)."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.posts import limits
from bot.posts.conversations import Conversation
from bot.texts import say, t


def embed_text(embed: discord.Embed, locale: str | None = None) -> str:
    """An embed's title, description and fields as lines of plain text."""
    lines = [say(t("delivery.embed_title", title=embed.title), locale)] if embed.title else []
    lines += [embed.description] if embed.description else []
    lines += [
        say(t("delivery.embed_field", name=field.name, value=field.value), locale)
        for field in embed.fields
    ]
    return "\n".join(lines)


async def send_embedded(
    channel: discord.abc.Messageable | Conversation,
    embed: discord.Embed,
    picture: Callable[[], discord.File],
    locale: str | None = None,
) -> discord.Message:
    """Send an embed with a picture (`picture` makes the file: each send reads its own).
    Refused for a permission (without Embed Links), the embed's words go as plain text
    beside the picture; any other refusal goes up to the caller."""
    try:
        return await channel.send(embed=embed, file=picture())
    except discord.Forbidden:
        text = limits.content(embed_text(embed, locale))
        return await channel.send(text, file=picture())
