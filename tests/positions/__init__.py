"""Named positions, one file per game (tests/positions/<game>.json): a diagram that perft
tables, tests or benchmarks share is written once, here, and read by its name.

Each entry is `"name": {"diagram": [lines], "about": "where it comes from"}` (`about` optional).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


@functools.cache
def named_positions(game: str) -> dict[str, Any]:
    """Every named position of `game`, as its file holds them."""
    loaded: dict[str, Any] = json.loads((HERE / f"{game}.json").read_text(encoding="utf-8"))
    return loaded


def diagram(game: str, name: str) -> str:
    """The diagram of `game`'s position called `name`, each line ending in a newline."""
    return "".join(f"{line}\n" for line in named_positions(game)[name]["diagram"])
