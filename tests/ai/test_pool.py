"""The worker pool answers with the search's move, waits for a late one, and answers with the
reference player's move when a worker crashes or hangs; a failed worker is replaced."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.workers.pool import WorkerPool
from rules import get_game
from rules.playout import random_states
from tests.ai.searches import crashing_search, endless_search, first_call_crashes, late_search


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_the_pool_plays_the_search_move() -> None:
    game = get_game("boku")
    dump = game.dump(game.new())

    async def play() -> Any:
        async with WorkerPool(1) as pool:
            # Level 1 stops at its node cap; the ample time keeps a loaded machine from
            # turning the answer into an overrun fallback.
            return await pool.choose("boku", dump, level=1, seconds=10, seed=5)

    answer = run(play())
    assert answer.fallback is None
    assert answer.move in game.legal_moves(game.new())


def test_a_crashed_worker_gives_a_legal_fallback_and_is_replaced(caplog: Any) -> None:
    game = get_game("razzle")
    state = game.new()

    async def play() -> tuple[Any, Any]:
        async with WorkerPool(1, search=first_call_crashes) as pool:
            crashed = await pool.choose("razzle", game.dump(state), level=1, seconds=0.2, seed=0)
            served = await pool.choose("razzle", game.dump(state), level=1, seconds=10, seed=1)
            return crashed, served

    crashed, served = run(play())
    assert crashed.fallback is not None and "crashed" in crashed.fallback
    assert crashed.move in game.legal_moves(state)
    assert served.fallback is None and served.move in game.legal_moves(state)
    assert "AI fallback" in caplog.text


def test_a_late_answer_is_played_not_thrown_away() -> None:
    game = get_game("boku")
    dump = game.dump(game.new())

    async def play() -> Any:
        async with WorkerPool(1, search=late_search) as pool:
            return await pool.choose("boku", dump, level=1, seconds=0.1, seed=5)

    answer = run(play())
    assert answer.fallback is None and "chances" in answer.info


def test_the_fallback_takes_a_win_in_one() -> None:
    """A hung worker's fallback is the reference player, which never misses a win in one."""
    game = get_game("quorum")
    rng = random.Random(4)
    while True:
        *_, before, final = random_states(game, rng)
        outcome = game.outcome(final)
        if outcome is not None and outcome.winners == (game.to_move(before),):
            break

    async def play() -> Any:
        async with WorkerPool(1, search=crashing_search) as pool:
            return await pool.choose("quorum", game.dump(before), level=1, seconds=0.1, seed=2)

    answer = run(play())
    assert answer.fallback is not None
    after = game.outcome(game.apply(before, answer.move))
    assert after is not None and after.winners == outcome.winners


def test_a_hung_worker_gives_a_legal_fallback() -> None:
    game = get_game("quorum")
    state = game.new()

    async def play() -> Any:
        async with WorkerPool(1, search=endless_search) as pool:
            return await pool.choose("quorum", game.dump(state), level=1, seconds=0.1, seed=2)

    answer = run(play())
    assert answer.fallback is not None and "hung" in answer.fallback
    assert answer.move in game.legal_moves(state)


def test_every_request_of_a_crashing_search_still_gets_a_move() -> None:
    game = get_game("boost")
    state = game.new(players=3)

    async def play() -> list[Any]:
        async with WorkerPool(2, search=crashing_search) as pool:
            requests = [pool.choose("boost", game.dump(state), 1, 0.2, seed) for seed in range(3)]
            return await asyncio.gather(*requests)

    for answer in run(play()):
        assert answer.fallback is not None and answer.move in game.legal_moves(state)
