"""/resign and /draw (with the Accept draw / Decline buttons under an offer): ending a match
other than by playing it out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import draw_accepted, draw_declined, draw_offer
from bot.posts.names import safe_name
from bot.posts.undelivered import Undelivered
from bot.service import ServiceError
from bot.texts import say, speaking, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, in_place, match_choices, resolve, tell
from bot.ui.views import DrawButton, ResignButton, draw_view, resign_view

if TYPE_CHECKING:
    from bot.app import BoardBot


class Endings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.on(
            DrawButton,
            lambda interaction, button: self.answer_draw(
                interaction, button.match_id, button.accept
            ),
        )
        bot.clicks.on(
            ResignButton,
            lambda interaction, button: self.confirm_resign(interaction, button.match_id),
        )

    @app_commands.command(name="resign", description=described(t("commands.resign.description")))
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    async def resign(self, interaction: Interaction, match: str | None = None) -> None:
        """Asks first, privately: a stray /resign must not end a game."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            self.bot.service.turns.require_playing(found, interaction.user.id)
            await interaction.followup.send(
                limits.content(say(t("answers.resign.confirm", match=safe_name(found.describe())))),
                view=resign_view(found.id),
                ephemeral=True,
            )

    async def confirm_resign(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                result = await self.bot.service.turns.resign(match_id, interaction.user.id)
                await self.bot.announcer.after_turns(result.match, result.turns)
            await interaction.edit_original_response(
                content=say(t("answers.resign.done", match=result.match.title)), view=None
            )

    @app_commands.command(name="draw", description=described(t("commands.draw.description")))
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    async def draw(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            me = safe_name(interaction.user.display_name)
            async with self.bot.service.cache.lock(found.id):
                result = await self.bot.service.turns.draw(found.id, interaction.user.id)
                if result.agreed:
                    accepted = t("lifecycle.draw.accepted", player=me)
                    ended = await self.bot.announcer.end_draw_offer(result.match, accepted)
                    await self.bot.announcer.post_board(ended, [draw_accepted(me)])
                    await tell(interaction, say(t("answers.draw.accepted", match=found.title)))
                    return
                seat = result.match.seat_of(interaction.user.id)
                other = result.match.at(3 - (seat or 1))
                with speaking(await in_place(interaction, result.match)):
                    view = draw_view(found.id)
                try:
                    posted = await self.bot.announcer.post(
                        result.match,
                        draw_offer(result.match, me, other),
                        view=view,
                        ping=[other.user_id],
                    )
                except (Undelivered, discord.HTTPException) as error:  # unseen: not made
                    await self.bot.service.turns.withdraw_draw_offer(found.id, interaction.user.id)
                    raise ServiceError(
                        t("lifecycle.draw.not_posted", player=safe_name(other.name)),
                        t("lifecycle.draw.not_posted_hint"),
                    ) from error
                await self.bot.service.cache.set_messages(result.match, draw_message_id=posted.id)
            offered = t("answers.draw.offered", match=found.title, player=safe_name(other.name))
            await tell(interaction, say(offered))

    async def answer_draw(self, interaction: Interaction, match_id: int, accept: bool) -> None:
        """Accept draw or Decline under an offer: the offer loses its buttons and says how it
        was answered; an accepted draw posts the result."""
        async with answering(interaction):
            await interaction.response.defer()
            me = safe_name(interaction.user.display_name)
            async with self.bot.service.cache.lock(match_id):
                result = await self.bot.service.turns.answer_draw(
                    match_id, interaction.user.id, accept
                )
                answered = draw_accepted(me) if accept else draw_declined(me)
                content = interaction.message.content if interaction.message else ""
                language = await in_place(interaction, result.match)
                await interaction.edit_original_response(
                    content=limits.content(f"{content}\n{say(answered, language)}"), view=None
                )
                match = await self.bot.service.cache.set_messages(
                    result.match, draw_message_id=None
                )
                if result.agreed:
                    await self.bot.announcer.post_board(match, [answered])


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Endings(bot))
