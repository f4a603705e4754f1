"""What every cog does the same way: answer errors, find the match meant, list choices."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.operations.handling import observed
from bot.posts import limits
from bot.posts.notifications import Undelivered
from bot.service import Match, MatchService, Player, ServiceError, Viewer
from bot.ui.permissions import told

log = logging.getLogger(__name__)

OOPS = "Something went wrong on our side, sorry. Please try again in a moment."

Interaction = discord.Interaction[Any]

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2  # option types that hold a command's own options
Kind = discord.AppCommandOptionType
KINDS: dict[Kind, tuple[type | tuple[type, ...], str]] = {  # JSON values, in words
    Kind.string: (str, "text"),
    Kind.integer: (int, "a whole number"),
    Kind.number: ((int, float), "a number"),
    Kind.boolean: (bool, "true or false"),
}


class ServiceHolder(Protocol):
    """The part of the bot these helpers use (bot.app.BoardBot), named here so this module
    needs no import of the application that imports it."""

    service: MatchService


def service_of(interaction: Interaction) -> MatchService:
    return cast(ServiceHolder, interaction.client).service


def viewer(interaction: Interaction) -> Viewer:
    """Who acts and where, which decides the matches they can reach (Queries.reach)."""
    return Viewer(interaction.user.id, interaction.guild_id)


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
        with observed(interaction):
            yield
    except ServiceError as error:
        await tell(interaction, explain(error))
    except Undelivered as problem:
        where = interaction.channel_id
        await tell(interaction, problem.explain(interaction.app_permissions, where))
        told(interaction)
    except Exception:
        log.exception("handling %s failed", _describe(interaction))
        await apologise(interaction)


async def options_offered(interaction: Interaction) -> bool:
    """Whether every option of a slash command holds what its command declares; if not,
    the member is told in a sentence and the command does not run. Discord's client keeps
    to the declared choices, ranges and types, but its API lets anything through."""
    command = interaction.command
    if interaction.type != discord.InteractionType.application_command or not isinstance(
        command, app_commands.Command
    ):
        return True
    declared = {parameter.display_name: parameter for parameter in command.parameters}
    for option in _given(dict(interaction.data or {})):
        parameter = declared.get(option.get("name", ""))
        problem = None if parameter is None else _off(parameter, option.get("value"))
        if problem is not None:
            await tell(interaction, explain(problem))
            return False
    return True


def _given(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A command's option values, below any subcommand group and subcommand."""
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
        options = list(options[0].get("options") or [])
    return options


def _typed(value: Any, kind: Kind, wanted: type | tuple[type, ...]) -> bool:
    """Whether a JSON value is of the option's type (`true` is a boolean, not a number)."""
    return isinstance(value, wanted) and isinstance(value, bool) == (kind is Kind.boolean)


def _off(parameter: app_commands.Parameter, value: Any) -> ServiceError | None:
    """Why a value does not fit its parameter's type, choices or range; None if it does."""
    name = parameter.display_name
    shown = limits.quote(value) if isinstance(value, str) else limits.clip(str(value), 40)
    wanted, kind = KINDS.get(parameter.type, (object, ""))
    if not _typed(value, parameter.type, wanted):
        return ServiceError(f"{shown} is not {kind} for {name}", f"give {name} {kind}")
    if parameter.choices:
        if any(value == choice.value for choice in parameter.choices):
            return None
        names = ", ".join(choice.name for choice in parameter.choices)
        return ServiceError(f"{shown} is not a choice for {name}", f"choose one of: {names}")
    low, high = parameter.min_value, parameter.max_value
    size: float = len(value) if isinstance(value, str) else value
    if (low is None or size >= low) and (high is None or size <= high):
        return None
    unit = " characters" if isinstance(value, str) else ""
    if high is None:
        allowed = f"{low}{unit} or more"
    elif low is None:
        allowed = f"{high}{unit} or fewer"
    else:
        allowed = f"{low} to {high}{unit}"
    return ServiceError(f"{shown} is out of range for {name}", f"give {name} {allowed}")


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
        viewer(interaction), channel_id, ref, recent=recent
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
