"""/follow and /unfollow: a match's boards and result by direct message, for onlookers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import shown
from bot.ui.interface import Interaction, answering, resolve, service_of, tell, viewer

if TYPE_CHECKING:
    from bot.app import BoardBot


async def match_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """This server's matches, as /follow and /unfollow may name any of them."""
    found = await service_of(interaction).following.to_follow(viewer(interaction), current)
    return limits.choices(app_commands.Choice(name=m.describe(), value=str(m.id)) for m in found)


class Following(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="follow", description="Get a match's boards and its result by direct message"
    )
    @app_commands.describe(match="Which match, by number (not needed inside its thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def follow(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            await self.bot.service.following.follow(found, interaction.user.id)
            await tell(
                interaction,
                f"You follow {shown(found.describe())}: each of its boards, and its result, "
                f"will come to you by direct message.\n-# `/unfollow match:{found.id}` stops them.",
            )

    @app_commands.command(name="unfollow", description="Stop following a match")
    @app_commands.describe(match="Which match, by number (not needed inside its thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def unfollow(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            await self.bot.service.following.unfollow(found, interaction.user.id)
            await tell(interaction, f"You no longer follow {shown(found.describe())}.")


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Following(bot))
