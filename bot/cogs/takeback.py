"""/takeback and the Accept takeback / Decline buttons under a request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import (
    takeback_accepted,
    takeback_agreed,
    takeback_asks,
    takeback_declined,
    taken_back,
)
from bot.posts.names import safe_name
from bot.posts.notifications import pinging
from bot.texts import say, speaking, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, in_place, match_choices, resolve, tell
from bot.ui.views import TakebackButton, takeback_view

if TYPE_CHECKING:
    from bot.app import BoardBot


class Takebacks(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.on(
            TakebackButton,
            lambda interaction, button: self.answer(
                interaction, button.match_id, button.ply, button.accept
            ),
        )

    @app_commands.command(
        name="takeback", description=described(t("commands.takeback.description"))
    )
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    async def takeback(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            async with self.bot.service.cache.lock(found.id):
                request = await self.bot.service.takebacks.request(found.id, interaction.user.id)
                name = safe_name(interaction.user.display_name)
                with speaking(await in_place(interaction, request.match)):
                    view = takeback_view(found.id, request.match.row.ply)
                await self.bot.announcer.post(
                    request.match,
                    takeback_asks(name, request),
                    view=view,
                    ping=[s.user_id for s in request.waiting],
                )
            await tell(interaction, say(t("answers.takeback.asked", move=request.notation)))

    async def answer(self, interaction: Interaction, match_id: int, ply: int, accept: bool) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                request = await self.bot.service.takebacks.answer(
                    match_id, ply, interaction.user.id, accept
                )
                name = safe_name(interaction.user.display_name)
                language = await in_place(interaction, request.match)
                if not accept:
                    await interaction.edit_original_response(
                        content=limits.content(say(takeback_declined(request, name), language)),
                        view=None,
                    )
                    return
                if not request.done:
                    await interaction.edit_original_response(
                        content=limits.content(say(takeback_accepted(request, name), language)),
                        allowed_mentions=pinging(*(s.user_id for s in request.waiting)),
                    )
                    return
                await interaction.edit_original_response(
                    content=limits.content(say(takeback_agreed(request), language)), view=None
                )
                await self.bot.announcer.post_board(request.match, [taken_back(request)])


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Takebacks(bot))
