"""/move with autocomplete, /board, and the guided picker behind each board's Move button."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import limits
from bot.interface import Interaction, answering, match_choices, resolve, tell
from bot.notifications import jump_url
from bot.service import Match, MatchService, ServiceError
from bot.views import PickerView, board_view

if TYPE_CHECKING:
    from bot.app import BoardBot


class Moves(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @app_commands.command(name="move", description="Make your move")
    @app_commands.describe(
        move="Your move in the game's notation (suggestions appear as you type)",
        match="Which match (not needed inside a match thread)",
    )
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def move(self, interaction: Interaction, move: str, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            await tell(interaction, await self._play(interaction, found.id, move))

    @move.autocomplete("move")
    async def move_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            found = await resolve(interaction, interaction.namespace.match)
        except ServiceError:
            return []
        return limits.choices(
            app_commands.Choice(name=text, value=text)
            for text in self.service.suggestions(found, current)
        )

    @app_commands.command(name="board", description="Show a match's current board (to you)")
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def board(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            played = found.row.ply
            lines = [f"**{found.describe()}** · {played} turn{'' if played == 1 else 's'} played"]
            mover = found.to_move
            if mover is not None:
                lines.append(f"{mover.name} to move ({found.game.seat_name(mover.seat)}).")
                deadline = await self.service.deadline(found)
                if deadline is not None:
                    lines.append(f"Deadline: <t:{deadline}:R>.")
            elif found.outcome is not None:
                lines.append(f"Game over: {found.describe_outcome()}.")
            else:
                waiting = ", ".join(s.name for s in found.waiting_for)
                lines.append(f"Not started: waiting for {waiting}.")
            mine = mover is not None and mover.user_id == interaction.user.id
            await interaction.followup.send(
                limits.content("\n".join(lines)),
                file=await self.bot.announcer.board_file(found),
                ephemeral=True,
                view=board_view(found.id) if mine else MISSING,
            )

    async def open_picker(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = self.service.require_turn(await self.service.get(match_id), interaction.user.id)
            picker = self._picker(found, interaction.user.id)
            await interaction.followup.send(picker.text(), view=picker, ephemeral=True)

    @staticmethod
    def _picker(found: Match, user_id: int) -> PickerView:
        game, state = found.game, found.state
        notation = {m: game.format_move(state, m) for m in game.legal_moves(state)}
        side = game.seat_name(game.to_move(state))
        heading = f"**{found.title}**: your move as {side}."
        return PickerView(found.id, user_id, heading, game.move_tree(state), notation)

    async def play(self, interaction: Interaction, match_id: int, notation: str) -> None:
        """The picker's Play button: the same path as /move, answered in the picker."""
        async with answering(interaction):
            await interaction.response.defer()
            done = await self._play(interaction, match_id, notation)
            await interaction.edit_original_response(content=done, view=None)

    async def _play(self, interaction: Interaction, match_id: int, text: str) -> str:
        """Play, post the new board, and say so (with a link when the board is elsewhere)."""
        async with self.service.lock(match_id):
            result = await self.service.move(match_id, interaction.user.id, text)
            board = await self.bot.announcer.after_turns(result.match, result.turns)
        found = result.match
        done = f"You played **{result.turns[0].notation}** in {found.title}."
        if interaction.channel_id != found.channel_id:
            done += f" Board: {jump_url(found.row.guild_id, found.channel_id, board.id)}"
        return done


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Moves(bot))
