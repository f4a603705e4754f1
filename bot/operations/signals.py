"""SIGTERM (what hosts send to stop a process, on every deploy) and SIGINT (Ctrl+C) begin the
bot's one stop path, the same that `close()` takes (bot.app.BoardBot.stop)."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Protocol

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stoppable(Protocol):
    def stop(self) -> asyncio.Task[Any]: ...


def stop_on_signals(bot: Stoppable) -> None:
    """From now on in this event loop, either signal begins the stop (a second one changes
    nothing: the stop is already bounded)."""
    loop = asyncio.get_running_loop()
    for number in SIGNALS:
        try:
            loop.add_signal_handler(number, _stop, bot, number)
        except NotImplementedError:  # Windows: Ctrl+C ends the run, which closes the bot
            return


def _stop(bot: Stoppable, number: int) -> None:
    log.info("%s received: stopping", signal.Signals(number).name)
    bot.stop()
