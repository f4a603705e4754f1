"""Starting the bot, and saying in one sentence why it could not start.

A failure an admin can fix (no network, a refused token, a database that is down, refuses
the login or cannot be written) ends the process with status 1 and one line naming the
cause and what to check (bot/texts/en.toml [admin]); the traceback is logged only at
LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sqlite3
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import asyncpg
import discord

from bot.operations.signals import stop_on_signals
from bot.settings import Settings
from bot.store import Store, StoreError, open_store, parse_url
from bot.texts import Text, say, t

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)

DATABASE_ERRORS = (StoreError, OSError, TimeoutError, sqlite3.Error, asyncpg.PostgresError)
LOGIN_REFUSED = (
    asyncpg.InvalidPasswordError,
    asyncpg.InvalidAuthorizationSpecificationError,
)


class StartupFailure(Exception):
    """Why the bot cannot start, in one sentence for the admin."""

    def __init__(self, problem: Text) -> None:
        super().__init__(str(problem))
        self.problem = problem


async def open_database(settings: Settings) -> Store:
    """The store the settings name, or a StartupFailure saying why it cannot be opened."""
    try:
        backend, target = _backend(settings.database)
        if backend == "sqlite":
            await asyncio.to_thread(_probe_sqlite, Path(target))
        return await open_store(settings.database, pool_size=settings.database_pool_size)
    except DATABASE_ERRORS as error:
        raise StartupFailure(database_problem(settings.database, error)) from error


async def check_database(settings: Settings) -> None:
    """Open the store and close it: a wrong path or an unreachable PostgreSQL is named
    before Discord is reached, even without a network."""
    await (await open_database(settings)).close()


def _backend(where: str | Path) -> tuple[str, str]:
    return ("sqlite", str(where)) if isinstance(where, Path) else parse_url(where)


def _probe_sqlite(path: Path) -> None:
    """Open the file once the plain way: aiosqlite leaves its thread behind when a first
    connection fails, which then prints a traceback at exit."""
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
        sqlite3.connect(path).close()


def database_problem(where: str | Path, error: BaseException) -> Text:
    """One sentence on a database that would not open (never showing a password)."""
    backend, target = _backend(where)
    if isinstance(error, StoreError):
        return t("admin.database.unusable", error=_one_line(error))
    if backend == "sqlite":
        return t(
            "admin.database.sqlite_use"
            if isinstance(error, sqlite3.Error)
            else "admin.database.sqlite_write",
            path=target,
            reason=_reason(error),
        )
    server, user, database = _postgres_parts(target)
    if isinstance(error, LOGIN_REFUSED):
        return t("admin.database.login_refused", server=server, user=user, error=_one_line(error))
    if isinstance(error, asyncpg.PostgresError):
        return t("admin.database.refused", server=server, database=database, error=_one_line(error))
    return t("admin.database.unreachable", server=server, reason=_reason(error))


def discord_problem(error: discord.LoginFailure | aiohttp.ClientError) -> Text:
    """One sentence on why Discord could not be reached or refused us."""
    if isinstance(error, discord.LoginFailure):
        return t("admin.discord.token_refused")
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return t("admin.discord.unresolved", host=error.host)
    if isinstance(error, aiohttp.ClientConnectorError):
        reason = _reason(error.os_error)
        return t("admin.discord.unreachable", host=error.host, port=error.port, reason=reason)
    return t("admin.discord.failed", error=_one_line(error))


async def serve(bot: BoardBot, token: str) -> None:
    """Check the database, log in, run `setup_hook`, connect, and run until stopped
    (Client.run without its logging set-up); SIGTERM and SIGINT stop the bot cleanly."""
    await check_database(bot.settings)
    async with bot:
        stop_on_signals(bot.stop)
        await bot.start(token)


def run(work: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run `work` (serving, or a `--sync`); 1 with one sentence on stderr if it fails for
    a reason the admin can fix, 0 otherwise (also on Ctrl+C)."""
    try:
        asyncio.run(work())
    except KeyboardInterrupt:
        return 0
    except StartupFailure as failure:
        log.debug("the bot could not start", exc_info=failure)
        print(" ".join(say(failure.problem).split()), file=sys.stderr)
        return 1
    except (discord.LoginFailure, aiohttp.ClientError) as error:
        log.debug("the bot could not start", exc_info=error)
        print(say(discord_problem(error)), file=sys.stderr)
        return 1
    return 0


def _postgres_parts(url: str) -> tuple[str, str, str]:
    """(host:port, user, database) of a PostgreSQL URL; the host may be in the query."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = parts.hostname or query.get("host", ["localhost"])[0]
    port = parts.port or int(query.get("port", ["5432"])[0])
    user = parts.username or query.get("user", [""])[0]
    return f"{host}:{port}", user, parts.path.lstrip("/")


def _reason(error: BaseException) -> Text | str:
    """The cause in a few words: refused, unresolvable, no answer, or the system's words."""
    if isinstance(error, ConnectionRefusedError) or "refused" in str(error).lower():
        return t("admin.reason.refused")
    if isinstance(error, socket.gaierror):
        return t("admin.reason.unresolved")
    if isinstance(error, FileExistsError | NotADirectoryError):
        return t("admin.reason.file_in_the_way")
    if isinstance(error, TimeoutError):
        return t("admin.reason.no_answer")
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return _one_line(error)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
