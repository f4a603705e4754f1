"""Fixtures that run the real bot against the offline Discord, one fresh database per test."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.offline import OfflineDiscord
from fixtures.postgres import PostgresMissing, ThrowawayPostgres
from tests.bot.spec import check_request
from tests.bot.support import new_bot

T = TypeVar("T")
Scenario = Callable[[OfflineDiscord], Awaitable[T]]


BACKENDS = ("sqlite", "postgresql")
_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[ThrowawayPostgres]:
    """One PostgreSQL cluster for the whole run. In CI (the CI variable set, as `.ci/run`
    does) a missing PostgreSQL fails the run instead of skipping its tests."""
    try:
        server = ThrowawayPostgres.start()
    except PostgresMissing as error:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the PostgreSQL tests, but {error}", pytrace=False)
        pytest.skip(str(error))
    with server:
        yield server


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Both backends where they can differ: tests of the store itself (they ask for
    `database_url`) and tests marked `both_backends` (races, restarts, queries whose SQL
    semantics matter); PostgreSQL alone for tests marked `postgresql_only`. The rest of the
    bot's behaviour runs on SQLite only."""
    if "database_url" not in metafunc.fixturenames:
        return
    store_test = "database_url" in inspect.signature(metafunc.function).parameters
    if metafunc.definition.get_closest_marker("postgresql_only"):
        metafunc.parametrize("database_url", ["postgresql"], indirect=True)
    elif store_test or metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("database_url", BACKENDS, indirect=True)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a fresh, empty database: SQLite unless the test runs on both backends."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    server: ThrowawayPostgres = request.getfixturevalue("postgres")
    return asyncio.run(server.create_schema(f"test_{next(_databases)}"))


@pytest.fixture
def database(database_url: str) -> str:
    """The bot's database (see `pytest_generate_tests` for which backends)."""
    return database_url


@pytest.fixture
def offline(database: str, caplog: pytest.LogCaptureFixture) -> Iterator[Callable[..., Any]]:
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
