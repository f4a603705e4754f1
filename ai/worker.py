"""What runs inside a search worker process (bot/workers/ai_pool.py). It lives in `ai`, not `bot`,
so a freshly spawned worker imports the rules and the AI only, not discord.py."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import Any

import ai
from ai.base import Choice
from rules import get_game

# (game name, dump, level, seconds, seed, nodes) -> the search's Choice
Search = Callable[[str, Mapping[str, Any], int, float | None, int | None, int | None], Choice]
READY = "ready"
# The fallback's CPU time: it runs in the bot's own process, beside the event loop.
FALLBACK_SECONDS = 0.5


def search_dump(
    game_name: str,
    dump: Mapping[str, Any],
    level: int,
    seconds: float | None,
    seed: int | None,
    nodes: int | None = None,
) -> Choice:
    """The worker's job: load the position and search it; `info` gains the CPU seconds the
    whole job took ("cpu")."""
    start = time.process_time()
    state = get_game(game_name).load(dump)
    choice = ai.choose(game_name, state, level=level, seconds=seconds, seed=seed, nodes=nodes)
    choice.info["cpu"] = time.process_time() - start
    return choice


def fallback_dump(game_name: str, dump: Mapping[str, Any], seed: int | None) -> Choice:
    """The move when a worker dies or hangs: the one-ply reference player's, within
    FALLBACK_SECONDS (never a random move unless not one move could be listed in time)."""
    state = get_game(game_name).load(dump)
    return ai.reference(game_name, state, seconds=FALLBACK_SECONDS, seed=seed)


def serve(connection: Connection, search: Search) -> None:
    """A worker's loop: ready once its imports are done, then one request in, one Choice
    out, until the pipe closes."""
    connection.send(READY)
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        connection.send(search(*request))
