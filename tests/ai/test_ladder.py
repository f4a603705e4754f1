"""A smoke test of the ladder's match loop: its interval and one short game."""

from __future__ import annotations

import pytest

from ai.ladder import Times, make_player, play, wilson


def test_wilson_interval() -> None:
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-3)
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)


def test_one_game_is_played_and_timed() -> None:
    times = {1: Times(), 2: Times()}
    players = {1: make_player("1", {}, {"1": 20}), 2: make_player("random", {}, {})}
    score = play("boku", players, seed=0, times=times)
    assert score in (0.0, 0.5, 1.0) and times[1].cpu and len(times[1].wall) == len(times[1].cpu)
