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
from bot.service.limits import Limits
from bot.store import Shards, parse_url
from bot.texts import Text, t

DEFAULT_DATABASE = Path("data") / "boardgames.sqlite3"


class SettingsError(Exception):
    """A setting is missing or malformed; the text tells the admin how to fix it (and
    `str(error)` is it in English, for logs)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)
        self.text = text


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
    limits: Limits = Limits()  # what one member may have going at once (LIMIT_*)

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
    guild = _snowflake(values, "DEV_GUILD_ID", t("settings.what.server_id"))
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(t("settings.error.log_level", level=level))
    url = values.get("DATABASE_URL", "").strip() or None
    if url is not None:
        try:
            parse_url(url)
        except ValueError as error:
            raise SettingsError(t("settings.error.database_url", error=error.args[0])) from error
    shard_count = _count(values, "SHARD_COUNT")
    shard_ids = _shard_ids(values.get("SHARD_IDS", ""), shard_count)
    log_format = values.get("LOG_FORMAT", "").strip().lower() or Settings.log_format
    if log_format not in FORMATS:
        raise SettingsError(t("settings.error.log_format", format=log_format))
    health_port = _count(values, "HEALTH_PORT")
    if health_port is not None and health_port > 65535:
        raise SettingsError(t("settings.error.health_port", port=health_port))
    backup_dir = (
        Path(values["BACKUP_DIR"].strip()) if values.get("BACKUP_DIR", "").strip() else None
    )
    if backup_dir is not None and url is not None and parse_url(url)[0] == "postgresql":
        raise SettingsError(t("settings.error.backup_postgres"))
    backup_every = (
        _amount(values, "BACKUP_EVERY", t("settings.what.hours")) or Settings.backup_every
    )
    return Settings(
        token=values.get("DISCORD_TOKEN", "").strip(),
        database_path=Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
        database_url=url,
        database_pool_size=_count(values, "DATABASE_POOL_SIZE") or Settings.database_pool_size,
        application_id=_snowflake(values, "APPLICATION_ID", t("settings.what.application_id")),
        dev_guild_id=guild,
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        ai_workers=_count(values, "AI_WORKERS") or Settings.ai_workers,
        ai_nodes=_count(values, "AI_NODES"),
        analysis_seconds=_amount(values, "ANALYSIS_SECONDS", t("settings.what.seconds"), 60)
        or Settings.analysis_seconds,
        log_format=log_format,
        health_port=health_port,
        backup_dir=backup_dir,
        backup_every=backup_every,
        backup_keep=_count(values, "BACKUP_KEEP") or Settings.backup_keep,
        limits=_limits(values),
    )


def _limits(values: Mapping[str, str]) -> Limits:
    """Each `LIMIT_<NAME>` (LIMIT_CHALLENGES, ...), a positive whole number, or its default."""
    return Limits(
        **{
            name: _count(values, f"LIMIT_{name.upper()}") or getattr(Limits, name)
            for name in Limits.__dataclass_fields__
        }
    )


def _snowflake(values: Mapping[str, str], name: str, what: Text) -> int | None:
    text = values.get(name, "").strip()
    if text and not text.isdigit():
        raise SettingsError(t("settings.error.id", name=name, what=what, text=text))
    return int(text) if text else None


def _count(values: Mapping[str, str], name: str) -> int | None:
    """A positive whole number, or None when unset."""
    text = values.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(t("settings.error.whole_number", name=name, text=text))
    return int(text)


def _amount(
    values: Mapping[str, str], name: str, unit: Text, at_most: float = math.inf
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
        if math.isfinite(at_most):
            raise SettingsError(
                t("settings.error.amount_up_to", name=name, unit=unit, most=at_most, text=text)
            )
        raise SettingsError(t("settings.error.amount", name=name, unit=unit, text=text))
    return amount


def _shard_ids(text: str, shard_count: int | None) -> tuple[int, ...] | None:
    """`0,1` or `0-3` or a mix: the shards this process runs, each below SHARD_COUNT."""
    text = text.replace(" ", "")
    if not text:
        return None
    if shard_count is None:
        raise SettingsError(t("settings.error.shards_uncounted"))
    ids: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or not (last or first).isdigit():
            raise SettingsError(t("settings.error.shard_numbers", part=part))
        ids.extend(range(int(first), int(last or first) + 1))
    wrong = [n for n in ids if n >= shard_count]
    if wrong or len(set(ids)) != len(ids) or not ids:
        raise SettingsError(
            t(
                "settings.error.shards_out_of_range",
                ids=text,
                last=shard_count - 1,
                shards=shard_count,
            )
        )
    return tuple(sorted(ids))
