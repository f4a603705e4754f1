"""The process that judges positions for computer analyses, beside the AI pool's.

Analyses get a worker of their own, so the computer's moves never queue behind a position
being judged, and it runs at a lower CPU priority (ai.analysis.NICENESS), so on a busy
machine the move searches get the cores first. One position at a time: an analysis is a
queue of small jobs, each stored as it comes back (bot/service/analysis.py).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ai.analysis import Reading, read_position, serve_readings

log = logging.getLogger(__name__)

# Wall seconds a position may take: its two searches' CPU budget many times over (a niced
# process on a busy machine waits its turn), and never less than MINIMUM_SECONDS.
DEADLINE_FACTOR = 20
MINIMUM_SECONDS = 60.0


class AnalysisFailed(Exception):
    """The worker died or hung on a position; it has been replaced."""


class AnalysisWorker:
    """`await worker.read(game_name, dump, seconds, seed, nodes)` -> Reading."""

    def __init__(self, read: Callable[..., Reading] = read_position) -> None:
        """`read` is what the process runs per position (tests pass slow or broken ones)."""
        self._read = read
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None  # started at the first position
        self._connection: Connection | None = None
        self._lock = asyncio.Lock()

    async def read(
        self,
        game_name: str,
        dump: Mapping[str, Any],
        seconds: float,
        seed: int,
        nodes: int | None,
    ) -> Reading:
        async with self._lock:
            connection = await self._started()
            connection.send((game_name, dict(dump), seconds, seed, nodes))
            deadline = max(MINIMUM_SECONDS, seconds * DEADLINE_FACTOR)
            try:
                if not await asyncio.to_thread(connection.poll, deadline):
                    raise AnalysisFailed(f"a position took more than {deadline:.0f} s")
                reading: Reading = await asyncio.to_thread(connection.recv)
            except (EOFError, OSError) as error:
                await self._stop()
                raise AnalysisFailed(f"the analysis worker crashed ({error!r})") from error
            except BaseException:  # a hung worker, or the caller cancelled: start afresh
                await self._stop()
                raise
            return reading

    async def _started(self) -> Connection:
        if self._connection is None:
            ours, theirs = self._context.Pipe()
            process = self._context.Process(
                target=serve_readings, args=(theirs, self._read), daemon=True
            )
            await asyncio.to_thread(process.start)
            theirs.close()
            await asyncio.to_thread(ours.recv)  # ready: its imports are done
            self._process, self._connection = process, ours
        return self._connection

    async def _stop(self) -> None:
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if connection is not None:
            connection.close()
        if process is not None:
            process.kill()
            await asyncio.to_thread(process.join)

    async def close(self) -> None:
        await self._stop()
