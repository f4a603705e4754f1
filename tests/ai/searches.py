"""Broken searches for the pool tests, in a module a spawned worker imports without discord."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from ai.base import Choice
from ai.worker import search_dump


def crashing_search(*request: Any) -> Any:
    os._exit(3)


def endless_search(*request: Any) -> Any:
    while True:
        time.sleep(1)


def late_search(
    game_name: str,
    dump: Mapping[str, Any],
    level: int,
    seconds: float | None,
    seed: int | None,
    nodes: int | None = None,
) -> Choice:
    """Answers a second late, as a search starved of CPU would: the pool must wait for it."""
    time.sleep(1.0)
    return search_dump(game_name, dump, level, seconds, seed, nodes)


def first_call_crashes(
    game_name: str,
    dump: Mapping[str, Any],
    level: int,
    seconds: float | None,
    seed: int | None,
    nodes: int | None = None,
) -> Choice:
    """Crashes on seed 0, searches otherwise: shows the replacement worker serves."""
    if seed == 0:
        os._exit(3)
    return search_dump(game_name, dump, level, seconds, seed, nodes)
