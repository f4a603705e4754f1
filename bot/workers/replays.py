"""Replay GIFs made in a worker process: replaying a long game and encoding hundreds of
frames takes seconds of CPU, which would stall the event loop (or, in a thread, hold the GIL
against it). The worker gets the game record, not positions, so the bot process does none
of that work. This module imports no discord, so the worker starts light.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from renderers import render_replay
from rules import get_game
from rules.records import Record


def make_replay(
    record: Record,
    *,
    names: Sequence[str] | None = None,
    perspective: int | None = None,
    theme: str | None = None,
) -> bytes:
    """The whole game of `record` as an animated GIF (runs in the worker)."""
    game = get_game(record.game)
    states = list(record.positions(game))
    return render_replay(record.game, states, names=names, perspective=perspective, theme=theme)


class ReplayWorker:
    """One worker process, started at the first replay, not before."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def make(
        self,
        record: Record,
        *,
        names: Sequence[str] | None = None,
        perspective: int | None = None,
        theme: str | None = None,
    ) -> bytes:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded bot
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        job = partial(make_replay, record, names=names, perspective=perspective, theme=theme)
        return await asyncio.get_running_loop().run_in_executor(self._pool, job)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
