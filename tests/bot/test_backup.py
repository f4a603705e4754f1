"""`--backup` of a running bot's database, restored identical by `--restore`, which checks a
copy before it replaces anything; backups on a schedule (BACKUP_DIR)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from bot.offline import OfflineDiscord
from bot.operations.backup import Backups
from bot.store import open_store
from bot.store.copy import differences
from tests.bot.support import execute_raw, start_match
from tests.bot.test_cli import bot_command


async def same_rows(first: Path, second: Path) -> list[str]:
    one, other = await open_store(first), await open_store(second)
    try:
        return await differences(one, other)
    finally:
        await one.close()
        await other.close()


def test_a_backup_of_a_running_bot_restores_identical(offline: Any, tmp_path: Path) -> None:
    live = tmp_path / "bot.sqlite3"
    copy = tmp_path / "backups" / "copy.sqlite3"
    settings = {"DATABASE_URL": f"sqlite:///{live}"}

    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        made = await asyncio.to_thread(bot_command, tmp_path, "--backup", str(copy), **settings)
        assert made.returncode == 0, made.stderr
        assert made.stdout.startswith(f"Backed up {live} to {copy} (")
        busy = await asyncio.to_thread(bot_command, tmp_path, "--restore", str(copy), **settings)
        assert busy.returncode == 1
        assert "is open in another process (is the bot running?)" in busy.stderr
        assert not list(tmp_path.glob("bot.sqlite3.*"))  # nothing put aside or half made

    offline(scenario)  # on the `database` fixture's file, `live`
    assert asyncio.run(same_rows(live, copy)) == []
    restored = bot_command(tmp_path, "--restore", str(copy), **settings)
    assert restored.returncode == 0, restored.stderr
    assert f"Restored {copy} to {live}: 1 matches, every move log replayed." in restored.stdout
    (kept,) = tmp_path.glob("bot.sqlite3.before-*")
    assert f"kept as {kept}" in restored.stdout
    assert asyncio.run(same_rows(live, kept)) == []


def test_a_copy_that_does_not_replay_is_refused_and_nothing_replaced(
    offline: Any, tmp_path: Path
) -> None:
    live = tmp_path / "bot.sqlite3"
    copy = tmp_path / "copy.sqlite3"
    settings = {"DATABASE_URL": f"sqlite:///{live}"}

    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, _) = await start_match(h)
        await h.command(alice, "move", move="a1e3")

    offline(scenario)
    assert bot_command(tmp_path, "--backup", str(copy), **settings).returncode == 0
    asyncio.run(execute_raw(f"sqlite:///{copy}", "UPDATE moves SET notation = 'h8h4'"))
    before = live.read_bytes()
    refused = bot_command(tmp_path, "--restore", str(copy), **settings)
    assert refused.returncode == 1
    assert f"The backup {copy} has 1 match whose moves do not replay (" in refused.stderr
    assert refused.stderr.rstrip().endswith("nothing was replaced.")
    assert live.read_bytes() == before
    assert not list(tmp_path.glob("bot.sqlite3.*"))  # nothing put aside or half made


def test_postgresql_is_backed_up_with_its_own_tools(tmp_path: Path) -> None:
    url = "postgresql://boardgames@db.internal:5432/boardgames"
    result = bot_command(tmp_path, "--backup", str(tmp_path / "x"), DATABASE_URL=url)
    assert result.returncode == 2 and "use pg_dump and pg_restore" in result.stderr
    assert "docs/operations.md" in result.stderr


def test_scheduled_backups_keep_the_newest(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(_make_database(source))
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [folder / f"boardgames-2020010{day}-000000.sqlite3" for day in (1, 2)]
    for path in old:
        path.write_bytes(b"")
        os.utime(path, (1_577_836_800, 1_577_836_800))
    (folder / "notes.txt").write_text("not a backup: never deleted")
    backups = Backups(source, folder, every=3600, keep=2)
    assert backups.last() == 1_577_836_800

    async def one_run() -> None:
        task = asyncio.create_task(backups.run())  # the newest is years old: one at once
        while old[0].exists():  # pruned once the new backup is written, not while it is
            await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(one_run())
    made = backups.made()
    assert made[0] == old[1] and len(made) == 2 and not made[1].name.startswith("boardgames-2020")
    assert (folder / "notes.txt").exists()
    assert asyncio.run(same_rows(source, made[1])) == []


async def _make_database(path: Path) -> None:
    store = await open_store(path)
    await store.close()
