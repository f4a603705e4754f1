"""Every click gets an answer. discord.py drops a press on a component that matches none of
the bot's templates, or that is no longer on its message (a client still showing a message
as it was before an edit removed its buttons); this answers such a press privately, saying
why, and does nothing else. Every component the bot sends is one of `PERSISTENT_ITEMS`.

Such a press passes the same gates as a live one: a match or tournament of another server
reads as one that does not exist, and an id that is garbled, forged or out of range reads
as "this button is out of date"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.texts import say, t
from bot.ui.interface import Interaction, answering, tell, viewer
from bot.ui.persistent import OUT_OF_DATE, Persistent
from bot.ui.views import (
    PERSISTENT_ITEMS,
    AcceptButton,
    DeclineButton,
    HistoryButton,
    JoinButton,
    LeaveButton,
    ReplayButton,
    WithdrawButton,
)

if TYPE_CHECKING:
    from bot.app import BoardBot

CHALLENGE_ITEMS = (AcceptButton, DeclineButton, WithdrawButton)
PAGER_ITEMS = (HistoryButton, ReplayButton)
ENTRY_ITEMS = (JoinButton, LeaveButton)


def recognise(custom_id: str) -> type[Persistent] | None:
    """The component class whose custom_id format this id fits (its values may not be
    sound: see CustomId.parse)."""
    for item in PERSISTENT_ITEMS:
        if item.custom_ids.pattern.fullmatch(custom_id):
            return item
    return None


def on_message(message: discord.Message | None, custom_id: str, kind: int) -> bool:
    """Whether the message, as Discord sent it with the press, still carries the component."""
    for row in message.components if message is not None else ():
        children = row.children if isinstance(row, discord.ActionRow) else [row]
        for child in children:
            if getattr(child, "custom_id", None) == custom_id and child.type.value == kind:
                return True
    return False


class StrayClicks(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        found = recognise(custom_id)
        if found is not None and on_message(
            interaction.message, custom_id, int(data.get("component_type", 0))
        ):
            return  # its DynamicItem answers, a forged or garbled one included
        async with answering(interaction):
            values = None if found is None else found.custom_ids.parse(custom_id)
            if found is None or values is None:
                await tell(interaction, say(OUT_OF_DATE))
                return
            if found in PAGER_ITEMS:
                await tell(interaction, say(t("views.stray.old_page")))
                return
            if found in ENTRY_ITEMS:
                tournaments = self.bot.service.tournaments
                guild_id = interaction.guild_id or 0
                tournament = await tournaments.resolve(guild_id, values["tournament_id"])
                self.bot.service.stale.refuse_entry(tournament)
            await self.bot.service.queries.reach(viewer(interaction), values["match_id"])
            await self.bot.service.stale.refuse(
                values["match_id"], challenge=found in CHALLENGE_ITEMS, ply=values.get("ply")
            )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(StrayClicks(bot))
