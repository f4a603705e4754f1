"""/analysis: the computer's analysis of a finished match, posted where it was played."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.posts.match_texts import jump_url
from bot.service.analysis import Request
from bot.texts import Text, say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve
from bot.ui.uploads import Studying

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)


def answer(request: Request) -> Text:
    """The private reply: started, joined, or done already, with a link to the progress."""
    progress = request.progress
    match, total = progress.match.title, progress.total
    link = jump_url(progress.match.row.guild_id, progress.match.channel_id, progress.message_id)
    if request.finished:
        return t("analysis.answer.done", match=match, link=link)
    if request.started:
        return t("analysis.answer.started", match=match, total=total, link=link)
    return t("analysis.answer.running", match=match, done=progress.done, total=total, link=link)


class Analysis(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        self.studying = Studying(bot.service.analyses)

    @app_commands.command(
        name="analysis", description=described(t("commands.analysis.description"))
    )
    @app_commands.describe(
        match=described(t("commands.options.match_own_thread")),
        record=described(t("records.command.record")),
    )
    @app_commands.autocomplete(match=match_choices)
    async def analysis(
        self,
        interaction: Interaction,
        match: str | None = None,
        record: discord.Attachment | None = None,
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            if record is not None:
                await self.studying.study(interaction, record)
                return
            found = await resolve(interaction, match, recent=True)
            analyses = self.bot.service.analyses
            request = await analyses.request(found, interaction.user.id)
            if request.started:
                try:
                    message = await self.bot.analyst.start(request.progress)
                except discord.HTTPException as error:  # the results are posted all the same
                    log.info("no progress message for match #%s: %s", found.id, error)
                else:
                    await analyses.set_message(found.id, message.id)
                    progress = replace(request.progress, message_id=message.id)
                    request = replace(request, progress=progress)
            await interaction.followup.send(say(answer(request)), ephemeral=True)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Analysis(bot))
