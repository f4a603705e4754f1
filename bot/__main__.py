"""`python -m bot`: run the bot, or one of its admin and offline modes."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from collections.abc import Sequence

import discord

from bot.app import create_bot
from bot.offline import run_offline
from bot.service import MatchService
from bot.settings import TOKEN_HELP, Settings, SettingsError, load_settings
from bot.store import Store, StoreError

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
        help="replay every match's move log and report snapshots that differ, then exit",
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
    quiet = args.offline or args.check_db
    logging.basicConfig(
        level=logging.WARNING if quiet else settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.offline:
        return asyncio.run(run_offline(settings, sys.stdin))
    if args.check_db:
        return asyncio.run(check_db(settings))
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


async def check_db(settings: Settings) -> int:
    path = settings.database_path
    if not path.is_file():
        print(f"There is no database at {path}.", file=sys.stderr)
        return 2
    try:
        store = await Store.open(path)
    except (StoreError, OSError, sqlite3.DatabaseError) as error:
        print(f"Cannot open {path}: {error}", file=sys.stderr)
        return 2
    try:
        checked = len(await store.match_ids())
        problems = await MatchService(store).check()
    finally:
        await store.close()
    for problem in problems:
        print(problem)
    print(f"{checked} matches checked, {len(problems)} with problems.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
