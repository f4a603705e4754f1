"""Broken searches for the pool tests, in a module a spawned worker imports without discord.
Each takes the pool's request: (game name, dump, level, seconds, seed, nodes)."""

from __future__ import annotations

import os
import time
from typing import Any

from ai.base import Choice
from ai.worker import search_dump

SEED = 4  # the request's seed, by position


def crashing_search(*request: Any) -> Any:
    os._exit(3)


def endless_search(*request: Any) -> Any:
    while True:
        time.sleep(1)


def late_search(*request: Any) -> Choice:
    """Answers a second late, as a search starved of CPU would: the pool must wait for it."""
    time.sleep(1.0)
    return search_dump(*request)


def first_call_crashes(*request: Any) -> Choice:
    """Crashes on seed 0, searches otherwise: shows the replacement worker serves."""
    if request[SEED] == 0:
        os._exit(3)
    return search_dump(*request)
