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
from bot.posts.conversations import Conversations, OutOfReach
from bot.posts.notifications import Announcer
from bot.posts.undelivered import Undelivered
from bot.service import Match, MatchService, Player, ServiceError, Viewer
from bot.texts import Text, say, speaking, t
from bot.texts.mentions import OptionName
from bot.ui.described import WORDED
from bot.ui.permissions import told

log = logging.getLogger(__name__)

OOPS = t("service.oops")

Interaction = discord.Interaction[Any]

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2  # option types that hold a command's own options
Kind = discord.AppCommandOptionType
KINDS: dict[Kind, tuple[type | tuple[type, ...], Text]] = {  # JSON values, in words
    Kind.string: (str, t("service.option.string")),
    Kind.integer: (int, t("service.option.integer")),
    Kind.number: ((int, float), t("service.option.number")),
    Kind.boolean: (bool, t("service.option.boolean")),
}


class ServiceHolder(Protocol):
    """The part of the bot these helpers use (bot.app.BoardBot), named here so this module
    needs no import of the application that imports it."""

    service: MatchService
    announcer: Announcer


def service_of(interaction: Interaction) -> MatchService:
    return cast(ServiceHolder, interaction.client).service


def viewer(interaction: Interaction) -> Viewer:
    """Who acts and where, which decides the matches they can reach (Queries.reach)."""
    return Viewer(interaction.user.id, interaction.guild_id)


async def in_place(interaction: Interaction, match: Match) -> str:
    """The language of a match's place (see Announcer.language), for the public message an
    interaction posts or edits there: the server's, not the member's."""
    return await cast(ServiceHolder, interaction.client).announcer.language(match)


def player(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name, user.bot)


async def tell(interaction: Interaction, text: str | Text) -> None:
    """An ephemeral message, whether or not the interaction was answered already. Where
    Discord fails the follow-up (an outage) and the interaction's reply is one only the
    member sees (a command's own, or a picker), that reply is edited to say it instead,
    its buttons gone: edits may still get through."""
    text = limits.content(say(text))
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        if not await _private_reply(interaction):
            raise
        await interaction.edit_original_response(content=text, view=None)


async def _private_reply(interaction: Interaction) -> bool:
    """Whether the interaction's reply is seen only by its member: a command's own, or the
    private message a button is on (a move's picker); not one everyone sees."""
    kinds = discord.InteractionResponseType
    deferred = (kinds.deferred_channel_message, kinds.deferred_message_update)
    if interaction.response.type not in deferred:
        return False
    try:
        original = await interaction.original_response()
    except discord.HTTPException:
        return False
    return original.flags.ephemeral


def explain(error: ServiceError) -> str:
    """The error as the member reads it: its sentence, and under it, small, its hint."""
    return f"{error.message}\n-# {error.hint}" if error.hint else error.message


async def apologise(interaction: Interaction) -> None:
    try:
        await tell(interaction, OOPS)
    except discord.HTTPException:
        log.warning("could not tell the user about a failure")


@asynccontextmanager
async def answering(interaction: Interaction) -> AsyncIterator[None]:
    """Answer a ServiceError with its reason and hint; log anything else as the bug it is
    and apologise, so no user is ever left with a spinner. Everything it says is in the
    member's language (public posts choose their own: see Announcer.speaking). In a private
    conversation, the posts it makes answer this interaction, and boards that waited for one
    follow it."""
    conversations: Conversations = cast(ServiceHolder, interaction.client).announcer.conversations
    with speaking(str(interaction.locale)):
        try:
            with observed(interaction), conversations.hearing(interaction):
                await _remember_member(interaction)
                try:
                    yield
                finally:
                    await conversations.catch_up(interaction)
        except ServiceError as error:
            await tell(interaction, explain(error))
        except Undelivered as problem:
            where, viewer = interaction.channel_id, interaction.user.id
            await tell(
                interaction, problem.explain(interaction.app_permissions, where, None, viewer)
            )
            told(interaction)
        except OutOfReach as unreached:
            await tell(interaction, unreached.explain(interaction.user.id))
        except Exception:
            log.exception("handling %s failed", _describe(interaction))
            await apologise(interaction)


async def _remember_member(interaction: Interaction) -> None:
    """The member's and the server's locales, kept for the DMs and posts no interaction
    carries, and whether the member added the app to their account (see Settings.heard)."""
    guild_locale = interaction.guild_locale
    try:
        await service_of(interaction).settings.heard(
            interaction.user.id,
            str(interaction.locale),
            interaction.guild_id,
            None if guild_locale is None else str(guild_locale),
            installed=interaction.is_user_integration(),
        )
    except Exception:  # a language remembered later is better than a command refused now
        log.exception("could not remember what %s carried", _describe(interaction))


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


def _choice(choice: app_commands.Choice[Any]) -> str:
    """A choice as the reader's client shows it, and the value that chooses it where the
    two differ (what a value typed through the API, or offline, must be)."""
    words = WORDED.get(choice.name)  # where `described` made the name
    name = choice.name if words is None else say(words)
    value = str(choice.value)
    return name if name.lower() == value.lower() else f"{name} ({value})"


def _off(parameter: app_commands.Parameter, value: Any) -> ServiceError | None:
    """Why a value does not fit its parameter's type, choices or range; None if it does."""
    name = OptionName(parameter.name)
    shown = limits.quote(value) if isinstance(value, str) else limits.clip(str(value), 40)
    wanted, kind = KINDS.get(parameter.type, (object, ""))
    if not _typed(value, parameter.type, wanted):
        return ServiceError(
            t("service.option.not_kind", value=shown, kind=kind, name=name),
            t("service.option.not_kind_hint", name=name, kind=kind),
        )
    if parameter.choices:
        if any(value == choice.value for choice in parameter.choices):
            return None
        names = ", ".join(_choice(choice) for choice in parameter.choices)
        return ServiceError(
            t("service.option.not_choice", value=shown, name=name),
            t("service.option.not_choice_hint", choices=names),
        )
    low, high = parameter.min_value, parameter.max_value
    size: float = len(value) if isinstance(value, str) else value
    if (low is None or size >= low) and (high is None or size <= high):
        return None
    return ServiceError(
        t("service.option.out_of_range", value=shown, name=name),
        t("service.option.out_of_range_hint", name=name, allowed=_allowed(value, low, high)),
    )


def _allowed(value: Any, low: float | None, high: float | None) -> Text:
    """The range a parameter allows, in words: in characters for text, else as numbers."""
    if isinstance(value, str):
        if high is None:
            return t("service.option.characters_at_least", least=low)
        if low is None:
            return t("service.option.characters_at_most", most=high)
        return t("service.option.characters_between", least=low, most=high)
    if high is None:
        return t("service.option.at_least", least=low)
    if low is None:
        return t("service.option.at_most", most=high)
    return t("service.option.between", least=low, most=high)


def _describe(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"component {data.get('custom_id', '?')}"


def turns_text(match: Match) -> Text:
    """`1 turn played`, `12 turns played`: the same count wherever a match is shown."""
    return t("languages.turns_played", count=match.turns_played)


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
