"""Rules work off the event loop, each call with a time budget.

Listing a position's moves can take seconds (a Kyo position reachable by legal play has
230,907 turns), and while one call runs on the event loop every other member waits. So
parsing, move lists, hints, the picker and autocomplete run in a small pool of threads
here: the loop stays free, and a call that overruns its budget is answered with a clear
"too complex" instead of a spinner. Python cannot stop a thread, so an overrun call finishes
in the background, holding its thread; the pool is small so that such calls cannot pile up,
and what queues behind them times out with the same answer.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from bot.service.matches import ServiceError

T = TypeVar("T")

THREADS = 2
MOVE_SECONDS = 10.0  # parsing and playing a turn: the command is deferred, so a member waits
PICKER_SECONDS = 5.0  # one step of the move picker
SUGGEST_SECONDS = 2.0  # autocomplete: Discord drops an answer later than 3 s


class TooComplex(ServiceError):
    """A rules call overran its budget: the position is too large for what was asked."""


class Offload:
    """`await offload.run(seconds, what, function, *args)`: the function's result, computed in
    a worker thread, or TooComplex once `seconds` (scaled by `scale`) have passed."""

    def __init__(self, threads: int = THREADS, scale: float = 1.0) -> None:
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="rules")
        self.scale = scale  # tests shrink every budget with this

    async def run(
        self, seconds: float, too_slow: TooComplex, function: Callable[..., T], *args: object
    ) -> T:
        loop = asyncio.get_running_loop()
        reader = contextvars.copy_context()  # the thread words in the caller's language
        work = loop.run_in_executor(self._executor, partial(reader.run, function, *args))
        try:
            return await asyncio.wait_for(work, seconds * self.scale)
        except TimeoutError:
            raise too_slow from None

    def close(self) -> None:
        """Stop taking work; calls still running finish on their own."""
        self._executor.shutdown(wait=False, cancel_futures=True)
