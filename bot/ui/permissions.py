"""The permissions the bot needs, in one list: the invite link is computed from it, the
deployment guide's table is tested against it, and what a server withholds is said, not
guessed (logged per server once, told to the first member in a channel where it cannot work).
"""

from __future__ import annotations

import base64
import binascii
import logging
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.texts import Text, say, t
from rules.phrases import listed

log = logging.getLogger(__name__)

SCOPES = ("bot", "applications.commands")


@dataclass(frozen=True)
class Needed:
    """One permission: its discord.py name, Discord's label, and why the bot asks for it
    (both from the catalogue, bot/texts/en.toml [permissions]).
    `essential` ones are those without which the bot cannot play in a channel at all; the
    others only change how (no thread, no archiving), and are explained when that happens."""

    name: str
    label: Text
    why: Text
    essential: bool = False


NEEDED = (
    Needed(
        "view_channel",
        t("permissions.view_channel.label"),
        t("permissions.view_channel.why"),
        True,
    ),
    Needed(
        "send_messages",
        t("permissions.send_messages.label"),
        t("permissions.send_messages.why"),
        True,
    ),
    Needed(
        "send_messages_in_threads",
        t("permissions.send_messages_in_threads.label"),
        t("permissions.send_messages_in_threads.why"),
        True,
    ),
    Needed(
        "attach_files",
        t("permissions.attach_files.label"),
        t("permissions.attach_files.why"),
        True,
    ),
    Needed(
        "create_public_threads",
        t("permissions.create_public_threads.label"),
        t("permissions.create_public_threads.why"),
    ),
    Needed(
        "read_message_history",
        t("permissions.read_message_history.label"),
        t("permissions.read_message_history.why"),
    ),
    Needed(
        "manage_threads",
        t("permissions.manage_threads.label"),
        t("permissions.manage_threads.why"),
    ),
    Needed(
        "embed_links",
        t("permissions.embed_links.label"),
        t("permissions.embed_links.why"),
    ),
)


def label(permission: str) -> Text:
    """Discord's name for one of the permissions the bot needs (`send_messages`)."""
    return next(p.label for p in NEEDED if p.name == permission)


def needed_permissions() -> discord.Permissions:
    return discord.Permissions(**{p.name: True for p in NEEDED})


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with exactly the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=needed_permissions(), scopes=SCOPES)


def application_id_from_token(token: str) -> int | None:
    """A bot token's first segment is the bot's user id (its application's id) in base64."""
    first = token.strip().partition(".")[0]
    try:
        text = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def lacking(granted: discord.Permissions, *, essential_only: bool = False) -> list[Needed]:
    return [
        p for p in NEEDED if not getattr(granted, p.name) and (p.essential or not essential_only)
    ]


def in_channel(granted: discord.Permissions, thread: bool) -> list[Needed]:
    """What the bot lacks to play in a channel: a thread needs Send Messages in Threads,
    a channel Send Messages."""
    skip = "send_messages" if thread else "send_messages_in_threads"
    return [p for p in lacking(granted, essential_only=True) if p.name != skip]


def names(missing: list[Needed], locale: str | None = None) -> str:
    """The labels as a sentence lists them ("Send Messages and Attach Files"): a bare comma
    read as a slip."""
    return say(listed([say(p.label, locale) for p in missing]), locale)


class PermissionWatch:
    """Says once what is missing: per server in the log, per channel to a member."""

    def __init__(self) -> None:
        self.logged: set[int] = set()
        self.told: set[int] = set()

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.check_server(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.check_server(guild)

    def check_server(self, guild: discord.Guild) -> None:
        if guild.id in self.logged:
            return
        self.logged.add(guild.id)
        missing = lacking(guild.me.guild_permissions)
        if missing:
            log.warning(
                "server %s (%d) withholds permissions the bot needs: %s",
                guild.name,
                guild.id,
                names(missing),
            )

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        """After any command, the first member in a channel where the bot cannot work is
        told what it lacks there (unless the command already said so)."""
        channel = interaction.channel_id
        if interaction.guild_id is None or channel is None or channel in self.told:
            return
        thread = isinstance(interaction.channel, discord.Thread)
        missing = in_channel(interaction.app_permissions, thread)
        if not missing:
            return
        self.told.add(channel)
        lacked = names(missing)
        text = say(
            t(
                "permissions.cannot_work",
                place=f"<#{channel}>",
                permissions=lacked,
                count=len(missing),
            )
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as error:
            log.info("could not tell a member about missing permissions: %s", error)


class WatchHolder(Protocol):
    permission_watch: PermissionWatch


def told(interaction: discord.Interaction[Any]) -> None:
    """The member was just told what the bot lacks in this channel: not again."""
    if interaction.channel_id is not None:
        cast(WatchHolder, interaction.client).permission_watch.told.add(interaction.channel_id)
