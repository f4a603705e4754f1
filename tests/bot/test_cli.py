"""`python -m bot` as an admin runs it: settings, missing token, offline play, --check-db."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, SettingsError, load_settings

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


def bot_command(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env |= {"DATABASE_PATH": str(tmp_path / "data" / "bot.sqlite3"), "PYTHONPATH": str(ROOT)}
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


def test_missing_token_explains_and_exits_2(tmp_path: Path) -> None:
    for args in ((), ("--sync",)):
        result = bot_command(tmp_path, *args)
        assert result.returncode == 2
        assert "DISCORD_TOKEN is not set" in result.stderr and "--offline" in result.stderr
        assert "Traceback" not in result.stderr


def test_offline_script_plays_and_check_db_verifies(tmp_path: Path) -> None:
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
    assert [p.name for p in images] == [f"quorum-1-{n}.png" for n in range(4)]
    assert all(str(p.relative_to(tmp_path)) in out for p in images)
    assert "Traceback" not in result.stderr

    database = tmp_path / "data" / "offline" / "offline.sqlite3"
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 2 and "no database" in check.stderr
    os.replace(database, tmp_path / "data" / "bot.sqlite3")
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 0 and "1 matches checked, 0 with problems" in check.stdout
    with sqlite3.connect(tmp_path / "data" / "bot.sqlite3") as db:
        db.execute("DELETE FROM moves WHERE ply = 2")
    check = bot_command(tmp_path, "--check-db")
    assert check.returncode == 1 and "match #1: the snapshot differs" in check.stdout
