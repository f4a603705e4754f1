"""`python -m bot`: run the bot, or one of its admin and offline modes."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import discord

from bot.app import create_bot
from bot.offline import run_offline
from bot.service import MatchService
from bot.settings import TOKEN_HELP, Settings, SettingsError, load_settings
from bot.store import Store, StoreError, open_store, parse_url
from bot.store.copy import copy_database, differences

log = logging.getLogger("bot")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="A Discord bot for abstract board games."
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands with Discord globally, then exit",
    )
    mode.add_argument(
        "--check-db",
        action="store_true",
        help="replay every match's move log and report snapshots that differ, then exit "
        "(the database named by DATABASE_URL, else DATABASE_PATH)",
    )
    mode.add_argument(
        "--copy-db",
        nargs=2,
        metavar=("SOURCE_URL", "TARGET_URL"),
        help="copy a whole database into an empty one and verify the copy, then exit "
        "(URLs like sqlite:///data/boardgames.sqlite3 or postgresql://user@host:5432/db)",
    )
    mode.add_argument(
        "--offline",
        action="store_true",
        help="play in the terminal against an in-memory Discord (no token needed)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    quiet = args.offline or args.check_db or args.copy_db
    logging.basicConfig(
        level=logging.WARNING if quiet else settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.offline:
        return asyncio.run(run_offline(settings, sys.stdin))
    if args.check_db:
        return asyncio.run(check_db(settings))
    if args.copy_db:
        return asyncio.run(copy_db(*args.copy_db))
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    try:
        if args.sync:
            return asyncio.run(sync_commands(settings))
        create_bot(settings).run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN; copy it again from the Bot page.", file=sys.stderr)
        return 2
    return 0


async def sync_commands(settings: Settings) -> int:
    """Global sync is slow to propagate and rate limited, so it happens only on request."""
    bot = create_bot(settings, sync_global=True)
    async with bot:
        await bot.login(settings.token)
    print(f"Registered {len(bot.synced)} commands globally: ", end="")
    print(", ".join(f"/{c.name}" for c in bot.synced))
    return 0


class Unopenable(Exception):
    """A database that cannot be opened; the message says which and why."""


OPEN_ERRORS = (StoreError, OSError, sqlite3.DatabaseError, asyncpg.PostgresError)


@asynccontextmanager
async def opened(where: str | Path, *, must_exist: bool = True) -> AsyncIterator[Store]:
    """A store that is closed afterwards; an SQLite file that should exist is never created."""
    try:
        file = _sqlite_file(where)
    except ValueError as error:
        raise Unopenable(str(error)) from error
    if must_exist and file is not None and not file.is_file():
        raise Unopenable(f"There is no database at {file}.")
    try:
        store = await open_store(where)
    except OPEN_ERRORS as error:
        raise Unopenable(f"Cannot open {where}: {error}") from error
    try:
        yield store
    finally:
        await store.close()


def _sqlite_file(where: str | Path) -> Path | None:
    if isinstance(where, Path):
        return where
    backend, target = parse_url(where)
    return Path(target) if backend == "sqlite" else None


async def check_db(settings: Settings) -> int:
    try:
        async with opened(settings.database) as store:
            checked = len(await store.match_ids())
            problems = await MatchService(store).audit.check()
    except Unopenable as error:
        print(error, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    print(f"{checked} matches checked, {len(problems)} with problems.")
    return 1 if problems else 0


async def copy_db(source_url: str, target_url: str) -> int:
    """Copy, then verify: every table's rows identical, and every match's log replayed on
    the copy giving what it gives on the source."""
    try:
        async with opened(source_url) as source, opened(target_url, must_exist=False) as target:
            copied = await copy_database(source, target)
            problems = await differences(source, target)
            replayed = await MatchService(target).audit.check()
            if replayed != await MatchService(source).audit.check():
                problems.append("replaying the move logs gives other results on the copy")
    except Unopenable as error:
        print(error, file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"Nothing copied: {error}.", file=sys.stderr)
        return 2
    print(", ".join(f"{table}: {count}" for table, count in copied.items()), "rows copied.")
    for problem in [*problems, *replayed]:
        print(problem)
    print(
        f"{copied['matches']} match logs replayed on the copy, {len(replayed)} with problems; "
        + ("the copy is identical." if not problems else "THE COPY DIFFERS.")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
