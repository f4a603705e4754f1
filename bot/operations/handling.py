"""Around every interaction the bot answers (`bot.ui.interface.answering` opens `observed`):
it is counted by command and outcome, a move is timed until its board is posted, its log
lines name its server and shard, and a stop waits for it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.operations.logs import about
from bot.operations.metrics import INTERACTIONS, MOVE_TO_BOARD, shard_label
from bot.posts.undelivered import Undelivered
from bot.service import Match, ServiceError

log = logging.getLogger(__name__)

# The interactions that play a move: /move, and the guided picker's Play button.
MOVES = frozenset({"move", "component:play"})


class InFlight:
    """The interactions being handled, and whether a stop has begun (then new commands are
    refused: bot.app.BoardTree); `finish` lets those under way end within a bound."""

    def __init__(self) -> None:
        self.stopping = False
        self._tasks: set[asyncio.Task[Any]] = set()

    def track(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def finish(self, grace: float) -> int:
        """Wait up to `grace` seconds for the interactions being handled (those that begin
        meanwhile too), then cancel those still running (a saved move's board is posted at
        the next start); how many were."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while running := self._tasks - {asyncio.current_task()}:
            _, late = await asyncio.wait(running, timeout=max(0.0, deadline - loop.time()))
            if late:
                for task in late:
                    task.cancel()
                await asyncio.gather(*late, return_exceptions=True)
                return len(late)
        return 0


class Observed(Protocol):
    """What `observed` needs of the client (bot.app.BoardBot)."""

    in_flight: InFlight
    shard_count: int | None


@dataclass
class _Handling:
    """One interaction, which may pass through `answering` more than once (a component's
    check, then its callback): counted once, when its task ends, by its first failure."""

    interaction_id: int
    shard: str
    command: str
    move_started: float | None  # a move's: when its handling began
    outcome: str = "ok"
    shown: bool = False  # its board was posted

    def count(self, task: asyncio.Task[Any]) -> None:
        outcome = "cancelled" if task.cancelled() else self.outcome
        INTERACTIONS.labels(self.shard, self.command, outcome).inc()


_current: ContextVar[_Handling | None] = ContextVar("handling", default=None)


def command_name(interaction: discord.Interaction[Any]) -> str:
    """`move`, `server status`; a component by the word after its custom_id's prefix:
    `component:play` for `bg:play:...`."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    parts = custom_id.split(":")
    return f"component:{parts[1] if len(parts) > 1 else '?'}"


@contextmanager
def observed(interaction: discord.Interaction[Any]) -> Iterator[None]:
    handling = _current.get()
    if handling is None or handling.interaction_id != interaction.id:
        handling = _begin(interaction)
    try:
        with about(server=interaction.guild_id, shard=int(handling.shard)):
            yield
    except BaseException as error:
        if handling.outcome == "ok":
            handling.outcome = _outcome(error)
        raise


def _begin(interaction: discord.Interaction[Any]) -> _Handling:
    """The first pass of an interaction: tracked for a stop, and counted when its task
    ends."""
    client = cast(Observed, interaction.client)
    command = command_name(interaction)
    move_started = time.monotonic() if command in MOVES else None
    shard = shard_label(interaction.guild_id, client.shard_count)
    handling = _Handling(interaction.id, shard, command, move_started)
    task = asyncio.current_task()
    assert task is not None, "an interaction is handled in a task"
    client.in_flight.track(task)
    task.add_done_callback(handling.count)
    _current.set(handling)
    return handling


def refused_for_stopping(interaction: discord.Interaction[Any]) -> None:
    """Count a command that came after the stop began (and was refused)."""
    client = cast(Observed, interaction.client)
    shard = shard_label(interaction.guild_id, client.shard_count)
    INTERACTIONS.labels(shard, command_name(interaction), "stopping").inc()


def _outcome(error: BaseException) -> str:
    if isinstance(error, ServiceError):
        return "refused"  # the member asked for something the rules or settings forbid
    if isinstance(error, Undelivered):
        return "undelivered"  # Discord refused a post: a permission withheld, a 429
    return "failed"  # a bug: logged, and the member got an apology


def board_posted(match: Match) -> None:
    """An announcer watcher: the first board posted after a move's interaction began (in
    its task, or the computer's reply task it started) ends that move's timing."""
    handling = _current.get()
    if handling is not None and handling.move_started is not None and not handling.shown:
        handling.shown = True
        elapsed = time.monotonic() - handling.move_started
        MOVE_TO_BOARD.labels(handling.shard).observe(elapsed)
