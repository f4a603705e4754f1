"""/settings (a member's preferences and vacation days left) and /server settings (a
server's defaults), stored."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import DAYS_CHOICES
from bot.posts import limits
from bot.posts.match_texts import Line, days_left, mention, worded
from bot.posts.notifications import pinging
from bot.service.clocks import zone_names
from bot.service.settings import (
    BOARD_SIZES,
    LANGUAGE_NAMES,
    ORIENTATIONS,
    SERVER_OWN,
    describe_server,
    spoken,
)
from bot.store import HabitRow, PreferenceRow
from bot.texts import Text, say, speaking, t
from bot.ui.commands_sync import SERVER_INSTALL, SERVERS
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, tell
from renderers import THEMES

if TYPE_CHECKING:
    from bot.app import BoardBot

SWITCH: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(t("commands.choices.on")), value="on"),
    app_commands.Choice(name=described(t("commands.choices.off")), value="off"),
]
FLIP: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(t("commands.choices.flip_auto")), value="auto"),
    app_commands.Choice(name=described(t("commands.choices.flip_off")), value="off"),
]
THEME_NAMES = {  # renderers.THEMES's names, in words
    "classic": t("commands.choices.classic"),
    "dark": t("commands.choices.dark"),
    "high-contrast": t("commands.choices.high_contrast"),
}
THEME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(THEME_NAMES[name]), value=name) for name in THEMES
]
ORIENTATION_NAMES = {  # service.settings.ORIENTATIONS's names, in words
    "first": t("commands.choices.first_at_bottom"),
    "mover": t("commands.choices.mover_at_bottom"),
}
BOARD_NAMES = {  # service.settings.BOARD_SIZES, in words
    "normal": t("boardsize.normal"),
    "large": t("boardsize.large"),
}
BOARD_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(BOARD_NAMES[name]), value=name) for name in BOARD_SIZES
]
ZONES = zone_names()  # read once: the list does not change while the bot runs
ORIENTATION_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(ORIENTATION_NAMES[name]), value=name)
    for name in ORIENTATIONS
]

LANGUAGE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=described(t("languages.choice_own")), value=SERVER_OWN),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
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


def dm_line(mine: PreferenceRow) -> Text:
    if not mine.dm:
        return t("answers.settings.dm_off")
    if mine.dm_refused:
        return t("answers.settings.dm_refused")
    return t("answers.settings.dm_on")


def board_lines(mine: PreferenceRow) -> list[Text]:
    return [
        t("answers.settings.theme", theme=THEME_NAMES[mine.theme or "classic"]),
        t("answers.settings.flip_auto") if mine.flip else t("answers.settings.flip_off"),
        t("boardsize.shown_large") if mine.large else t("boardsize.shown_normal"),
    ]


def habit_lines(habits: HabitRow) -> list[Text]:
    zone = habits.time_zone
    return [
        t("clocks.zone.current", zone=zone) if zone else t("clocks.zone.utc"),
        t("clocks.zone.confirm_on") if habits.confirm else t("clocks.zone.confirm_off"),
    ]


class Settings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description=described(t("commands.settings.description"))
    )
    @app_commands.describe(
        dm=described(t("commands.settings.options.dm")),
        theme=described(t("commands.settings.options.theme")),
        flip=described(t("commands.settings.options.flip")),
        timezone=described(t("clocks.commands.timezone")),
        confirm=described(t("clocks.commands.confirm")),
        board=described(t("boardsize.option")),
    )
    @app_commands.choices(dm=SWITCH, theme=THEME_CHOICES, flip=FLIP, board=BOARD_CHOICES)
    @app_commands.choices(confirm=SWITCH)
    async def settings(
        self,
        interaction: Interaction,
        dm: str | None = None,
        theme: str | None = None,
        flip: str | None = None,
        timezone: str | None = None,
        confirm: str | None = None,
        board: str | None = None,
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            user_id = interaction.user.id
            wanted = None if confirm is None else confirm == "on"
            habits = await self.bot.service.settings.set_habits(
                user_id, time_zone=timezone, confirm=wanted
            )
            if dm is not None:
                await self.bot.service.store.set_dm(user_id, dm == "on")
            if theme is not None or flip is not None or board is not None:
                chosen = None if flip is None else flip == "auto"
                await self.bot.service.settings.set_person(
                    user_id, theme=theme, flip=chosen, board=board
                )
            mine = await self.bot.service.settings.person(user_id)
            changed = (dm, theme, flip, timezone, confirm, board) != (None,) * 6
            dms = t("answers.settings.saved", line=dm_line(mine)) if changed else dm_line(mine)
            vacation = await self.bot.service.vacations.state(user_id)
            away, left = vacation.current, days_left(vacation)
            lines: list[Line] = [dms, *board_lines(mine), *habit_lines(habits)]
            if away is None:
                lines.append(t("answers.settings.vacation", days_left=left))
            else:
                until = away.ends_at
                lines.append(t("answers.settings.vacation_away", until=until, days_left=left))
            await tell(interaction, worded([*lines, t("answers.settings.change")]))

    @settings.autocomplete("timezone")
    async def zone_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower().replace(" ", "_")
        return limits.choices(
            app_commands.Choice(name=name, value=name) for name in ZONES if typed in name.lower()
        )

    server = app_commands.Group(
        name="server",
        description=described(t("commands.server.description")),
        guild_only=True,
        allowed_contexts=SERVERS,
        allowed_installs=SERVER_INSTALL,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @server.command(
        name="settings", description=described(t("commands.server.settings.description"))
    )
    @app_commands.describe(
        theme=described(t("commands.server.settings.options.theme")),
        orientation=described(t("commands.server.settings.options.orientation")),
        days=described(t("commands.server.settings.options.days")),
        games=described(t("commands.server.settings.options.games")),
        channel=described(t("commands.server.settings.options.channel")),
        anywhere=described(t("commands.server.settings.options.anywhere")),
        language=described(t("languages.option")),
    )
    @app_commands.choices(theme=THEME_CHOICES, orientation=ORIENTATION_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
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
        language: str | None = None,
    ) -> None:
        """Shown privately; a change is said publicly where it was made, so it is on record,
        in the server's language (as changed)."""
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
                language=language,
            )
            if not change.changes:
                heading, how = t("answers.server.heading"), t("answers.server.change")
                await tell(interaction, worded([heading, *describe_server(change.settings), how]))
                return
            changed = t("answers.server.changed", player=mention(interaction.user.id))
            with speaking(spoken(change.settings)):
                text = worded([changed, *(f"• {say(c)}" for c in change.changes)])
            await interaction.response.send_message(text, allowed_mentions=pinging())


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Settings(bot))
