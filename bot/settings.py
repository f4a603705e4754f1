"""Settings from the environment and an optional `.env` file, read once at start-up."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from bot.operations.logs import FORMATS
from bot.store import Shards, parse_url

DEFAULT_DATABASE = Path("data") / "boardgames.sqlite3"

TOKEN_HELP = """\
DISCORD_TOKEN is not set.

To run the bot on Discord:
  1. Open https://discord.com/developers/applications, create an application,
     and copy the token from its "Bot" page.
  2. Put it in a file named .env next to pyproject.toml:  DISCORD_TOKEN=your-token
     (see .env.example for every setting), or export it in the environment.
  3. Run `python -m bot --invite` and open the link it prints to add the bot to a server.

To try the bot without Discord or a token:
  python -m bot --offline
"""

INVITE_HELP = """\
The invite link needs the application's id: set APPLICATION_ID (the "Application ID" on
your application's General Information page at https://discord.com/developers/applications),
or DISCORD_TOKEN, whose first part holds the same id.
"""


class SettingsError(Exception):
    """A setting is missing or malformed; the message tells the admin how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str = ""
    application_id: int | None = None  # for the invite link; else read from the token
    database_path: Path = DEFAULT_DATABASE
    database_url: str | None = None  # when set, wins over database_path
    database_pool_size: int = 10
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_workers: int = 1  # processes searching the computer's moves at once
    ai_nodes: int | None = None  # search by this node budget, not time (reproducible games)
    analysis_seconds: float = 0.5  # CPU seconds per position of a computer analysis
    shard_count: int | None = None  # None: as many as Discord recommends
    shard_ids: tuple[int, ...] | None = None  # None: all of them, in this process
    log_format: str = "text"  # or "json": one object a line (bot.operations.logs)
    health_port: int | None = None  # serve /healthz, /readyz and /metrics here
    backup_dir: Path | None = None  # make backups here on a schedule (SQLite only)
    backup_every: float = 24.0  # hours between two scheduled backups
    backup_keep: int = 7  # scheduled backups kept, the newest

    @property
    def shards(self) -> Shards | None:
        """The servers this process acts for, by their shards; None when it runs them all."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        return Shards(self.shard_count, self.shard_ids)

    @property
    def database(self) -> str | Path:
        """Where the store lives: the URL if one is set, else the SQLite file."""
        return self.database_url or self.database_path


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """The environment wins over `.env`, so a deployment can override a checked-out file."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    guild = _snowflake(values, "DEV_GUILD_ID", "a server id")
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(f"LOG_LEVEL {level!r} is not one of DEBUG, INFO, WARNING, ERROR")
    url = values.get("DATABASE_URL", "").strip() or None
    if url is not None:
        try:
            parse_url(url)
        except ValueError as error:
            raise SettingsError(f"DATABASE_URL: {error}") from error
    shard_count = _count(values, "SHARD_COUNT")
    shard_ids = _shard_ids(values.get("SHARD_IDS", ""), shard_count)
    log_format = values.get("LOG_FORMAT", "").strip().lower() or Settings.log_format
    if log_format not in FORMATS:
        raise SettingsError(f"LOG_FORMAT must be text or json, not {log_format!r}")
    health_port = _count(values, "HEALTH_PORT")
    if health_port is not None and health_port > 65535:
        raise SettingsError(f"HEALTH_PORT must be a port number up to 65535, not {health_port}")
    backup_dir = (
        Path(values["BACKUP_DIR"].strip()) if values.get("BACKUP_DIR", "").strip() else None
    )
    if backup_dir is not None and url is not None and parse_url(url)[0] == "postgresql":
        raise SettingsError(
            "BACKUP_DIR backs up an SQLite database; for PostgreSQL use pg_dump "
            "(docs/operations.md shows how)"
        )
    backup_every = _amount(values, "BACKUP_EVERY", "hours") or Settings.backup_every
    return Settings(
        token=values.get("DISCORD_TOKEN", "").strip(),
        database_path=Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
        database_url=url,
        database_pool_size=_count(values, "DATABASE_POOL_SIZE") or Settings.database_pool_size,
        application_id=_snowflake(values, "APPLICATION_ID", "an application id"),
        dev_guild_id=guild,
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        ai_workers=_count(values, "AI_WORKERS") or Settings.ai_workers,
        ai_nodes=_count(values, "AI_NODES"),
        analysis_seconds=_amount(values, "ANALYSIS_SECONDS", "seconds", 60)
        or Settings.analysis_seconds,
        log_format=log_format,
        health_port=health_port,
        backup_dir=backup_dir,
        backup_every=backup_every,
        backup_keep=_count(values, "BACKUP_KEEP") or Settings.backup_keep,
    )


def _snowflake(values: Mapping[str, str], name: str, what: str) -> int | None:
    text = values.get(name, "").strip()
    if text and not text.isdigit():
        raise SettingsError(f"{name} must be {what} (digits only), not {text!r}")
    return int(text) if text else None


def _count(values: Mapping[str, str], name: str) -> int | None:
    """A positive whole number, or None when unset."""
    text = values.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(f"{name} must be a whole number of at least 1, not {text!r}")
    return int(text)


def _amount(
    values: Mapping[str, str], name: str, unit: str, at_most: float = math.inf
) -> float | None:
    """A positive number of `unit` (up to `at_most`), or None when unset."""
    text = values.get(name, "").strip()
    if not text:
        return None
    try:
        amount = float(text)
    except ValueError:
        amount = 0.0
    if not (0 < amount <= at_most and math.isfinite(amount)):
        bound = f" and up to {at_most:g}" if math.isfinite(at_most) else ""
        raise SettingsError(f"{name} must be a number of {unit} above 0{bound}, not {text!r}")
    return amount


def _shard_ids(text: str, shard_count: int | None) -> tuple[int, ...] | None:
    """`0,1` or `0-3` or a mix: the shards this process runs, each below SHARD_COUNT."""
    text = text.replace(" ", "")
    if not text:
        return None
    if shard_count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT: set the total number of shards too")
    ids: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or not (last or first).isdigit():
            raise SettingsError(f"SHARD_IDS lists shard numbers like 0,1 or 0-3, not {part!r}")
        ids.extend(range(int(first), int(last or first) + 1))
    wrong = [n for n in ids if n >= shard_count]
    if wrong or len(set(ids)) != len(ids) or not ids:
        raise SettingsError(
            f"SHARD_IDS {text!r} must name distinct shards from 0 to {shard_count - 1} "
            f"(SHARD_COUNT is {shard_count})"
        )
    return tuple(sorted(ids))
