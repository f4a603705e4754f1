"""Discord's size limits, and the one place that fits what the bot sends inside them.

Every cog, view and notification builds its text, labels, ids, option lists and files
through these helpers, so no message can grow past what Discord accepts (it answers 400
and the member would get an apology instead of an answer).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # no discord at run time: the match service quotes input with this module
    import discord
    from discord import app_commands

CONTENT = 2000  # characters in a message
LABEL = 80  # characters on a button
CUSTOM_ID = 100
OPTION_TEXT = 100  # a select option's label or value, an autocomplete choice's name or value
PLACEHOLDER = 150
OPTIONS = 25  # options in a select menu, choices offered by autocomplete
THREAD_NAME = 100
UPLOAD = 10 * 1024 * 1024  # bytes in one file, without a boosted server
ELLIPSIS = "…"
QUOTED = 100  # characters of what a member typed that a reply repeats back
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
ATTACHMENT_DESCRIPTION = 1024  # an image's alt text
EMBED_TOTAL = 6000  # characters of title, description and every field's name and value


class TooLarge(ValueError):
    """Something the bot would send does not fit Discord's limits and cannot be shortened."""


def clip(text: str, limit: int) -> str:
    """The text, cut to `limit` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


def quote(typed: str) -> str:
    """What a member typed, quoted back in a reply: at most a short prefix, so a long input
    can never push a reply past Discord's limits."""
    return repr(clip(typed.strip(), QUOTED))


def content(text: str) -> str:
    return clip(text, CONTENT)


def description(text: str) -> str:
    return clip(text, ATTACHMENT_DESCRIPTION)


def label(text: str) -> str:
    return clip(text, LABEL)


def placeholder(text: str) -> str:
    return clip(text, PLACEHOLDER)


def option_label(text: str) -> str:
    return clip(text, OPTION_TEXT)


def thread_name(text: str) -> str:
    return clip(text, THREAD_NAME)


def custom_id(text: str) -> str:
    """A custom_id is matched exactly, so it is never shortened: too long is a bug."""
    if len(text) > CUSTOM_ID:
        raise TooLarge(f"custom_id {text[:20]!r}… has {len(text)} characters, at most {CUSTOM_ID}")
    return text


def choices(
    offered: Iterable[app_commands.Choice[Any]],
) -> list[app_commands.Choice[Any]]:
    """At most 25 autocomplete choices, names cut to fit; a value is matched exactly, so a
    choice whose value is too long is left out rather than cut."""
    fitting = [
        type(c)(name=option_label(c.name), value=c.value)
        for c in offered
        if len(str(c.value)) <= OPTION_TEXT
    ]
    return fitting[:OPTIONS]


def upload(data: bytes, name: str) -> bytes:
    if len(data) > UPLOAD:
        raise TooLarge(f"{name} has {len(data)} bytes, at most {UPLOAD} can be uploaded")
    return data


def pages(items: Sequence[str], room: int = CONTENT) -> list[list[str]]:
    """The lines split into pages that each fit `room` characters when joined by newlines
    (a single line too long for a page is cut)."""
    result: list[list[str]] = [[]]
    used = 0
    for item in items:
        line = clip(item, room)
        needed = len(line) + (1 if result[-1] else 0)
        if result[-1] and used + needed > room:
            result.append([])
            used, needed = 0, len(line)
        result[-1].append(line)
        used += needed
    return result


def embed(
    title: str, description: str = "", fields: Iterable[tuple[str, str]] = ()
) -> discord.Embed:
    """An embed cut to fit: title, fields and description each clipped to their limit, fields
    past the 25th or past the total left out, the description shortened to what remains."""
    import discord  # here, not at the top: the match service imports this module without it

    title = clip(title, EMBED_TITLE)
    kept: list[tuple[str, str]] = []
    used = len(title)
    for name, value in list(fields)[:EMBED_FIELDS]:
        name, value = clip(name, FIELD_NAME), clip(value or "-", FIELD_VALUE)
        if used + len(name) + len(value) > EMBED_TOTAL:
            break
        kept.append((name, value))
        used += len(name) + len(value)
    result = discord.Embed(
        title=title, description=clip(description, min(EMBED_DESCRIPTION, EMBED_TOTAL - used))
    )
    for name, value in kept:
        result.add_field(name=name, value=value, inline=False)
    return result
