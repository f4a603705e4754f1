"""/time give (more time for the opponent) and /note (a private note on a match)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts.match_texts import mention
from bot.posts.names import safe_name
from bot.service.clocks import MAX_DAYS
from bot.texts import t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve, tell

if TYPE_CHECKING:
    from bot.app import BoardBot


class Clocks(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    time = app_commands.Group(
        name="time", description=described(t("clocks.commands.time")), guild_only=True
    )

    @time.command(name="give", description=described(t("clocks.commands.give")))
    @app_commands.describe(
        days=described(t("clocks.commands.give_days")),
        match=described(t("commands.options.match")),
    )
    @app_commands.autocomplete(match=match_choices)
    async def give(
        self,
        interaction: Interaction,
        days: app_commands.Range[int, 1, MAX_DAYS],
        match: str | None = None,
    ) -> None:
        """Said in the match's place, so the opponent and any onlooker see it."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            async with self.bot.service.cache.lock(found.id):
                given = await self.bot.service.timing.give(found.id, interaction.user.id, days)
            giver, player = safe_name(interaction.user.display_name), mention(given.to.user_id)
            if given.deadline is not None:
                text = t(
                    "clocks.give.running",
                    giver=giver,
                    player=player,
                    count=days,
                    deadline=given.deadline,
                )
            else:
                text = t("clocks.give.later", giver=giver, player=player, count=days)
            await self.bot.announcer.say(given.match, text, ping=[given.to.user_id])
            await interaction.delete_original_response()  # the match's place says it

    @app_commands.command(name="note", description=described(t("clocks.commands.note")))
    @app_commands.describe(
        text=described(t("clocks.commands.note_text")),
        match=described(t("commands.options.match")),
    )
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def note(
        self, interaction: Interaction, text: str | None = None, match: str | None = None
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            note = await self.bot.service.notes.keep(found, interaction.user.id, text)
            where = safe_name(found.describe())
            if note.text and text is None:
                answer = t("clocks.note.yours", text=note.text)
            elif note.text:
                answer = t("clocks.note.saved", match=where, text=note.text)
            elif note.deleted:
                answer = t("clocks.note.deleted", match=where)
            else:
                answer = t("clocks.note.none", match=where)
            await tell(interaction, answer)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Clocks(bot))
