"""`--invite` names a malformed token as such, rather than asking for an id."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.__main__ import main
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
