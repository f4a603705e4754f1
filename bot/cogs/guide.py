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
from bot.posts.pictures import picture_words
from bot.service import ServiceError, refusal
from bot.texts import say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering
from renderers import render_key
from rules import GAMES, Game, RulesError, get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

# Topics where a picture of the starting position helps more than it distracts.
ILLUSTRATED = ("overview", "setup")
# The topic every game has here, with the key to its pictures (Boku's own text comes first).
BOARD = "board"


def topics(game: Game[Any, Any]) -> dict[str, str]:
    """The game's own help topics, worded by the catalogue, and `board` with the key to its
    pictures."""
    own = {topic: say(t(f"help.{game.name}.{topic}")) for topic in game.help_topics}
    key = say(t("answers.rules.board_key"))
    own[BOARD] = f"{own[BOARD]}\n{key}" if BOARD in own else key
    return own


class Guide(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description=described(t("commands.rules.description")))
    @app_commands.describe(
        game=described(t("commands.rules.options.game")),
        topic=described(t("commands.rules.options.topic")),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str, topic: str | None = None) -> None:
        async with answering(interaction):
            try:
                chosen = get_game(game)
            except RulesError as error:
                raise ServiceError(refusal(error)) from error
            every = topics(chosen)
            name = (topic or "").strip().lower() or next(iter(every))
            if name not in every:
                raise ServiceError(
                    t("answers.rules.no_topic", game=chosen.title, topic=limits.quote(topic or "")),
                    t("answers.rules.no_topic_hint", topics=", ".join(every)),
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            others = ", ".join(t for t in every if t != name)
            text = say(
                t(
                    "answers.rules.topic",
                    game=chosen.title,
                    topic=name,
                    text=every[name],
                    others=others,
                )
            )
            picture = MISSING
            if name in ILLUSTRATED or name == BOARD:
                picture = await self._picture(chosen, name, interaction.user.id)
            await interaction.followup.send(limits.content(text), ephemeral=True, file=picture)

    async def _picture(self, game: Game[Any, Any], topic: str, viewer: int) -> discord.File:
        """The starting position, or the key for the `board` topic, in the member's theme."""
        theme = (await self.bot.service.settings.person(viewer)).theme
        if topic == BOARD:
            words = picture_words()
            png = await asyncio.to_thread(render_key, game.name, theme=theme, words=words)
            about = say(t("answers.rules.key_alt", game=game.title))
            return discord.File(io.BytesIO(png), filename=f"{game.name}-key.png", description=about)
        state = game.new()
        png = await asyncio.to_thread(
            self.bot.announcer.render, game.name, state, theme=theme, words=picture_words()
        )
        about = say(
            t(
                "answers.rules.start_alt",
                game=game.title,
                position=game.describe_position(state),
                side=game.seat_phrase(game.to_move(state)),
            )
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

    @app_commands.command(name="help", description=described(t("commands.help.description")))
    async def help(self, interaction: Interaction) -> None:
        async with answering(interaction):  # remembers the member, as every command does
            games = ", ".join(g.title for g in GAMES.values())
            text = limits.content(say(t("answers.help.text", games=games)))
            await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Guide(bot))
