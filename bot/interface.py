"""What every cog does the same way: answer errors, find the match meant, list choices."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot import limits
from bot.notifications import Undelivered
from bot.service import Match, MatchService, Player, ServiceError

log = logging.getLogger(__name__)

OOPS = "Something went wrong on our side, sorry. Please try again in a moment."

Interaction = discord.Interaction[Any]


class ServiceHolder(Protocol):
    """The part of the bot these helpers use (bot.app.BoardBot), named here so this module
    needs no import of the application that imports it."""

    service: MatchService


def service_of(interaction: Interaction) -> MatchService:
    return cast(ServiceHolder, interaction.client).service


def player(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name, user.bot)


async def tell(interaction: Interaction, text: str) -> None:
    """An ephemeral message, whether or not the interaction was answered already."""
    text = limits.content(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def explain(error: ServiceError) -> str:
    """The error as a sentence: "it is..." -> "It is...", but "c3 has no stone" and a message
    that starts with a player's name ("ivy's pawn...") keep their case."""
    text = error.message
    first = text.partition(" ")[0]
    if first.isalpha() and not text.startswith(error.names):
        text = text[:1].upper() + text[1:]
    if not text.endswith((".", "!", "?")):
        text += "."
    return f"{text}\n-# {error.hint}" if error.hint else text


async def apologise(interaction: Interaction) -> None:
    try:
        await tell(interaction, OOPS)
    except discord.HTTPException:
        log.warning("could not tell the user about a failure")


@asynccontextmanager
async def answering(interaction: Interaction) -> AsyncIterator[None]:
    """Answer a ServiceError with its reason and hint; log anything else as the bug it is
    and apologise, so no user is ever left with a spinner."""
    try:
        yield
    except ServiceError as error:
        await tell(interaction, explain(error))
    except Undelivered as problem:
        where = interaction.channel_id
        await tell(interaction, problem.explain(interaction.app_permissions, where))
    except Exception:
        log.exception("handling %s failed", _describe(interaction))
        await apologise(interaction)


def _describe(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"component {data.get('custom_id', '?')}"


def turns_text(match: Match) -> str:
    """`1 turn played`, `12 turns played`: the same count wherever a match is shown."""
    count = match.turns_played
    return f"{count} turn{'' if count == 1 else 's'} played"


async def resolve(interaction: Interaction, ref: str | None, *, recent: bool = False) -> Match:
    """The match a command means (see Queries.resolve; `recent` for commands that only look)."""
    channel_id = interaction.channel_id or 0
    return await service_of(interaction).queries.resolve(
        interaction.user.id, interaction.guild_id, channel_id, ref, recent=recent
    )


async def match_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The user's open matches in this server whose description contains what was typed."""
    listing = await service_of(interaction).queries.listing(
        interaction.user.id, interaction.guild_id
    )
    typed = current.strip().lower().lstrip("#")
    return limits.choices(
        app_commands.Choice(name=m.describe(), value=str(m.id))
        for m in listing.matches
        if typed in m.describe().lower()
    )
