"""Settings from the environment and an optional `.env` file, read once at start-up."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE = Path("data") / "boardgames.sqlite3"

TOKEN_HELP = """\
DISCORD_TOKEN is not set.

To run the bot on Discord:
  1. Open https://discord.com/developers/applications, create an application,
     and copy the token from its "Bot" page.
  2. Put it in a file named .env next to pyproject.toml:  DISCORD_TOKEN=your-token
     (see .env.example for every setting), or export it in the environment.
  3. Invite the bot with the "bot" and "applications.commands" scopes.

To try the bot without Discord or a token:
  python -m bot --offline
"""


class SettingsError(Exception):
    """A setting is missing or malformed; the message tells the admin how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str = ""
    database_path: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_workers: int = 1  # processes searching the computer's moves at once
    ai_nodes: int | None = None  # search by this node budget, not time (reproducible games)


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """The environment wins over `.env`, so a deployment can override a checked-out file."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    guild = values.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise SettingsError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}")
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(f"LOG_LEVEL {level!r} is not one of DEBUG, INFO, WARNING, ERROR")
    workers = _count(values, "AI_WORKERS", "1")
    nodes = _count(values, "AI_NODES", "")
    return Settings(
        token=values.get("DISCORD_TOKEN", "").strip(),
        database_path=Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
        dev_guild_id=int(guild) if guild else None,
        log_level=level,
        ai_workers=workers or 1,
        ai_nodes=nodes,
    )


def _count(values: Mapping[str, str], name: str, default: str) -> int | None:
    """A positive whole number setting, or None when it is empty."""
    text = values.get(name, default).strip() or default
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(f"{name} must be a whole number of at least 1, not {text!r}")
    return int(text)
