"""Registering the slash commands with Discord at start-up, only when they changed.

Discord keeps the command list per application (globally, or per server), and a global
registration is rate limited and slow to spread. So each start builds the payload it would
send, hashes it, and sends it only when the hash differs from the one stored for that
scope: the first start always registers, a restart of the same code sends nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")

# Where a command can be used (Discord's "interaction contexts": a server, the bot's own DM,
# other DMs and group DMs) and through which installs (added to a server, or to a person's
# account). The tree's default is everywhere through both; the commands that only make sense
# among a server's members say `server_only`.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
USER_INSTALL = 1  # Discord's integration type of an app added to a person's account


def server_only(command: T) -> T:
    """Offered only in servers that added the app (tournaments, server settings, the
    leaderboard, following members' matches): a person's install reaches no server's members."""
    command = app_commands.allowed_installs(guilds=True, users=False)(command)
    command = app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)
    return app_commands.guild_only(command)


def scope_of(application_id: int | None, guild_id: int | None) -> str:
    """The stored scope's name: Discord keeps commands per application, globally or per
    server (`DEV_GUILD_ID`), so a database shared by two applications keeps both apart."""
    where = "global" if guild_id is None else f"guild:{guild_id}"
    return f"application:{application_id}:{where}"


async def payload_hash(tree: app_commands.CommandTree[Any], guild_id: int | None) -> str:
    """A stable hash of what `tree.sync` would send for this scope (keys sorted), its
    translations included: a changed name or description in any language registers again."""
    guild = None if guild_id is None else discord.Object(guild_id)
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        payload = [command.to_dict(tree) for command in commands]
    else:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def install_url(application_id: int) -> str:
    """The link that adds the app to a person's account (a user install), so its commands
    work in their DMs and group DMs."""
    link = discord.utils.oauth_url(application_id, scopes=("applications.commands",))
    return f"{link}&integration_type={USER_INSTALL}"


async def register_commands(
    tree: app_commands.CommandTree[Any], store: Store, guild_id: int | None, *, force: bool
) -> list[app_commands.AppCommand] | None:
    """Register the commands in the server `guild_id` (instantly visible there) or globally,
    when they changed since the last registration or `force` asks; returns what Discord
    registered, or None when nothing was sent. Logs one line either way."""
    guild = None if guild_id is None else discord.Object(guild_id)
    if guild is not None:
        tree.copy_global_to(guild=guild)
    where = "globally" if guild is None else f"in server {guild_id}"
    scope = scope_of(tree.client.application_id, guild_id)
    digest = await payload_hash(tree, guild_id)
    if not force and await store.registered_hash(scope) == digest:
        log.info("commands unchanged since the last start (registered %s)", where)
        return None
    synced = await tree.sync(guild=guild)
    await store.set_registered_hash(scope, digest)
    log.info("registered %d commands %s", len(synced), where)
    return synced
