"""Kyo's search under a time budget walks the lazy move tree: it never lists a whole position."""

from __future__ import annotations

from typing import Any

import pytest

import ai
from ai.base import WIN
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


@pytest.mark.parametrize("seconds", [0.05, 0.2, 0.5])
def test_a_turn_whose_replies_were_not_all_listed_is_never_taken_for_a_win(
    seconds: float,
) -> None:
    state = get_game("kyo").new(seed=3)
    choice = ai.choose("kyo", state, level=3, seconds=seconds, seed=1, cpu_only=True)
    assert choice.info["value"] < WIN / 2 and max(choice.info["chances"]) < 1.0
