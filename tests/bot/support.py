"""Helpers shared by the bot tests."""

from __future__ import annotations

import functools
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg

from bot import BoardBot, Settings, create_bot
from bot.clock import ManualClock
from bot.jobs.scheduler import process_name
from bot.offline import OfflineDiscord, Sent, rest
from bot.store import parse_url

START = 1_800_000_000.0  # tests start at a fixed moment, on a clock only they move


def new_bot(
    database_url: str,
    *,
    clock: ManualClock | None = None,
    seeds: Callable[[], int] | None = None,
    **settings: Any,
) -> BoardBot:
    """`seeds` draws the matches' seeds (random unless given)."""
    settings_ = Settings(token="offline", database_url=database_url, **settings)
    return create_bot(settings_, clock=clock or ManualClock(START), seeds=seeds)


def public(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "message" and not s.ephemeral]


def private(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "message" and s.ephemeral]


async def start_match(
    h: OfflineDiscord, game: str = "quorum", players: int = 2, **options: Any
) -> tuple[int, list[Any]]:
    """Challenge and accept; returns the match id and the users in seat order."""
    users = [h.user(name) for name in ("alice", "bob", "carol", "dave")[:players]]
    opponents = dict(zip(("opponent", "opponent2", "opponent3"), users[1:], strict=False))
    await h.command(users[0], "challenge", game=game, **opponents, **options)
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    for user in users[1:]:
        await h.click(user, challenge.message_id or 0, "Accept")
    match_id = max(await h.bot.store.match_ids())
    return match_id, users


OPENING = ("a1e3", "h8h4", "a2a6")  # Quorum: each player has moved, and bob is to move


async def opening(h: OfflineDiscord, alice: Any, bob: Any) -> None:
    """Play OPENING: a timeout from here is a loss on time, not an abort (issue 39)."""
    for user, move in zip((alice, bob, alice), OPENING, strict=True):
        await h.command(user, "move", move=move)


async def resign(h: OfflineDiscord, user: Any, channel_id: int | None = None) -> list[Sent]:
    """/resign, then Resign on the private confirmation; returns what the click did."""
    (question,) = private(await h.command(user, "resign", channel_id))
    assert question.buttons == ["Resign", "Cancel"], question.content
    return await h.click(user, question.message_id or 0, "Resign")


async def execute_raw(database_url: str, *statements: str) -> None:
    """Run SQL straight on a database, behind the store's back (to damage rows in tests)."""
    backend, target = parse_url(database_url)
    if backend == "sqlite":
        with sqlite3.connect(target) as db:
            for statement in statements:
                db.execute(statement)
        return
    db = await asyncpg.connect(target)
    try:
        for statement in statements:
            await db.execute(statement)
    finally:
        await db.close()


async def log_in_beside(h: OfflineDiscord, bot: BoardBot) -> None:
    """Another bot process logs in to the same offline Discord (its `setup_hook` runs); its
    start-up catch-up is not waited for."""
    bot.http.request = functools.partial(rest.request, h)  # type: ignore[method-assign]
    await bot.login("offline-token")


@contextmanager
def through(h: OfflineDiscord, bot: BoardBot) -> Iterator[None]:
    """Interactions go to `bot` meanwhile, as if Discord routed them to its process."""
    usual, h.bot = h.bot, bot
    try:
        yield
    finally:
        h.bot = usual


@functools.cache
def ended_process() -> str:
    """The claim name of a process of this host that has ended (a bot killed mid-job)."""
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    host_and_shards, _, pid_and_token = process_name(None).partition(" pid ")
    return f"{host_and_shards} pid {child.stdout.strip()} {pid_and_token.split()[1]}"
