"""SIGTERM (what hosts send to stop a process, on every deploy) and SIGINT (Ctrl+C) begin the
bot's one stop path, the same that `close()` takes (bot.app.BoardBot.stop), or end an offline
session, which then closes its bot by that path."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stop_on_signals(stop: Callable[[], object]) -> None:
    """From now on in this event loop, either signal calls `stop` (a second one changes
    nothing: the stop is already bounded)."""
    loop = asyncio.get_running_loop()
    for number in SIGNALS:
        try:
            loop.add_signal_handler(number, _stop, stop, number)
        except NotImplementedError:  # Windows: Ctrl+C ends the run, which closes the bot
            return


def _stop(stop: Callable[[], object], number: int) -> None:
    log.info("%s received: stopping", signal.Signals(number).name)
    stop()
