"""Fixtures that run the real bot against the offline Discord, one fresh database per test."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.harness import OfflineDiscord
from tests.bot.spec import check_request
from tests.bot.support import new_bot

T = TypeVar("T")
Scenario = Callable[[OfflineDiscord], Awaitable[T]]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def offline(database: Path, caplog: pytest.LogCaptureFixture) -> Iterator[Callable[..., Any]]:
    """`offline(scenario)` runs `async def scenario(h)` against a fresh bot and returns its
    result. Every request is checked against Discord's API specification: a refusal fails the
    interaction that caused it (`Refused`), or the test if it came outside one (login, sync).
    Afterwards, any error the bot logged (a handler that crashed) fails the test."""
    caplog.set_level(logging.WARNING)

    def run(scenario: Scenario[T], **settings: Any) -> T:
        async def main() -> T:
            bot = new_bot(database, **settings)
            async with OfflineDiscord(bot, check_request=check_request) as harness:
                result = await scenario(harness)
                assert not harness.violations, f"Discord would refuse: {harness.violations}"
                return result

        return asyncio.run(main())

    yield run
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "the bot logged errors:\n" + "\n".join(
        f"{r.name}: {r.getMessage()} {r.exc_text or ''}" for r in errors
    )
