"""Kyo's search under a time budget walks the lazy move tree: it never lists a whole position."""

from __future__ import annotations

from typing import Any

import pytest

import ai
from rules import get_game


def test_a_timed_kyo_search_never_asks_for_a_complete_listing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kyo = get_game("kyo")
    state = kyo.new()

    def listing(*_: Any) -> Any:
        raise AssertionError("a complete listing was asked for")

    monkeypatch.setattr(type(kyo), "legal_moves", listing)
    move = ai.choose_move("kyo", state, level=3, seconds=0.2, seed=1)
    assert kyo.is_legal(state, move)
