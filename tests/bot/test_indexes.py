"""Queries that once read every match are answered from their index (issue 36): `/follow`'s
choices, a server's open matches, the start-up's unfinished analyses, and its unrated matches
(which the server index must not take over). The plans come from
SQLite's EXPLAIN QUERY PLAN over the statements the store runs, recorded as it runs them;
`python -m benchmarks.big_db` times them at 100,000 matches."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service.queries import OPEN
from bot.store import Shards, Store, open_store
from bot.store.sqlite import SqliteSession

Call = Callable[[Store], Awaitable[Any]]
SHARDS = Shards(4, (0, 1))
QUERIES: dict[str, tuple[Call, str]] = {
    "/follow autocomplete": (
        lambda store: store.server_matches(7 << 22, OPEN, 100),
        "matches_server",
    ),
    "start-up: unfinished analyses": (
        lambda store: store.unfinished_analyses(SHARDS),
        "analyses_unfinished",
    ),
    "start-up: unrated matches": (lambda store: store.unrated_matches(SHARDS), "matches_unrated"),
}


async def plans(database: Path, call: Call, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The plan of each statement `call` runs on a new SQLite store."""
    store = await open_store(f"sqlite:///{database}")
    statements: list[tuple[str, tuple[Any, ...]]] = []
    fetch = SqliteSession.fetch

    def recorded(session: SqliteSession, sql: str, *params: Any) -> Any:
        statements.append((sql, params))
        return fetch(session, sql, *params)

    try:
        with monkeypatch.context() as patched:
            patched.setattr(SqliteSession, "fetch", recorded)
            await call(store)
        return [await store.explain(sql, *params) for sql, params in statements]
    finally:
        await store.close()


@pytest.mark.parametrize("name", QUERIES)
def test_the_query_reads_its_index_not_the_table(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    call, index = QUERIES[name]
    found = asyncio.run(plans(tmp_path / "bot.sqlite3", call, monkeypatch))
    assert found
    for plan in found:
        scans = [s for s in plan if s.startswith("SCAN ") and " INDEX " not in s and "(" not in s]
        assert scans == [], plan  # "SCAN (subquery-1)" reads a match's own seats
        assert any(f"INDEX {index} " in f"{step} " for step in plan), plan
