"""/vacation: stop your clocks in every server while you are away."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts.match_texts import days_left, vacation_began, vacation_ended
from bot.posts.notifications import Undelivered
from bot.service.vacations import MAX_DAYS
from bot.ui.interface import Interaction, answering, tell

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)


class Vacation(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="vacation", description="Stop your clocks in every server while you are away"
    )
    @app_commands.describe(
        days=f"How many days from now (1-{MAX_DAYS}); 0 ends your vacation early"
    )
    async def vacation(self, interaction: Interaction, days: int) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            name = interaction.user.display_name
            state = await self.bot.service.vacations.take(interaction.user.id, days)
            current = state.current
            if current is not None:
                answer = (
                    f"You are on vacation until <t:{current.ends_at}:f>: your clocks are "
                    f"stopped in every server, and turns that reach you meanwhile start their "
                    f"clock when you are back. Opponents can still move. "
                    f"{days_left(state)}.\n-# `/vacation days:0` ends it early; unused days return."
                )
            else:
                answer = f"Welcome back: your clocks run again. {days_left(state)}."
            await tell(interaction, answer)
            for match in state.turns:
                due = await self.bot.service.deadlines.deadline(match)
                text = (
                    vacation_began(name, current.ends_at, due)
                    if current is not None
                    else vacation_ended(name, due)
                )
                try:
                    await self.bot.announcer.say(match, text)
                except Undelivered as problem:  # the vacation stands; the post is a courtesy
                    log.info("match #%s: %s", match.id, problem)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Vacation(bot))
