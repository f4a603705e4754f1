"""/resign and /draw: ending a match other than by playing it out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.interface import Interaction, answering, match_choices, resolve, tell
from bot.notifications import mention, shown
from bot.service import Match
from bot.store import SeatRow
from bot.views import resign_view

if TYPE_CHECKING:
    from bot.app import BoardBot


class Endings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="resign", description="Resign a match (any time, even out of turn)")
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction, match: str | None = None) -> None:
        """Asks first, privately: a stray /resign must not end a game."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            self.bot.service.require_playing(found, interaction.user.id)
            await interaction.followup.send(
                limits.content(f"Resign {shown(found.describe())}? This cannot be undone."),
                view=resign_view(found.id),
                ephemeral=True,
            )

    async def confirm_resign(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.lock(match_id):
                result = await self.bot.service.resign(match_id, interaction.user.id)
                await self.bot.announcer.after_turns(result.match, result.turns)
            await interaction.edit_original_response(
                content=f"You resigned from {result.match.title}.", view=None
            )

    @app_commands.command(name="draw", description="Offer a draw, or accept the one offered")
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            me = shown(interaction.user.display_name)
            async with self.bot.service.lock(found.id):
                result = await self.bot.service.draw(found.id, interaction.user.id)
                if result.agreed:
                    await self.bot.announcer.post_board(result.match, [f"{me} accepted the draw."])
                    await tell(interaction, f"You accepted the draw in {found.title}.")
                    return
                seat = result.match.seat_of(interaction.user.id)
                other = result.match.at(3 - (seat or 1))
                await self.bot.announcer.say(
                    result.match, offer_text(result.match, me, other), [other.user_id]
                )
            await tell(
                interaction,
                f"You offered a draw in {found.title}. It stands until {shown(other.name)} moves.",
            )


def offer_text(match: Match, offering: str, other: SeatRow) -> str:
    """The offer, addressed to the one player who may answer it, saying when they can: at
    once if it is their move (moving declines it), else any time before their next move."""
    mover = match.to_move
    if mover is not None and mover.seat == other.seat:
        answer = "accept with /draw, or decline by making your move"
    else:
        answer = "accept with /draw at any time; your next move declines it"
    return f"{offering} offers a draw. {mention(other.user_id)}: {answer}."


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Endings(bot))
