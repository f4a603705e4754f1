"""/server status: how the bot is doing (version, uptime, gateway latency per shard, worker
queues, the last backup), privately, for members who may manage the server."""

from __future__ import annotations

import math
import time
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands
from prometheus_client import REGISTRY

from bot.clock import describe_duration
from bot.service import ServiceError
from bot.texts import Text, say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, tell

if TYPE_CHECKING:
    from bot.app import BoardBot


async def status_lines(bot: BoardBot) -> list[Text]:
    uptime = describe_duration(time.monotonic() - bot.started)
    lines = [t("operations.status_title", version=version("boardgame-bot"), uptime=uptime)]
    if bot.latencies:
        shards = ", ".join(
            say(t("operations.status_shard", shard=shard, latency=_latency(seconds)))
            for shard, seconds in bot.latencies
        )
        lines.append(t("operations.status_shards", shards=shards))
    else:
        lines.append(t("operations.status_offline"))
    running = await bot.store.running_matches(bot.settings.shards)
    lines.append(t("operations.status_matches", count=sum(running.values())))
    lines.append(
        t(
            "operations.status_queues",
            computer=_waiting("computer"),
            replay=_waiting("replay"),
            analysis=_waiting("analysis"),
        )
    )
    lines.append(_last_backup(bot))
    return lines


def _latency(seconds: float) -> Text:
    if not math.isfinite(seconds):
        return t("operations.status_no_heartbeat")
    return t("operations.status_latency", ms=round(seconds * 1000))


def _waiting(kind: str) -> int:
    """The worker queue's depth as last reported (none reported: none waited)."""
    value = REGISTRY.get_sample_value("boardgames_worker_queue_jobs", {"kind": kind})
    return int(value or 0)


def _last_backup(bot: BoardBot) -> Text:
    if bot.backups is None:
        return t("operations.status_backups_off")
    made = bot.backups.made()
    if not made:
        return t("operations.status_no_backup", folder=str(bot.backups.folder))
    newest = made[-1]
    return t("operations.status_backup", at=int(newest.stat().st_mtime), name=newest.name)


class Status(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

        async def status(interaction: Interaction) -> None:
            await self.status(interaction)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="status",
            description=described(t("operations.status_command")),
            callback=status,
        )
        self._group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        """A subcommand of /server, whose group (Manage Server only) the settings cog
        declares."""
        group = self.bot.tree.get_command("server")
        assert isinstance(group, app_commands.Group), "bot.cogs.settings loads first"
        group.add_command(self.command)
        self._group = group

    async def cog_unload(self) -> None:
        if self._group is not None:
            self._group.remove_command(self.command.name)

    async def status(self, interaction: Interaction) -> None:
        async with answering(interaction):
            if not interaction.permissions.manage_guild:
                raise ServiceError(
                    t("operations.status_refused"), t("operations.status_refused_hint")
                )
            await tell(interaction, "\n".join(say(line) for line in await status_lines(self.bot)))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Status(bot))
