"""/challenge and the Accept, Decline and Withdraw buttons under a challenge."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import ai
from bot import limits
from bot.interface import Interaction, answering, player
from bot.notifications import pinging
from bot.service import Player
from bot.service.deadlines import DAY_CHOICES, DEFAULT_DAYS
from bot.texts import (
    challenge_begins,
    challenge_declined,
    challenge_text,
    challenge_withdrawn,
    pace,
    shown,
)
from bot.views import challenge_view
from rules import GAMES, RulesError, get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

GAME_CHOICES = [
    app_commands.Choice(name=game.title, value=name) for name, game in list(GAMES.items())[:25]
]
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{number}: {level.name}", value=number)
    for number, level in ai.LEVELS.items()
]
DEFAULT_LEVEL = 2


DAYS_CHOICES: list[app_commands.Choice[int]] = [
    app_commands.Choice(name=pace(days), value=days) for days in DAY_CHOICES
]


class Challenges(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description="Challenge members to a board game")
    @app_commands.describe(
        game="The game to play",
        opponent="Who you challenge",
        opponent2="A second opponent (games for 3 or more)",
        opponent3="A third opponent (games for 4)",
        variant="A variant of the game (the default fits the number of players)",
        days=f"Days to make each move (default: the server's, else {DEFAULT_DAYS})",
        rated="Whether the result counts for ratings (default: yes; never with this bot)",
        level="How well this bot plays when you challenge it (default 2: medium)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(days=DAYS_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.User,
        opponent2: discord.User | None = None,
        opponent3: discord.User | None = None,
        variant: str | None = None,
        days: int | None = None,
        rated: bool = True,
        level: int = DEFAULT_LEVEL,
    ) -> None:
        async with answering(interaction):
            named = [u for u in (opponent, opponent2, opponent3) if u is not None]
            opponents = [self._opponent(u, level) for u in named]
            days = await self.bot.service.settings.check_challenge(
                interaction.guild_id, interaction.channel_id or 0, game, days
            )
            request = self.bot.service.challenges.prepare(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                challenger=player(interaction.user),
                game=game,
                opponents=opponents,
                variant=variant,
                days=days,
                rated=rated,
            )
            await interaction.response.defer(thinking=True)
            match = await self.bot.service.challenges.open(request)
            async with self.bot.service.cache.lock(match.id):
                opening = await self.bot.service.challenges.accept_engines(match.id)
                match = opening.match
                if opening.started:
                    await interaction.followup.send(
                        challenge_begins(match), allowed_mentions=pinging(*match.people)
                    )
                    # unlike the follow-up, the original response knows its server, so a
                    # thread can open on it
                    message: discord.Message = await interaction.original_response()
                else:
                    message = await interaction.followup.send(
                        challenge_text(match),
                        view=challenge_view(match.id),
                        allowed_mentions=pinging(*match.people),
                        wait=True,
                    )
                match = await self.bot.service.cache.set_messages(
                    match, challenge_message_id=message.id
                )
                if opening.started:
                    await self.bot.announcer.open_match(match, message, opening.turns)
                else:
                    await self.bot.service.deadlines.expire_later(match)

    def _opponent(self, user: discord.User, level: int) -> Player:
        """The member named, or the computer at `level` when this bot itself is named."""
        if self.bot.user is not None and user.id == self.bot.user.id:
            return Player(user.id, user.display_name, bot=True, engine=level)
        return player(user)

    @challenge.autocomplete("variant")
    async def variant_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game = get_game(str(interaction.namespace.game or ""))
        except RulesError:
            return []
        typed = current.strip().lower()
        return limits.choices(
            app_commands.Choice(name=f"{name}: {v.description}", value=name)
            for name, v in game.variants.items()
            if typed in name
        )

    async def accept(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                result = await self.bot.service.challenges.accept(match_id, interaction.user.id)
                match = result.match
                if not result.started:
                    await interaction.edit_original_response(content=challenge_text(match))
                    return
                await interaction.edit_original_response(content=challenge_begins(match), view=None)
                await self.bot.announcer.open_match(match, interaction.message, result.turns)

    async def decline(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                match = await self.bot.service.challenges.decline(match_id, interaction.user.id)
            me = shown(interaction.user.display_name)
            await interaction.edit_original_response(
                content=challenge_declined(match, me), view=None
            )

    async def withdraw(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                match = await self.bot.service.challenges.withdraw(match_id, interaction.user.id)
            me = shown(interaction.user.display_name)
            await interaction.edit_original_response(
                content=challenge_withdrawn(match, me), view=None
            )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Challenges(bot))
