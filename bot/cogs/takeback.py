"""/takeback and the Accept takeback / Decline buttons under a request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.interface import Interaction, answering, match_choices, resolve, tell
from bot.notifications import mention, pinging, shown
from bot.service import Takeback
from bot.views import takeback_view

if TYPE_CHECKING:
    from bot.app import BoardBot


def waiting_line(request: Takeback) -> str:
    waiting = ", ".join(mention(s.user_id) for s in request.waiting)
    return f"{waiting}: press **Accept takeback** or **Decline**."


class Takebacks(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="takeback", description="Ask to take back your last move (before the next one)"
    )
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def takeback(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            async with self.bot.service.lock(found.id):
                request = await self.bot.service.request_takeback(found.id, interaction.user.id)
                name = shown(interaction.user.display_name)
                await self.bot.announcer.post(
                    request.match,
                    f"{name} asks to take back **{request.notation}**.\n{waiting_line(request)}",
                    view=takeback_view(found.id, request.match.row.ply),
                    ping=[s.user_id for s in request.waiting],
                )
            await tell(interaction, f"You asked to take back {request.notation}.")

    async def answer(self, interaction: Interaction, match_id: int, ply: int, accept: bool) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.lock(match_id):
                request = await self.bot.service.answer_takeback(
                    match_id, ply, interaction.user.id, accept
                )
                name = shown(interaction.user.display_name)
                asker = shown(request.match.at(request.seat).name)
                asked = f"{asker} asked to take back **{request.notation}**."
                if not accept:
                    declined = f"{asked}\n{name} declined: the move stands."
                    await interaction.edit_original_response(
                        content=limits.content(declined), view=None
                    )
                    return
                if not request.done:
                    accepted = f"{asked}\n{name} accepted. {waiting_line(request)}"
                    await interaction.edit_original_response(
                        content=limits.content(accepted),
                        allowed_mentions=pinging(*(s.user_id for s in request.waiting)),
                    )
                    return
                await interaction.edit_original_response(
                    content=limits.content(f"{asked}\nEveryone accepted."), view=None
                )
                await self.bot.announcer.post_board(
                    request.match, [f"**{request.notation}** was taken back."]
                )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Takebacks(bot))
