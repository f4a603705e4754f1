"""Every perft table under tests/rules/perft/ (see perft_tables): the move tree's size by depth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import get_game
from tests.rules.perft_tables import perft, position, tables


def entries() -> list[Any]:
    """One test case per table entry, named after its game and position."""
    cases = []
    for path in tables():
        for entry in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(path, entry, id=f"{path.stem}: {entry['name']}"))
    return cases


@pytest.mark.parametrize(("path", "entry"), entries())
def test_perft(path: Path, entry: dict[str, Any]) -> None:
    game = get_game(path.stem)
    assert perft(game, position(game, entry), len(entry["counts"])) == entry["counts"]


def test_every_table_is_found() -> None:
    assert {p.stem for p in tables()} >= {"boost", "quorum", "boku", "razzle"}
