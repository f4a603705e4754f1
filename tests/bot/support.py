"""Helpers shared by the bot tests."""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

from bot import BoardBot, Settings, create_bot
from bot.harness import OfflineDiscord, Sent
from bot.store import parse_url


def new_bot(database_url: str, **settings: Any) -> BoardBot:
    return create_bot(Settings(token="offline", database_url=database_url, **settings))


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
