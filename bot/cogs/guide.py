"""/rules (each game's help topics, with an example board) and /help."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.cogs.challenges import GAME_CHOICES
from bot.posts import limits
from bot.service import ServiceError, refusal
from bot.ui.interface import Interaction, answering
from renderers import render_key
from rules import GAMES, Game, RulesError, get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

# Topics where a picture of the starting position helps more than it distracts.
ILLUSTRATED = ("overview", "setup")
# The topic every game has here, with the key to its pictures (Boku's own text comes first).
BOARD = "board"
KEY_TEXT = (
    "The picture below is the key to this game's boards: every mark they use. A board's "
    '"Turn N" is the N-th line of its /record. Run `/settings` to see boards from your side '
    "and in another theme."
)


def topics(game: Game[Any, Any]) -> dict[str, str]:
    """The game's own help topics, and `board` with the key to its pictures."""
    own = dict(game.help_topics)
    own[BOARD] = f"{own[BOARD]}\n{KEY_TEXT}" if BOARD in own else KEY_TEXT
    return own


HELP = """\
**Board games, played turn by turn in threads**
• `/challenge game [opponent…] [variant] [days] [rated] [level] [players]`: they press Accept; \
with no opponent anyone may take the seats; name this bot to play the computer (level 1-3). \
A thread opens when all accept; challenges expire after 7 days.
• `/move move [match]` (suggestions as you type), or press **Move** under the board.
• Each move is due within `days` (default 3): reminders at a quarter and an hour left; out of \
time loses (in 3-4 player Boost that player leaves).
• `/board`, `/matches`, `/next` (what waits for you, most urgent first).
• `/takeback`, `/resign`, `/draw` (with **Accept draw** / **Decline** buttons), `/record`, \
`/replay`; **Rematch** under a result.
• `/premove line:h8h4 a1e3 …`: your answers, played the moment they play the expected move.
• `/leaderboard game`, `/profile [user]`, `/history [user] [game]`; `/analysis [match]`: the \
computer's view of a finished match (a graph of the chances, blunders, better moves).
• `/tournament create|start|standings|leave|list`: round robin and Swiss.
• `/settings [dm] [theme] [flip]`, `/vacation days` (1-30; `days:0` ends it), `/follow`, \
`/unfollow`.
• `/server settings`: the server's defaults (for members who may manage the server).
• `/rules game [topic]`: how each game is played; `topic:board` is the key to the pictures.
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
                raise ServiceError(refusal(str(error))) from error
            every = topics(chosen)
            name = (topic or "").strip().lower() or next(iter(every))
            if name not in every:
                raise ServiceError(
                    f"{chosen.title} has no rules topic {limits.quote(topic or '')}.",
                    f"topics: {', '.join(every)}",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            others = ", ".join(t for t in every if t != name)
            text = f"**{chosen.title}: {name}**\n{every[name]}\n-# More topics: {others}"
            picture = MISSING
            if name in ILLUSTRATED or name == BOARD:
                picture = await self._picture(chosen, name, interaction.user.id)
            await interaction.followup.send(limits.content(text), ephemeral=True, file=picture)

    async def _picture(self, game: Game[Any, Any], topic: str, viewer: int) -> discord.File:
        """The starting position, or the key for the `board` topic, in the member's theme."""
        theme = (await self.bot.service.settings.person(viewer)).theme
        if topic == BOARD:
            png = await asyncio.to_thread(render_key, game.name, theme=theme)
            about = f"The key to {game.title} boards: every mark they use, each with its meaning."
            return discord.File(io.BytesIO(png), filename=f"{game.name}-key.png", description=about)
        state = game.new()
        png = await asyncio.to_thread(self.bot.announcer.render, game.name, state, theme=theme)
        about = (
            f"The starting position of {game.title}. {game.describe_position(state)} "
            f"{game.seat_name(game.to_move(state))} moves first."
        )
        return discord.File(
            io.BytesIO(png),
            filename=f"{game.name}-start.png",
            description=limits.description(about),
        )

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
            app_commands.Choice(name=t, value=t) for t in topics(chosen) if typed in t
        )

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: Interaction) -> None:
        games = ", ".join(g.title for g in GAMES.values())
        text = limits.content(HELP.format(games=games))
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Guide(bot))
