"""AI searches in worker processes, so the bot's event loop never waits on one.

Each worker is a process with a pipe, fed a game's dump; at most `AI_WORKERS` (default 1)
searches run at once and the rest queue. A search's budget is CPU time and it always has a
move ready, which it returns when the time is up; on a busy machine that takes longer in wall
time, so the pool waits DEADLINE_SHARE times the budget (plus a grace for loading the
position) and takes any move a worker returns. Only a worker that crashes or hangs past that
is killed and replaced, and then the caller gets the one-ply reference player's move
(ai/reference.py), worked out in a thread of this process, never a random move; each such
fallback is logged with its reason.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import ai
from ai.base import Choice
from ai.worker import Search, fallback_dump, search_dump, serve

log = logging.getLogger(__name__)

# A search stops itself at its CPU budget, or at ai.base.WALL_SLACK (3.5) times it in wall
# time when starved; the pool waits this many times the budget, plus GRACE for loading the
# dump and pickling the answer, before it takes the worker for hung.
DEADLINE_SHARE = 4.0
GRACE = 2.0
# A search by node budget (tests, reproducible offline scripts) has no time of its own; this
# is its deadline unless `seconds` is given.
NODE_SEARCH_SECONDS = 30.0


@dataclass(frozen=True)
class PoolAnswer:
    """A move for the bot to play and what the search said of it (`info`, see ai.Choice);
    `fallback` says the search failed, why, and that the reference player chose instead."""

    move: Any
    info: dict[str, Any] = field(default_factory=dict)
    fallback: str | None = None


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    started: bool = False


class AIPool:
    """`await pool.choose(game_name, dump, level, seconds, seed, nodes)` -> PoolAnswer."""

    def __init__(self, workers: int = 1, *, search: Search = search_dump) -> None:
        """`workers` comes from the AI_WORKERS setting (bot/settings.py)."""
        if workers < 1:
            raise ValueError(f"AI_WORKERS must be at least 1, not {workers}")
        self._search = search
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded bot
        self._count = workers
        self._workers: list[_Worker] = []  # started at the first search, not before
        self._idle: asyncio.Queue[_Worker] | None = None

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=serve, args=(theirs, self._search), daemon=True)
        process.start()
        theirs.close()
        return _Worker(process, ours)

    async def choose(
        self,
        game_name: str,
        dump: Mapping[str, Any],
        level: int = 2,
        seconds: float | None = None,
        seed: int | None = None,
        nodes: int | None = None,
    ) -> PoolAnswer:
        if self._idle is None:  # the first search: a bot that never plays starts no process
            self._idle = asyncio.Queue()
            for _ in range(self._count):
                worker = await asyncio.to_thread(self._spawn)
                self._workers.append(worker)
                self._idle.put_nowait(worker)
        if seconds is not None:
            budget = seconds
        else:
            budget = NODE_SEARCH_SECONDS if nodes is not None else ai.LEVELS[level].seconds
        request = (game_name, dict(dump), level, seconds, seed, nodes)
        worker = await self._idle.get()
        try:
            choice = await self._ask(worker, request, budget)
        except TimeoutError:  # before OSError, of which it is a subclass
            problem = f"the search worker hung ({budget * DEADLINE_SHARE + GRACE:.1f} s passed)"
        except (EOFError, OSError) as error:
            problem = f"the search worker crashed ({error.__class__.__name__})"
        except asyncio.CancelledError:
            self._idle.put_nowait(self._replace(worker))  # it may still be searching
            raise
        else:
            self._idle.put_nowait(worker)
            return PoolAnswer(choice.move, choice.info)
        self._idle.put_nowait(self._replace(worker))
        fallback = await asyncio.to_thread(fallback_dump, game_name, dump, seed)
        log.warning("AI fallback in %s: %s; playing the one-ply reference move", game_name, problem)
        return PoolAnswer(fallback.move, fallback.info, fallback=problem)

    async def _ask(self, worker: _Worker, request: tuple[Any, ...], budget: float) -> Choice:
        """The worker's answer, or TimeoutError once the deadline passes (which starts after
        a fresh worker's imports, not before)."""
        if not worker.started:
            await asyncio.to_thread(worker.connection.recv)
            worker.started = True
        worker.connection.send(request)
        deadline = budget * DEADLINE_SHARE + GRACE
        if not await asyncio.to_thread(worker.connection.poll, deadline):
            raise TimeoutError
        answer: Choice = await asyncio.to_thread(worker.connection.recv)
        return answer

    def _replace(self, worker: _Worker) -> _Worker:
        """Kill a failed worker and start a fresh one in its place."""
        worker.process.kill()
        worker.process.join()
        worker.connection.close()
        fresh = self._spawn()
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    async def close(self) -> None:
        for worker in self._workers:
            worker.connection.close()
            worker.process.kill()
            await asyncio.to_thread(worker.process.join)

    async def __aenter__(self) -> AIPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
