"""/rules (each game's help topics, with an example board) and /help."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import limits
from bot.cogs.challenges import GAME_CHOICES
from bot.interface import Interaction, answering
from bot.service import ServiceError
from rules import GAMES, RulesError, get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

# Topics where a picture of the starting position helps more than it distracts.
ILLUSTRATED = ("overview", "setup")

HELP = """\
**Board games, played turn by turn in threads**
• `/challenge game opponent [opponent2] [opponent3] [variant] [days] [rated] [level]`: invite \
members; they press Accept or Decline, you can Withdraw. When all accept, a thread opens for the \
match. Unanswered challenges expire after 7 days. Name this bot to play the computer at `level` \
1 to 3 (unrated).
• `/move move [match]`: play (suggestions appear as you type), or press **Move** under the board.
• Each move is due within `days` of the previous one (default 3, or no limit): the board shows \
the deadline, you are reminded with a quarter of your time and an hour left, and a player who \
runs out of time loses (in 3-4 player Boost they leave and the others play on).
• `/board [match]`: see the current board. `/matches`: your matches, those waiting for you first.
• `/takeback [match]`: undo your last move before the next player moves, if everyone accepts.
• `/resign [match]` (asks to confirm), `/draw [match]` (offer, or accept the offer), \
`/record [match]` (a text file).
• `/leaderboard game`, `/profile [user]`, `/history [user] [game]`: ratings and past results. \
`/replay [match]`: step through a match. `/analysis [match]`: the computer's analysis of a \
finished match (a graph of the chances, the blunders and better moves).
• `/settings [dm]`: your turns and reminders by direct message, with the board.
• `/rules game [topic]`: how each game is played.
Inside a match thread you never need the `match` option.
Games: {games}."""


class Guide(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.describe(game="The game", topic="One part of the rules (default: overview)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str, topic: str | None = None) -> None:
        async with answering(interaction):
            try:
                chosen = get_game(game)
            except RulesError as error:
                raise ServiceError(str(error)) from error
            name = (topic or "").strip().lower() or next(iter(chosen.help_topics))
            if name not in chosen.help_topics:
                raise ServiceError(
                    f"{chosen.title} has no rules topic {limits.quote(topic or '')}",
                    f"topics: {', '.join(chosen.help_topics)}",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            others = ", ".join(t for t in chosen.help_topics if t != name)
            text = (
                f"**{chosen.title}: {name}**\n{chosen.help_topics[name]}\n-# More topics: {others}"
            )
            picture = MISSING
            if name in ILLUSTRATED:
                state = chosen.new()
                png = await asyncio.to_thread(self.bot.announcer.render, chosen.name, state)
                picture = discord.File(io.BytesIO(png), filename=f"{chosen.name}-start.png")
            await interaction.followup.send(limits.content(text), ephemeral=True, file=picture)

    @rules.autocomplete("topic")
    async def topic_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            chosen = get_game(str(interaction.namespace.game or ""))
        except RulesError:
            return []
        typed = current.strip().lower()
        return limits.choices(
            app_commands.Choice(name=t, value=t) for t in chosen.help_topics if typed in t
        )

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: Interaction) -> None:
        games = ", ".join(g.title for g in GAMES.values())
        text = limits.content(HELP.format(games=games))
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Guide(bot))
