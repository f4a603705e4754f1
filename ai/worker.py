"""What runs inside a search worker process (bot/ai_pool.py). It lives in `ai`, not `bot`,
so a freshly spawned worker imports the rules and the AI only, not discord.py."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import Any

import ai
from rules import get_game

# (game name, dump, level, seconds, seed, nodes) -> move
Search = Callable[[str, Mapping[str, Any], int, float | None, int | None, int | None], Any]
READY = "ready"


def search_dump(
    game_name: str,
    dump: Mapping[str, Any],
    level: int,
    seconds: float | None,
    seed: int | None,
    nodes: int | None = None,
) -> Any:
    """The worker's job: load the position and search it."""
    state = get_game(game_name).load(dump)
    return ai.choose_move(game_name, state, level=level, seconds=seconds, seed=seed, nodes=nodes)


def random_legal_move(game_name: str, dump: Mapping[str, Any], seed: int | None) -> Any:
    """The fallback when a search fails: any legal move."""
    game = get_game(game_name)
    return random.Random(seed).choice(game.legal_moves(game.load(dump)))


def serve(connection: Connection, search: Search) -> None:
    """A worker's loop: ready once its imports are done, then one request in, one move out,
    until the pipe closes."""
    connection.send(READY)
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        connection.send(search(*request))
