"""The discord.py application: built without connecting, started in `setup_hook`."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from ai.reading import Reading, read_position
from ai.worker import Search, search_dump
from bot.clock import HOUR, Clock, SystemClock
from bot.jobs.computer import REPLY_WAIT, Computer
from bot.jobs.reminders import JobHandler
from bot.jobs.scheduler import Scheduler, process_name
from bot.jobs.startup import TASK_NAME as CATCH_UP_TASK
from bot.jobs.startup import CatchUp
from bot.launch import StartupFailure, open_database
from bot.operations.backup import Backups, sqlite_file
from bot.operations.handling import InFlight, board_posted, refused_for_stopping
from bot.operations.health import HealthServer
from bot.operations.metrics import discord_trace
from bot.posts.analyst import Analyst
from bot.posts.conversations import or_by_dm
from bot.posts.notifications import Announcer, Renderer
from bot.service import MatchService
from bot.settings import Settings
from bot.store import Store
from bot.texts import hear, say, t
from bot.ui.commands_sync import BOTH_INSTALLS, EVERYWHERE, register_commands
from bot.ui.interface import apologise, options_offered, tell
from bot.ui.permissions import PermissionWatch
from bot.ui.persistent import Clicks
from bot.ui.translator import CommandTranslator
from bot.ui.views import PERSISTENT_ITEMS
from bot.workers.pool import WorkerPool
from renderers import render_png

log = logging.getLogger(__name__)

COGS = (
    "bot.cogs.challenges",
    "bot.cogs.moves",
    "bot.cogs.endings",
    "bot.cogs.aborts",
    "bot.cogs.matches",
    "bot.cogs.guide",
    "bot.cogs.settings",
    "bot.cogs.takeback",
    "bot.cogs.premoves",
    "bot.cogs.standings",
    "bot.cogs.analysis",
    "bot.cogs.strays",
    "bot.cogs.vacation",
    "bot.cogs.following",
    "bot.cogs.tournaments",
    "bot.cogs.status",
    "bot.cogs.exports",
    "bot.cogs.clocks",
)

STOP_GRACE = 5.0  # seconds the interactions and jobs under way get to finish at a stop


def _no_voice_warning(record: logging.LogRecord) -> bool:
    """Drop discord.py's start-up warning that voice is unsupported: the bot has no voice."""
    return "voice will NOT be supported" not in record.getMessage()


class BoardTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Refuse commands once a stop has begun (the gateway is closing: only those already
        on their way arrive), and options that break their command's declaration. From here
        on, the command (or autocomplete) speaks its member's language."""
        hear(str(interaction.locale))
        if cast(BoardBot, self.client).in_flight.stopping:
            refused_for_stopping(interaction)
            if interaction.type == discord.InteractionType.application_command:
                await tell(interaction, say(t("operations.stopping")))
            return False
        return await options_offered(interaction)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A bug, not a user's mistake (those are answered where they happen): log it and
        apologise so the user is not left with a spinner."""
        command = interaction.command.name if interaction.command else "?"
        log.error("/%s failed", command, exc_info=error)
        await apologise(interaction)


class BoardBot(commands.AutoShardedBot):
    """Holds the store, the match service, the announcer, the scheduler and the computer
    player the cogs share.

    Sharded by SHARD_COUNT and SHARD_IDS: each process runs its own shards, so a server's
    interactions always reach the same process and per-match locks can stay in memory.
    """

    store: Store
    service: MatchService
    announcer: Announcer
    scheduler: Scheduler
    catching_up: asyncio.Task[None]
    workers: WorkerPool
    computer: Computer
    analyst: Analyst

    def __init__(
        self,
        settings: Settings,
        *,
        render: Renderer = render_png,
        sync_only: bool = False,
        clock: Clock | None = None,
        search: Search = search_dump,
        read: Callable[..., Reading] = read_position,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        logging.getLogger("discord.client").addFilter(_no_voice_warning)
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            tree_cls=BoardTree,
            allowed_contexts=EVERYWHERE,
            allowed_installs=BOTH_INSTALLS,
            intents=intents,
            help_command=None,
            # Nobody is pinged unless a message names whom (bot.posts.notifications.pinging).
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            # None (every shard) is discord.py's own default, though its hint says list
            shard_ids=list(settings.shard_ids) if settings.shard_ids else None,  # type: ignore[arg-type]
            http_trace=discord_trace(),
        )
        self.settings = settings
        self.sync_only = sync_only
        self._render = render
        self.clock: Clock = clock or SystemClock()
        self._search = search
        self._read = read
        self._seeds = seeds
        self.synced: list[app_commands.AppCommand] = []
        self.started = time.monotonic()
        self.in_flight = InFlight()
        self.health: HealthServer | None = None
        self.backups: Backups | None = None
        if settings.backup_dir is not None:
            every = settings.backup_every * HOUR
            source = sqlite_file(settings.database)
            self.backups = Backups(source, settings.backup_dir, every, settings.backup_keep)
        self._stopping: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self.permission_watch = PermissionWatch()
        self.clicks = Clicks()  # the cogs register who answers each persistent item
        for listener in (
            self.permission_watch.on_guild_available,
            self.permission_watch.on_guild_join,
            self.permission_watch.on_app_command_completion,
        ):
            self.add_listener(listener)

    async def setup_hook(self) -> None:
        """Open the store, wire the parts, start the scheduler; what the last run left
        undone is caught up in the background, so the bot connects at once."""
        await self._open()
        if not self.sync_only:
            await self._operate()
        await self.scheduler.start()
        self.catching_up = asyncio.create_task(
            CatchUp(self.service, self.computer, self.settings.shards).run(
                play=not self.sync_only  # a one-shot `--sync` run plays no turns
            ),
            name=CATCH_UP_TASK,
        )
        await self.tree.set_translator(CommandTranslator())
        synced = await register_commands(
            self.tree, self.store, self.settings.dev_guild_id, force=self.sync_only
        )
        self.synced = synced or []

    async def _operate(self) -> None:
        """Serve health, readiness and metrics, and make backups, where the settings ask."""
        port = self.settings.health_port
        if port is not None:
            self.health = HealthServer(self, port)
            try:
                await self.health.start()
            except OSError as error:
                reason = os.strerror(error.errno) if error.errno else str(error)
                raise StartupFailure(
                    t("operations.health_port", port=port, reason=reason)
                ) from error
        if self.backups is not None:
            self._background.add(asyncio.create_task(self.backups.run(), name="backups"))

    async def _open(self) -> None:
        """The store, the service and everything that acts for it, and the cogs."""
        self.store = await open_database(self.settings)
        self.service = MatchService(self.store, seeds=self._seeds, clock=self.clock)
        self.service.limits.allowed = self.settings.limits
        self.workers = WorkerPool(self.settings.ai_workers, search=self._search, read=self._read)
        self.announcer = Announcer(self, self.service, self._render, self.workers)
        handler = JobHandler(self.service, self.announcer)
        owner = process_name(self.settings.shard_ids)
        self.scheduler = Scheduler(self.store, self.clock, handler, owner, self.settings.shards)
        self.service.deadlines.scheduled = self.scheduler.wake
        self.service.vacations.scheduled = self.scheduler.wake
        self.service.timing.scheduled = self.scheduler.wake
        nodes = self.settings.ai_nodes
        self.computer = Computer(
            self.service,
            self.announcer,
            self.workers,
            nodes=nodes,
            # searching by nodes (tests, offline scripts) plays the same on every run: so does
            # the board of a turn pair, whatever the machine's load
            reply_wait=REPLY_WAIT if nodes is None else None,
        )
        self.announcer.watchers.append(self.computer.wake)
        self.announcer.watchers.append(board_posted)
        self.analyst = Analyst(
            self, self.service, self.announcer.conversations, self.announcer.language
        )
        analyses = self.service.analyses
        analyses.read = self.workers.read
        analyses.progressed = self.analyst.progressed
        analyses.finished = or_by_dm(self.analyst.finished)
        analyses.seconds, analyses.nodes = self.settings.analysis_seconds, self.settings.ai_nodes
        self.add_dynamic_items(*PERSISTENT_ITEMS)
        for name in COGS:
            await self.load_extension(name)

    def stop(self) -> asyncio.Task[None]:
        """Begin the stop, once: SIGTERM and SIGINT call this, and `close()` waits for it."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop(), name="stop")
        return self._stopping

    async def close(self) -> None:
        await asyncio.shield(self.stop())

    async def _stop(self) -> None:
        """The one way the bot stops. New work is refused at once (and /readyz reads 503),
        the gateway closes, the interactions and jobs under way get STOP_GRACE to finish,
        the claims of jobs cut short are released (nobody waits out their lease), then the
        workers stop and the database closes. A move cut short is safe either way: saved
        whole or not at all, and a saved board left unposted is posted at the next start."""
        self.in_flight.stopping = True
        log.info("stopping")
        for shard in self.shards.values():
            await shard.disconnect()
        if hasattr(self, "catching_up"):
            self._background.add(self.catching_up)
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        if hasattr(self, "scheduler"):
            cut = await asyncio.gather(
                self.in_flight.finish(STOP_GRACE), self.scheduler.stop(STOP_GRACE)
            )
            if any(cut):
                log.info("stopped %d interactions and %d jobs still under way", *cut)
        if hasattr(self, "announcer"):
            await self.announcer.finish_telling(STOP_GRACE)
        if hasattr(self, "computer"):  # while its last post can still go out
            await self.computer.close()
            await self.service.analyses.close()
        await super().close()
        if hasattr(self, "service"):
            self.service.offload.close()
        if hasattr(self, "workers"):
            await self.workers.close()
        if hasattr(self, "store"):
            await self.store.close()
        if self.health is not None:
            await self.health.stop()


def create_bot(
    settings: Settings,
    *,
    render: Renderer = render_png,
    sync_only: bool = False,
    clock: Clock | None = None,
    search: Search = search_dump,
    read: Callable[..., Reading] = read_position,
    seeds: Callable[[], int] | None = None,
) -> BoardBot:
    """Build the bot without connecting; `login` (or `start`) runs `setup_hook`. `sync_only`
    is a `--sync` run: the commands are registered even if unchanged, and no turn is played.
    `clock` is the scheduler's time (tests pass a manual one); `search` is what the
    computer's worker processes run (tests pass broken ones); `read` what the analysis
    worker runs per position; `seeds` draws each new match's seed (random unless given)."""
    return BoardBot(
        settings,
        render=render,
        sync_only=sync_only,
        clock=clock,
        search=search,
        read=read,
        seeds=seeds,
    )
