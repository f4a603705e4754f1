"""/premove: conditional moves, entered, listed and cleared privately; the service plays them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import shown
from bot.service import PremoveLines, ServiceError
from bot.ui.interface import Interaction, answering, match_choices, resolve, tell

if TYPE_CHECKING:
    from bot.app import BoardBot


class Premoves(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="premove", description="Moves to play at once if your opponent replies as expected"
    )
    @app_commands.describe(
        line="Your opponent's expected reply, your answer, and so on (e.g. h8h4 a1e3 g8g4 b1d3)",
        clear="Clear all your premove lines in this match",
        match="Which match (not needed inside a match thread)",
    )
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def premove(
        self,
        interaction: Interaction,
        line: str | None = None,
        clear: bool = False,
        match: str | None = None,
    ) -> None:
        """Without options, lists the member's lines; all answers are private."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            if clear and line is not None:
                raise ServiceError("Give a line or clear:true, not both.", "clear first, then add")
            found = await resolve(interaction, match)
            premoves = self.bot.service.premoves
            user_id = interaction.user.id
            async with self.bot.service.cache.lock(found.id):
                if clear:
                    cleared = await premoves.clear(found.id, user_id)
                    count = len(cleared.lines)
                    await tell(interaction, f"Cleared {count} premove line(s) in {found.title}.")
                    return
                if line is not None:
                    added = await premoves.add(found.id, user_id, line)
                    await tell(interaction, listing(added, "Premove line kept."))
                    return
                await tell(interaction, listing(await premoves.lines(found.id, user_id)))


def listing(found: PremoveLines, heading: str = "") -> str:
    """The member's lines, numbered, each as opponent's move → answer pairs."""
    title = shown(found.match.describe())
    if not found.lines:
        return f"{heading} You have no premove lines in {title}.".strip()
    rows = [f"{heading} Your premove lines in {title} (private until played):".strip()]
    for number, line in enumerate(found.lines, 1):
        pairs = [f"{line[i]} → **{line[i + 1]}**" for i in range(0, len(line) - 1, 2)]
        rows.append(f"{number}. {', '.join(pairs)}")
    rows.append("When your opponent plays a line's first move, your answer is played at once.")
    return limits.content("\n".join(rows))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Premoves(bot))
