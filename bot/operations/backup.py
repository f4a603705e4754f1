"""Backups of the SQLite database while the bot runs, and restoring one after checking it.

A backup is SQLite's online backup: a consistent copy of the whole file, taken page by page
while the bot goes on writing (WAL lets it), itself an SQLite database the bot can open.
`Backups` makes one every BACKUP_EVERY hours into BACKUP_DIR and keeps the newest BACKUP_KEEP.

A restore never replaces a database before the copy has passed the same check as
`--check-db` (every match's move log replayed against its snapshot), nor while another
process has the database open; the database it replaces is kept beside it.

PostgreSQL has its own consistent dump, pg_dump, and its restore, pg_restore: their use is
in docs/operations.md (the bot starts no program but its own workers).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import HOUR
from bot.operations.metrics import LAST_BACKUP
from bot.service import MatchService
from bot.store import StoreError, open_store, parse_url
from bot.texts import Text, t

log = logging.getLogger(__name__)

PREFIX = "boardgames-"
SUFFIX = ".sqlite3"


class BackupError(Exception):
    """Why a backup or a restore was not made, in one sentence; nothing was changed."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


@dataclass(frozen=True)
class Restored:
    matches: int
    kept: Path | None  # the database the restore replaced, moved aside


def sqlite_file(where: str | Path) -> Path:
    """The SQLite file the settings name; a PostgreSQL URL is refused with the way to
    back it up."""
    if isinstance(where, Path):
        return where
    backend, target = parse_url(where)
    if backend != "sqlite":
        raise BackupError(t("operations.backup_postgres"))
    return Path(target)


def backup(source: Path, target: Path) -> None:
    """Copy the database at `source` to `target` (written under another name first, so a
    file at `target` is always a whole copy)."""
    if not source.is_file():
        raise BackupError(t("operations.backup_no_database", path=str(source)))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
            live.backup(copy)
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        text = t("operations.backup_failed", path=str(source), error=str(error))
        raise BackupError(text) from error
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(t("operations.backup_damaged", path=str(source), error=verdict))
    os.replace(partial, target)


async def restore(copy: Path, target: Path) -> Restored:
    """Replace the database at `target` with the backup `copy`, once the copy is checked
    and no process has `target` open; the replaced database is kept as `<name>.before-...`."""
    if not copy.is_file():
        raise BackupError(t("operations.restore_no_copy", path=str(copy)))
    candidate = target.with_name(target.name + ".restoring")
    await asyncio.to_thread(_fresh_copy, copy, candidate)
    try:
        matches = await _checked(candidate, copy)
        kept = _aside(target)
    except BaseException:
        candidate.unlink(missing_ok=True)
        raise
    os.replace(candidate, target)
    return Restored(matches, kept)


def _fresh_copy(copy: Path, candidate: Path) -> None:
    candidate.parent.mkdir(parents=True, exist_ok=True)
    backup(copy, candidate)


async def _checked(candidate: Path, copy: Path) -> int:
    """The copy opens (migrated to this version's schema) and every match replays; how
    many matches it holds."""
    try:
        store = await open_store(candidate)
    except (StoreError, sqlite3.Error) as error:
        text = t("operations.restore_unusable", path=str(copy), error=str(error))
        raise BackupError(text) from error
    try:
        matches = len(await store.match_ids())
        problems = await MatchService(store).audit.check()
    finally:
        await store.close()
    if problems:
        raise BackupError(
            t("operations.restore_problems", path=str(copy), count=len(problems), first=problems[0])
        )
    return matches


def _aside(target: Path) -> Path | None:
    """Move the database being replaced aside, its write-ahead log folded in first; refused
    while any other process has it open (a running bot)."""
    if not target.exists():
        return None
    try:
        with closing(sqlite3.connect(target, timeout=0.1, isolation_level=None)) as db:
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute("BEGIN EXCLUSIVE")
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError as error:
        raise BackupError(t("operations.restore_in_use", path=str(target))) from error
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    kept = target.with_name(f"{target.name}.before-{stamp}")
    os.replace(target, kept)
    for extra in ("-wal", "-shm"):
        target.with_name(target.name + extra).unlink(missing_ok=True)
    return kept


class Backups:
    """Every `every` seconds, a backup of `source` into `folder` named by its UTC time; the
    newest `keep` are kept, older ones deleted (only files named as these are)."""

    def __init__(self, source: Path, folder: Path, every: float, keep: int) -> None:
        self.source = source
        self.folder = folder
        self.every = every
        self.keep = keep

    def made(self) -> list[Path]:
        """The backups in the folder, oldest first."""
        return sorted(self.folder.glob(f"{PREFIX}*{SUFFIX}"))

    def last(self) -> float | None:
        """When the newest backup was made (Unix time), if there is one."""
        made = self.made()
        return made[-1].stat().st_mtime if made else None

    async def make(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        target = self.folder / f"{PREFIX}{stamp}{SUFFIX}"
        await asyncio.to_thread(backup, self.source, target)
        for old in self.made()[: -self.keep]:
            old.unlink()
        LAST_BACKUP.set(target.stat().st_mtime)
        log.info("backed up the database to %s", target)
        return target

    async def run(self) -> None:
        """Back up whenever the newest backup is `every` old (at once if there is none)."""
        last = self.last()
        if last is not None:
            LAST_BACKUP.set(last)
        while True:
            last = self.last()
            wait = 0.0 if last is None else last + self.every - time.time()
            await asyncio.sleep(max(0.0, wait))
            try:
                await self.make()
            except (BackupError, OSError) as error:
                log.error("the scheduled backup failed: %s", error)
                await asyncio.sleep(HOUR)
