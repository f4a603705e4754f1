"""Helpers shared by the bot tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot import BoardBot, Settings, create_bot
from bot.harness import OfflineDiscord, Sent


def new_bot(database: Path, **settings: Any) -> BoardBot:
    return create_bot(Settings(token="offline", database_path=database, **settings))


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
