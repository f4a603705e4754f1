"""A slow analysis reader for the bot tests, in a module a spawned worker imports without
discord."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ai.reading import Reading


def slow_read(game_name: str, dump: Mapping[str, Any], **budget: Any) -> Reading:
    """Judges nothing, slowly: an analysis that is still running when a move is asked for."""
    time.sleep(2.0)
    return Reading((0.5, 0.5), "a1")
