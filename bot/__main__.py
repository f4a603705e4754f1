"""`python -m bot`: run the bot, or one of its admin and offline modes."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from bot import launch
from bot.app import create_bot
from bot.clock import SystemClock
from bot.offline import run_offline
from bot.operations import logs
from bot.operations.backup import BackupError, backup, restore, sqlite_file
from bot.records.gather import write_all
from bot.service import MatchService
from bot.settings import Settings, SettingsError, load_settings
from bot.store import Store, StoreError, open_store, parse_url
from bot.store.copy import copy_database, differences
from bot.texts import Text, say, t
from bot.ui.commands_sync import install_url
from bot.ui.permissions import application_id_from_token, invite_url

log = logging.getLogger("bot")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description=say(t("admin.cli.description"))
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--sync", action="store_true", help=say(t("admin.cli.sync")))
    mode.add_argument("--invite", action="store_true", help=say(t("admin.cli.invite")))
    mode.add_argument("--check-db", action="store_true", help=say(t("admin.cli.check_db")))
    mode.add_argument(
        "--copy-db",
        nargs=2,
        metavar=("SOURCE_URL", "TARGET_URL"),
        help=say(t("admin.cli.copy_db")),
    )
    mode.add_argument("--backup", metavar="PATH", type=Path, help=say(t("operations.cli.backup")))
    mode.add_argument("--restore", metavar="PATH", type=Path, help=say(t("operations.cli.restore")))
    mode.add_argument("--offline", action="store_true", help=say(t("admin.cli.offline")))
    mode.add_argument("--export", metavar="DIR", type=Path, help=say(t("records.cli.export")))
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(logs.redact(say(t("admin.cli.configuration", error=error.text))), file=sys.stderr)
        return 2
    quiet = any(
        (args.offline, args.check_db, args.copy_db, args.invite, args.backup, args.restore)
    ) or bool(args.export)
    logs.configure(
        logging.WARNING if quiet else settings.log_level,
        settings.log_format,
        logs.secrets_of(settings.token, settings.database_url),
    )
    if args.offline:
        return asyncio.run(run_offline(settings, sys.stdin))
    if args.check_db:
        return asyncio.run(check_db(settings))
    if args.copy_db:
        return asyncio.run(copy_db(*args.copy_db))
    if args.backup:
        return back_up(settings, args.backup)
    if args.export:
        return asyncio.run(export_records(settings, args.export))
    if args.restore:
        return asyncio.run(restore_db(settings, args.restore))
    if args.invite:
        return invite(settings)
    if not settings.token:
        print(say(t("settings.token_help")), file=sys.stderr)
        return 2
    if args.sync:
        return sync_commands(settings)
    bot = create_bot(settings)
    return launch.run(lambda: launch.serve(bot, settings.token))


def invite(settings: Settings) -> int:
    application_id = settings.application_id or application_id_from_token(settings.token)
    if application_id is None:
        if settings.token:
            prefixed = settings.token.lower().startswith("bot ")
            why = t("operations.token_prefixed") if prefixed else t("operations.token_shape")
            print(t("operations.token_malformed", why=why), file=sys.stderr)
        else:
            print(say(t("settings.invite_help")), file=sys.stderr)
        return 2
    print(say(t("places.invite_server", link=invite_url(application_id))))
    print(say(t("places.invite_user", link=install_url(application_id))))
    return 0


def sync_commands(settings: Settings) -> int:
    """Register the commands even if the stored hash says they are unchanged (after
    commands were removed by hand, say), then exit."""
    bot = create_bot(settings, sync_only=True)

    async def register() -> None:
        await launch.check_database(settings)
        async with bot:
            await bot.login(settings.token)

    status = launch.run(register)
    if status == 0:
        names = ", ".join(f"/{c.name}" for c in bot.synced)
        guild, commands = settings.dev_guild_id, len(bot.synced)
        if guild is None:
            print(say(t("admin.sync.globally", commands=commands, names=names)))
        else:
            print(say(t("admin.sync.in_guild", commands=commands, guild=guild, names=names)))
    return status


def back_up(settings: Settings, target: Path) -> int:
    try:
        source = sqlite_file(settings.database)
        backup(source, target)
    except BackupError as error:
        print(error, file=sys.stderr)
        return 2
    size = target.stat().st_size // 1024
    print(t("operations.backup_made", source=str(source), target=str(target), size=size))
    return 0


async def restore_db(settings: Settings, copy: Path) -> int:
    try:
        target = sqlite_file(settings.database)
        restored = await restore(copy, target)
    except BackupError as error:
        print(error, file=sys.stderr)
        return 1
    print(t("operations.restored", copy=str(copy), target=str(target), matches=restored.matches))
    if restored.kept is not None:
        print(t("operations.restored_kept", kept=str(restored.kept)))
    return 0


class Unopenable(Exception):
    """A database that cannot be opened; the problem says which and why."""

    def __init__(self, problem: Text | str) -> None:
        super().__init__(str(problem))
        self.problem = problem


@asynccontextmanager
async def opened(where: str | Path, *, must_exist: bool = True) -> AsyncIterator[Store]:
    """A store that is closed afterwards; an SQLite file that should exist is never created."""
    try:
        file = _sqlite_file(where)
    except ValueError as error:
        raise Unopenable(logs.redact(str(error))) from error
    if must_exist and file is not None and not file.is_file():
        raise Unopenable(t("admin.database.missing", path=file))
    try:
        store = await open_store(where)
    except launch.DATABASE_ERRORS as error:
        raise Unopenable(launch.database_problem(where, error)) from error
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
        print(say(error.problem), file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    print(say(t("admin.check.checked", count=checked, problems=len(problems))))
    return 1 if problems else 0


async def export_records(settings: Settings, folder: Path) -> int:
    """Every played match as record files in `folder` (bot.records.gather.write_all)."""
    try:
        async with opened(settings.database) as store:
            written = await write_all(MatchService(store).cache, SystemClock(), folder)
    except Unopenable as error:
        print(say(error.problem), file=sys.stderr)
        return 2
    except OSError as error:
        print(
            say(t("records.cli.unwritable", folder=str(folder), error=str(error))), file=sys.stderr
        )
        return 2
    for match_id in written.broken:
        print(say(t("records.cli.broken", match=match_id)), file=sys.stderr)
    print(say(t("records.cli.written", count=written.files, folder=str(folder))))
    return 1 if written.broken else 0


async def copy_db(source_url: str, target_url: str) -> int:
    """Copy, then verify: every table's rows identical, and every match's log replayed on
    the copy giving what it gives on the source."""
    try:
        async with opened(source_url) as source, opened(target_url, must_exist=False) as target:
            copied = await copy_database(source, target)
            problems = await differences(source, target)
            replayed = await MatchService(target).audit.check()
            if replayed != await MatchService(source).audit.check():
                problems.append(say(t("admin.copy.replayed_differently")))
    except Unopenable as error:
        print(say(error.problem), file=sys.stderr)
        return 2
    except StoreError as error:
        print(say(t("admin.copy.nothing_copied", error=error)), file=sys.stderr)
        return 2
    tables = ", ".join(
        say(t("admin.copy.table", table=table, rows=rows)) for table, rows in copied.items()
    )
    print(say(t("admin.copy.rows", tables=tables)))
    for problem in [*problems, *replayed]:
        print(problem)
    print(
        say(
            t(
                "admin.copy.differs" if problems else "admin.copy.identical",
                matches=copied["matches"],
                problems=len(replayed),
            )
        )
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
