"""/vacation: stop your clocks in every server while you are away."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts.conversations import OutOfReach
from bot.posts.match_texts import days_left, vacation_began, vacation_ended
from bot.posts.names import safe_name
from bot.posts.undelivered import Undelivered
from bot.service.vacations import MAX_DAYS
from bot.texts import say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, tell

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)


class Vacation(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="vacation", description=described(t("commands.vacation.description"))
    )
    @app_commands.describe(days=described(t("commands.vacation.options.days", most=MAX_DAYS)))
    async def vacation(
        self, interaction: Interaction, days: app_commands.Range[int, 0, MAX_DAYS]
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            name = interaction.user.display_name
            state = await self.bot.service.vacations.take(interaction.user.id, days)
            current = state.current
            left = days_left(state)
            if current is not None:
                answer = t("answers.vacation.away", until=current.ends_at, days_left=left)
            else:
                answer = t("answers.vacation.back", days_left=left)
            unsaid = []
            for match in state.turns:
                due = await self.bot.service.deadlines.deadline(match)
                text = (
                    vacation_began(name, current.ends_at, due)
                    if current is not None
                    else vacation_ended(name, due)
                )
                try:
                    await self.bot.announcer.say(match, text)
                except (Undelivered, OutOfReach) as problem:  # the vacation stands anyway
                    log.info("match #%s: %s", match.id, problem)
                    if not isinstance(problem, OutOfReach) or not problem.told:
                        unsaid.append(safe_name(match.describe()))
            lines = [say(answer)]
            if unsaid:
                lines.append(say(t("answers.vacation.not_said", matches=", ".join(unsaid))))
            await tell(interaction, "\n".join(lines))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Vacation(bot))
