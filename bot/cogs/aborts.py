"""/abort: ending a match nobody has really started (before every player has moved)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts.match_texts import abort_text
from bot.texts import say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve, tell

if TYPE_CHECKING:
    from bot.app import BoardBot


class Aborts(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="abort", description=described(t("lifecycle.commands.abort.description"))
    )
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            async with self.bot.service.cache.lock(found.id):
                aborted = await self.bot.service.aborts.abort(found.id, interaction.user.id)
                others = [u for u in aborted.match.people if u != interaction.user.id]
                await self.bot.announcer.closed(aborted.match, abort_text(aborted), others)
            await tell(interaction, say(t("lifecycle.abort.answer", game=found.title)))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Aborts(bot))
