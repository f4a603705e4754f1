"""/settings (a member's preferences and vacation days left) and /server settings (a
server's defaults), stored."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import DAYS_CHOICES
from bot.posts.match_texts import days_left, mention
from bot.posts.notifications import pinging
from bot.service.settings import ORIENTATIONS, describe_server
from bot.store import PreferenceRow
from bot.ui.interface import Interaction, answering, tell
from renderers import THEMES

if TYPE_CHECKING:
    from bot.app import BoardBot

SWITCH: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
]
FLIP: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="auto: from my side in my matches", value="auto"),
    app_commands.Choice(name="off: the first player's side always", value="off"),
]
THEME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=name, value=name) for name in THEMES
]
ORIENTATION_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=words, value=name) for name, words in ORIENTATIONS.items()
]


class TextChannelOption(app_commands.Transformer[Any]):
    """A text channel as Discord resolved it: unlike a discord.TextChannel option, it needs
    no cache of the server's channels (this bot asks for none)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(
        self, interaction: Interaction, value: Any, /
    ) -> app_commands.AppCommandChannel:
        return cast(app_commands.AppCommandChannel, value)  # `channel_types` allow no thread


def dm_line(mine: PreferenceRow) -> str:
    if not mine.dm:
        return "Direct messages: **off**. You are mentioned in the match thread."
    if mine.dm_refused:
        return (
            "Direct messages: **on**, but Discord refused the last one, so you are "
            "mentioned in the match thread. Open your DMs, then run `/settings dm:on`."
        )
    return (
        "Direct messages: **on**. Your turns and reminders come by DM, "
        "with the board and a link to the thread."
    )


def board_lines(mine: PreferenceRow) -> list[str]:
    side = (
        "**auto**: your matches from your side, others from the first player's"
        if mine.flip
        else "**off**: always from the first player's side"
    )
    return [
        f"Theme of the boards shown to you and sent to you: **{mine.theme or 'classic'}**.",
        f"Board orientation: {side}.",
    ]


class Settings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Your preferences (leave empty to see them)")
    @app_commands.describe(
        dm="Direct message me when it is my turn and for reminders, with the board and a link",
        theme="The colours of the boards shown and sent to you",
        flip="Boards of your matches drawn from your side (auto) or the first player's (off)",
    )
    @app_commands.choices(dm=SWITCH, theme=THEME_CHOICES, flip=FLIP)
    async def settings(
        self,
        interaction: Interaction,
        dm: str | None = None,
        theme: str | None = None,
        flip: str | None = None,
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            user_id = interaction.user.id
            if dm is not None:
                await self.bot.service.store.set_dm(user_id, dm == "on")
            if theme is not None or flip is not None:
                chosen = None if flip is None else flip == "auto"
                await self.bot.service.settings.set_person(user_id, theme=theme, flip=chosen)
            mine = await self.bot.service.settings.person(user_id)
            changed = "Saved. " if (dm, theme, flip) != (None, None, None) else ""
            vacation = await self.bot.service.vacations.state(user_id)
            away = vacation.current
            on_it = f"On vacation until <t:{away.ends_at}:f>. " if away is not None else ""
            lines = [f"{changed}{dm_line(mine)}", *board_lines(mine)]
            lines.append(f"Vacation: {on_it}{days_left(vacation)}.")
            how = "`/settings dm:on|off theme:classic|dark|high-contrast flip:auto|off`"
            await tell(interaction, "\n".join([*lines, f"-# Change them with {how}."]))

    server = app_commands.Group(
        name="server",
        description="This server's settings (for members who may manage the server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @server.command(name="settings", description="Show or change this server's defaults")
    @app_commands.describe(
        theme="The colours of boards posted in match threads",
        orientation="Whose side is at the bottom of boards posted in match threads",
        days="Days per move when a challenge does not say",
        games="The games that may be challenged: names separated by commas, or all",
        channel="The channel where challenges are made",
        anywhere="Allow challenges in any channel again",
    )
    @app_commands.choices(theme=THEME_CHOICES, orientation=ORIENTATION_CHOICES)
    @app_commands.choices(days=DAYS_CHOICES)
    async def server_settings(
        self,
        interaction: Interaction,
        theme: str | None = None,
        orientation: str | None = None,
        days: int | None = None,
        games: str | None = None,
        channel: app_commands.Transform[
            app_commands.AppCommandChannel | None, TextChannelOption
        ] = None,
        anywhere: bool = False,
    ) -> None:
        """Shown privately; a change is said publicly where it was made, so it is on record."""
        async with answering(interaction):
            change = await self.bot.service.settings.change_server(
                interaction.guild_id,
                manager=interaction.permissions.manage_guild,
                theme=theme,
                orientation=orientation,
                days=days,
                games=games,
                channel_id=channel.id if channel is not None else None,
                anywhere=anywhere,
            )
            if not change.changes:
                lines = ["**This server's settings**", *describe_server(change.settings)]
                lines.append("-# Change them with the options of `/server settings`.")
                await tell(interaction, "\n".join(lines))
                return
            who = mention(interaction.user.id)
            text = "\n".join(
                [f"{who} changed this server's settings:", *(f"• {c}" for c in change.changes)]
            )
            await interaction.response.send_message(text, allowed_mentions=pinging())


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Settings(bot))
