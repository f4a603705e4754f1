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
from typing import Any

import discord
from discord import app_commands

from bot.store import Store

log = logging.getLogger(__name__)


def scope_of(application_id: int | None, guild_id: int | None) -> str:
    """The stored scope's name: Discord keeps commands per application, globally or per
    server (`DEV_GUILD_ID`), so a database shared by two applications keeps both apart."""
    where = "global" if guild_id is None else f"guild:{guild_id}"
    return f"application:{application_id}:{where}"


def payload_hash(tree: app_commands.CommandTree[Any], guild_id: int | None) -> str:
    """A stable hash of what `tree.sync` would send for this scope (keys sorted)."""
    guild = None if guild_id is None else discord.Object(guild_id)
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


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
    digest = payload_hash(tree, guild_id)
    if not force and await store.registered_hash(scope) == digest:
        log.info("commands unchanged since the last start (registered %s)", where)
        return None
    synced = await tree.sync(guild=guild)
    await store.set_registered_hash(scope, digest)
    log.info("registered %d commands %s", len(synced), where)
    return synced
