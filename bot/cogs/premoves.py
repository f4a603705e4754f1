"""/premove: conditional moves, entered, listed and cleared privately; the service plays them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import Line, worded
from bot.posts.names import safe_name
from bot.service import PremoveLines, ServiceError
from bot.texts import say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve, tell

if TYPE_CHECKING:
    from bot.app import BoardBot


class Premoves(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="premove", description=described(t("commands.premove.description")))
    @app_commands.describe(
        line=described(t("commands.premove.options.line")),
        clear=described(t("commands.premove.options.clear")),
        match=described(t("commands.options.match")),
    )
    @app_commands.autocomplete(match=match_choices)
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
                raise ServiceError(
                    t("answers.premove.line_or_clear"), t("answers.premove.clear_first")
                )
            found = await resolve(interaction, match)
            premoves = self.bot.service.premoves
            user_id = interaction.user.id
            async with self.bot.service.cache.lock(found.id):
                if clear:
                    cleared = await premoves.clear(found.id, user_id)
                    count = len(cleared.lines)
                    done = t("answers.premove.cleared", count=count, match=found.title)
                    await tell(interaction, say(done))
                    return
                if line is not None:
                    added = await premoves.add(found.id, user_id, line)
                    await tell(interaction, listing(added, kept=True))
                    return
                await tell(interaction, listing(await premoves.lines(found.id, user_id)))


def listing(found: PremoveLines, kept: bool = False) -> str:
    """The member's lines, numbered, each as opponent's move → answer pairs (after saying a
    new line was `kept`)."""
    title = safe_name(found.match.describe())
    heading = t("answers.premove.lines" if found.lines else "answers.premove.none", match=title)
    rows: list[Line] = [t("answers.premove.kept", listing=heading) if kept else heading]
    for number, line in enumerate(found.lines, 1):
        pairs = [f"{line[i]} → **{line[i + 1]}**" for i in range(0, len(line) - 1, 2)]
        rows.append(f"{number}. {', '.join(pairs)}")
    if found.lines:
        rows.append(t("answers.premove.how"))
    return limits.content(worded(rows))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Premoves(bot))
