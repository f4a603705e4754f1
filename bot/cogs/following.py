"""/follow and /unfollow: a match's boards and result by direct message, for onlookers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.names import safe_name
from bot.texts import say, t
from bot.ui.commands_sync import server_only
from bot.ui.described import described
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

    @app_commands.command(name="follow", description=described(t("commands.follow.description")))
    @app_commands.describe(match=described(t("commands.options.match_by_number")))
    @app_commands.autocomplete(match=match_choices)
    @server_only
    async def follow(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            await self.bot.service.following.follow(found, interaction.user.id)
            following = t(
                "answers.follow.following", match=safe_name(found.describe()), number=found.id
            )
            await tell(interaction, say(following))

    @app_commands.command(
        name="unfollow", description=described(t("commands.unfollow.description"))
    )
    @app_commands.describe(match=described(t("commands.options.match_by_number")))
    @app_commands.autocomplete(match=match_choices)
    @server_only
    async def unfollow(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            await self.bot.service.following.unfollow(found, interaction.user.id)
            await tell(
                interaction, say(t("answers.follow.stopped", match=safe_name(found.describe())))
            )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Following(bot))
