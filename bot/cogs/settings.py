"""/settings: a member's preferences, stored (direct messages for turns and reminders)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.interface import Interaction, answering, tell

if TYPE_CHECKING:
    from bot.app import BoardBot

SWITCH = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


class Settings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Your preferences (leave empty to see them)")
    @app_commands.describe(
        dm="Direct message me when it is my turn and for reminders, with the board and a link"
    )
    @app_commands.choices(dm=SWITCH)
    async def settings(self, interaction: Interaction, dm: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            user_id = interaction.user.id
            if dm is not None:
                await self.bot.service.store.set_dm(user_id, dm == "on")
            mine = await self.bot.service.store.preferences(user_id)
            if not mine.dm:
                line = "Direct messages: **off**. You are mentioned in the match thread."
            elif mine.dm_refused:
                line = (
                    "Direct messages: **on**, but Discord refused the last one, so you are "
                    "mentioned in the match thread. Open your DMs, then run `/settings dm:on`."
                )
            else:
                line = (
                    "Direct messages: **on**. Your turns and reminders come by DM, "
                    "with the board and a link to the thread."
                )
            changed = "Saved. " if dm is not None else ""
            await tell(interaction, f"{changed}{line}\n-# Change it with `/settings dm:on|off`.")


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Settings(bot))
