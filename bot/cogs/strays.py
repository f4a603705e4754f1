"""Every click gets an answer. discord.py drops a press on a component that matches none of
the bot's templates, or that is no longer on its message (a client still showing a message
as it was before an edit removed its buttons); this answers such a press privately, saying
why, and does nothing else. Every component the bot sends is one of `PERSISTENT_ITEMS`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.texts import say, t
from bot.ui.interface import Interaction, answering, tell
from bot.ui.persistent import Persistent
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


def recognise(custom_id: str) -> tuple[type[Persistent], dict[str, Any]] | None:
    """The component class whose custom_id format this id fits, with the values it carries."""
    for item in PERSISTENT_ITEMS:
        values = item.custom_ids.parse(custom_id)
        if values is not None:
            return item, values
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
            return  # its DynamicItem answers
        async with answering(interaction):
            if found is None:
                await tell(interaction, say(t("views.stray.unknown")))
                return
            item, values = found
            if item in PAGER_ITEMS:
                await tell(interaction, say(t("views.stray.old_page")))
                return
            if item in ENTRY_ITEMS:
                await tell(interaction, say(t("views.stray.entries_closed")))
                return
            await self.bot.service.stale.refuse(
                values["match_id"], challenge=item in CHALLENGE_ITEMS, ply=values.get("ply")
            )


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(StrayClicks(bot))
