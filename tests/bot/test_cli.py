"""`python -m bot` as an admin runs it: settings, missing token, offline play, --check-db."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, SettingsError, load_settings
from fixtures.postgres import ThrowawayPostgres

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
# a whole offline session
alice: /challenge game:quorum opponent:@bob
mallory: click Accept
bob: click Accept
alice: /move move:a1e3
bob in thread: /board
bob: click Move
bob: pick h8
bob: pick h4
bob: click Play
alice: /move move:zz
alice: /resign
alice: click Resign
"""


def bot_command(
    tmp_path: Path, *args: str, stdin: str = "", **settings: str
) -> subprocess.CompletedProcess[str]:
    unset = ("DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_URL")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {"DATABASE_PATH": str(tmp_path / "data" / "bot.sqlite3"), "PYTHONPATH": str(ROOT)}
    env |= settings
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env here
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_from_env_file_and_environment(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=42\nLOG_LEVEL=debug\n")
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, env_file)
    assert settings.token == "from-env" and settings.dev_guild_id == 42
    assert settings.log_level == "DEBUG" and settings.database_path == DEFAULT_DATABASE
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        load_settings({"DEV_GUILD_ID": "my server"}, None)
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        load_settings({"LOG_LEVEL": "loud"}, None)


def test_database_and_shard_settings() -> None:
    settings = load_settings({"DATABASE_PATH": "x.sqlite3"}, None)
    assert settings.database == Path("x.sqlite3") and settings.shard_ids is None
    url = "postgresql://bot@db.internal:5432/boardgames"
    settings = load_settings({"DATABASE_URL": url, "SHARD_COUNT": "4", "SHARD_IDS": "3,0-1"}, None)
    assert settings.database == url and settings.database_pool_size == 10
    assert (settings.shard_count, settings.shard_ids) == (4, (0, 1, 3))
    wrong = {
        "DATABASE_URL": ({"DATABASE_URL": "mysql://db/x"}, "sqlite:///path/to/file or postgres"),
        "needs SHARD_COUNT": ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
        "past the count": ({"SHARD_COUNT": "2", "SHARD_IDS": "1-2"}, "from 0 to 1"),
        "not a number": ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        "pool of none": ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE must be"),
    }
    for environ, message in wrong.values():
        with pytest.raises(SettingsError, match=message):
            load_settings(environ, None)


def test_missing_token_explains_and_exits_2(tmp_path: Path) -> None:
    for args in ((), ("--sync",)):
        result = bot_command(tmp_path, *args)
        assert result.returncode == 2
        assert "DISCORD_TOKEN is not set" in result.stderr and "--offline" in result.stderr
        assert "Traceback" not in result.stderr


def test_offline_script_plays_and_check_db_verifies(
    tmp_path: Path, postgres: ThrowawayPostgres
) -> None:
    """The path to PostgreSQL too: the session's database copies into an empty PostgreSQL,
    and --check-db passes there."""
    result = bot_command(tmp_path, "--offline", stdin=SCRIPT)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "(only mallory sees this): This challenge is for bob, not you." in out
    assert "~ thread opened: Quorum #1: alice vs bob" in out
    thread = "[thread Quorum #1: alice vs bob]"
    assert f"{thread} bot (only bob sees this): Quorum #1: alice vs bob · 1 turn played" in out
    assert "bob played h8h4." in out and "bob wins (resignation)" in out
    assert "~ thread archived" in out
    images = sorted((tmp_path / "data" / "offline").glob("*.png"))
    # /board and the picker at ply 1 drew the same position again (from bob's side): kept
    # beside the first, not over it
    names = ["quorum-1-0.png", "quorum-1-1-v2.png", "quorum-1-1-v3.png", "quorum-1-1.png"]
    assert [p.name for p in images] == [*names, "quorum-1-2.png", "quorum-1-3.png"]
    assert all(str(p.relative_to(tmp_path)) in out for p in images)
    assert "Traceback" not in result.stderr

    database = tmp_path / "data" / "offline" / "offline.sqlite3"
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 2 and "no database" in check.stderr
    os.replace(database, tmp_path / "data" / "bot.sqlite3")
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 0 and "1 match checked, 0 with problems" in check.stdout

    source = f"sqlite:///{tmp_path / 'data' / 'bot.sqlite3'}"
    target = asyncio.run(postgres.create_schema("copied_offline_session"))
    copy = bot_command(tmp_path, "--copy-db", source, target)
    assert copy.returncode == 0, copy.stderr
    copied = (  # the locales of alice, bob and mallory, and the server's, kept (issue 44)
        "matches: 1, seats: 2, moves: 3, preferences: 3, jobs: 1, ratings: 2, rated_matches: 1, "
        "rating_changes: 2, takeback_votes: 0, command_registrations: 1, vacations: 0, "
        "followers: 0, tournaments: 0, "
        "tournament_entrants: 0, tournament_boards: 0, premoves: 0, analyses: 0, "
        "analysis_readings: 0, server_settings: 1, notes: 0 rows"
    )
    assert f"{copied} copied." in copy.stdout
    assert "1 match logs replayed on the copy, 0 with problems; the copy is identical." in (
        copy.stdout
    )
    again = bot_command(tmp_path, "--copy-db", source, target)
    assert again.returncode == 2 and "already has rows in matches" in again.stderr
    check = bot_command(tmp_path, "--check-db", DATABASE_URL=target)
    assert check.returncode == 0 and "1 match checked, 0 with problems" in check.stdout
    missing = bot_command(tmp_path, "--copy-db", f"sqlite:///{tmp_path / 'none.db'}", target)
    assert missing.returncode == 2 and "There is no database at" in missing.stderr

    with sqlite3.connect(tmp_path / "data" / "bot.sqlite3") as db:
        db.execute("DELETE FROM moves WHERE ply = 2")
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 1 and "match #1: the snapshot differs" in check.stdout
