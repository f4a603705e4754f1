"""/export: a match as a plain-text record and, once finished, an Abstract Play game record
(JSON); or, privately, every finished game of yours in zip archives within Discord's upload
limit."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.posts.names import safe_name
from bot.records import Export
from bot.records.archive import archives
from bot.records.gather import Exporter, by_id, record_files
from bot.store import MatchRow, Status
from bot.texts import say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve

if TYPE_CHECKING:
    from bot.app import BoardBot


class Exports(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        self.exporter = Exporter(bot.service.cache, bot.clock)

    def server_name(self, guild_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        return guild.name if guild is not None else by_id(guild_id)

    async def export_match(self, row: MatchRow) -> Export:
        return await self.exporter.export(row, self.server_name)

    @app_commands.command(name="export", description=described(t("records.command.export")))
    @app_commands.describe(
        match=described(t("records.command.match")), all=described(t("records.command.all"))
    )
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def export(
        self, interaction: Interaction, match: str | None = None, all: bool = False
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            if all:
                await self._everything(interaction)
                return
            found = await resolve(interaction, match, recent=True)
            export = await self.export_match(found.row)
            files = [
                discord.File(
                    io.BytesIO(text.encode("utf-8")),
                    filename=name,
                    description=say(t("records.file", match=found.title, name=name)),
                )
                for name, text in record_files(export)
            ]
            described_match = safe_name(found.describe())
            sent = t(
                "records.sent_finished" if export.finished else "records.sent_running",
                match=described_match,
            )
            await interaction.followup.send(say(sent), files=files, ephemeral=True)

    async def _everything(self, interaction: Interaction) -> None:
        """Every finished match of the member's, in every server, as zips (split to fit)."""
        rows, _ = await self.bot.service.cache.store.matches_of(
            interaction.user.id, (Status.FINISHED,)
        )
        if not rows:
            await interaction.followup.send(say(t("records.none")), ephemeral=True)
            return
        files: list[tuple[str, str]] = []
        for row in sorted(rows, key=lambda r: r.id):
            export = await self.export_match(row)
            files += record_files(export)
        packed = await asyncio.to_thread(archives, files, interaction.filesize_limit)
        for number, data in enumerate(packed, start=1):
            name = f"games-{interaction.user.id}-{number}.zip"
            text = t("records.archive", count=len(rows), part=number, parts=len(packed))
            await interaction.followup.send(
                say(text),
                file=discord.File(
                    io.BytesIO(data),
                    filename=name,
                    description=say(t("records.archive_file", part=number, parts=len(packed))),
                ),
                ephemeral=True,
            )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Exports(bot))
