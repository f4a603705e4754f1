"""`--invite` names a malformed token as such, rather than asking for an id; the settings of
operations (health port, log format, backups)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import SettingsError, load_settings
from tests.bot.test_first_contact import TOKEN


@pytest.fixture
def logging_kept() -> Iterator[None]:
    """`main` sets up logging for the process: put pytest's back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.parametrize(
    ("token", "why"),
    [
        (f"Bot {TOKEN}", 'put the token alone, without "Bot " in front'),
        ("hunter2", "a bot token is three parts joined by dots"),
    ],
)
def test_invite_with_a_malformed_token_says_so(
    token: str,
    why: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    logging_kept: None,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.delenv("APPLICATION_ID", raising=False)
    monkeypatch.chdir("/")  # no .env
    assert main(["--invite"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"DISCORD_TOKEN is malformed: {why}")
    assert "Reset Token" in said and token not in said


def test_invite_without_a_token_points_to_the_offline_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], logging_kept: None
) -> None:
    """The README's first command stops here on a fresh machine: it says how to try the
    bot without a token too."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("APPLICATION_ID", raising=False)
    monkeypatch.chdir("/")  # no .env
    assert main(["--invite"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("The invite link needs the application's id")
    assert said.rstrip().endswith("python -m bot --offline")


def test_the_operations_settings() -> None:
    settings = load_settings(
        {"HEALTH_PORT": "9100", "LOG_FORMAT": "JSON", "BACKUP_DIR": "backups", "BACKUP_EVERY": "6"},
        None,
    )
    assert (settings.health_port, settings.log_format) == (9100, "json")
    assert (settings.backup_dir, settings.backup_every, settings.backup_keep) == (
        Path("backups"),
        6.0,
        7,
    )
    default = load_settings({}, None)
    assert (default.health_port, default.log_format, default.backup_dir) == (None, "text", None)
    wrong = [
        ({"HEALTH_PORT": "70000"}, "HEALTH_PORT must be a port number up to 65535"),
        ({"HEALTH_PORT": "http"}, "HEALTH_PORT must be a whole number"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
        ({"BACKUP_EVERY": "0"}, "BACKUP_EVERY must be a number of hours above 0, not '0'"),
        ({"BACKUP_EVERY": "inf"}, "BACKUP_EVERY must be a number of hours above 0"),
        ({"BACKUP_KEEP": "-1"}, "BACKUP_KEEP must be a whole number of at least 1"),
        ({"ANALYSIS_SECONDS": "61"}, "must be a number of seconds above 0 and up to 60, not"),
        (
            {"BACKUP_DIR": "b", "DATABASE_URL": "postgresql://bot@db/boardgames"},
            "BACKUP_DIR backs up an SQLite database; for PostgreSQL use pg_dump",
        ),
    ]
    for environ, message in wrong:
        with pytest.raises(SettingsError, match=re.escape(message)):
            load_settings(environ, None)
