"""/move with autocomplete, /board, and the guided picker behind each board's Move button."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.posts import limits
from bot.posts.clock_texts import banks_line, repetition_line
from bot.posts.match_texts import Line, deadline_line, on_vacation, worded
from bot.posts.names import safe_name
from bot.service import Match, MatchService, OutOfDate, PickerStep, ServiceError, TooComplex
from bot.service.matches import status_of
from bot.store import Status
from bot.texts import Text, say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, explain, match_choices, resolve, turns_text
from bot.ui.views import (
    KeepButton,
    MoveButton,
    PickBack,
    PickGroup,
    PickPlay,
    PickSelect,
    board_view,
    confirm_view,
    picker_message,
)

if TYPE_CHECKING:
    from bot.app import BoardBot


class Moves(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        clicks = bot.clicks
        clicks.on(
            MoveButton, lambda interaction, button: self.open_picker(interaction, button.match_id)
        )
        clicks.on(
            PickSelect,
            lambda interaction, menu: self.pick(
                interaction, menu.match_id, menu.ply, menu.path, menu.chosen
            ),
        )
        clicks.on(
            PickGroup,
            lambda interaction, menu: self.pick(
                interaction, menu.match_id, menu.ply, menu.path, None, menu.chosen
            ),
        )
        clicks.on(
            PickPlay,
            lambda interaction, button: self.play_picked(
                interaction, button.match_id, button.ply, button.path
            ),
        )
        clicks.on(KeepButton, lambda interaction, button: self.keep(interaction))
        clicks.on(
            PickBack,
            lambda interaction, button: self.pick(
                interaction, button.match_id, button.ply, button.path[:-1], None
            ),
        )

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @app_commands.command(name="move", description=described(t("commands.move.description")))
    @app_commands.describe(
        move=described(t("commands.move.options.move")),
        match=described(t("commands.options.match")),
    )
    @app_commands.autocomplete(match=match_choices)
    async def move(self, interaction: Interaction, move: str, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match)
            if (await self.service.settings.habits(interaction.user.id)).confirm:
                await self._confirm(interaction, found, move)
                return
            await self._play(found.id, interaction.user.id, move)
            await interaction.delete_original_response()  # the thread says it: no private note

    @move.autocomplete("move")
    async def move_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            found = await resolve(interaction, interaction.namespace.match)
            offered = await self.service.queries.suggest(found, current)
        except TooComplex as error:
            # Choosing this sends what was typed, which /move then checks in full.
            why = say(t("answers.move.too_complex", why=explain(error)))
            return limits.choices([app_commands.Choice(name=why, value=current)])
        except ServiceError:
            return []
        return limits.choices(app_commands.Choice(name=text, value=text) for text in offered)

    @app_commands.command(name="board", description=described(t("commands.board.description")))
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    async def board(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            heading = t(
                "answers.board.heading", match=safe_name(found.describe()), turns=turns_text(found)
            )
            lines: list[Line] = [heading]
            mover = found.to_move
            waits = False  # the clock of the player to move, until their board is posted
            if mover is not None:
                side = found.game.seat_phrase(mover.seat)
                lines.append(t("posts.to_move", player=safe_name(mover.name), side=side))
                deadline = await self.service.deadlines.deadline(found)
                if deadline is not None:
                    lines.append(deadline_line(deadline))
                elif found.row.days_per_move:
                    waits = True
                    lines.append(t("delivery.clock_waits"))
            elif found.outcome is not None:
                outcome = found.describe_outcome(safe_name)
                lines.append(t("answers.board.game_over", outcome=outcome))
            elif found.status == Status.PENDING:
                waiting = ", ".join(safe_name(s.name) for s in found.waiting_for)
                lines.append(t("answers.board.not_started", names=waiting))
            else:  # aborted, or a challenge declined or withdrawn
                lines.append(t("answers.board.ended", status=status_of(found)))
            lines += on_vacation(await self.service.vacations.away(found)) if mover else []
            recent = await self.service.queries.recent_moves(found)
            if recent:
                played = "  ".join(f"{ply}. {notation}" for ply, notation in recent)
                lines.append(t("answers.board.last_moves", moves=played))
            left = await self.service.timing.left(found)
            if waits:
                left = [replace(held, running=False, paused=False) for held in left]
            lines += [banks_line(left), repetition_line(found)]
            note = await self.service.notes.read(found, interaction.user.id)
            lines += [t("clocks.note.yours", text=note)] if note else []
            mine = mover is not None and mover.user_id == interaction.user.id
            await interaction.followup.send(
                limits.content(worded([line for line in lines if line])),
                file=await self.bot.announcer.private_board(found, interaction.user.id),
                ephemeral=True,
                view=board_view(found.id) if mine else MISSING,
            )

    async def open_picker(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            step = await self.service.picker.step(match_id, interaction.user.id)
            text, view = picker_message(step, say(_heading(step)))
            board = await self.bot.announcer.private_board(step.match, interaction.user.id)
            await interaction.followup.send(text, file=board, view=view, ephemeral=True)

    async def pick(
        self,
        interaction: Interaction,
        match_id: int,
        ply: int,
        path: tuple[int, ...],
        token: str | None,
        letter: str | None = None,
    ) -> None:
        """A choice (or Back, or a letter of squares) in the picker: the picker shows the
        next step (or the letter's squares) in place."""
        async with answering(interaction):
            await interaction.response.defer()
            try:
                step = await self.service.picker.step(
                    match_id, interaction.user.id, ply, path, token
                )
            except OutOfDate as stale:
                await self._refresh_picker(interaction, match_id, stale)
                return
            text, view = picker_message(step, say(_heading(step)), letter)
            await interaction.edit_original_response(content=text, view=view)

    async def play_picked(
        self, interaction: Interaction, match_id: int, ply: int, path: tuple[int, ...]
    ) -> None:
        """The picker's Play button: the same path as /move, answered in the picker."""
        async with answering(interaction):
            await interaction.response.defer()
            try:
                step = await self.service.picker.step(match_id, interaction.user.id, ply, path)
            except OutOfDate as stale:
                await self._refresh_picker(interaction, match_id, stale)
                return
            if step.move is None:
                raise ServiceError(
                    t("answers.picker.not_whole_move"), t("answers.picker.pick_next")
                )
            await self._play(match_id, interaction.user.id, step.move)
            await interaction.delete_original_response()  # the thread says it: the picker goes

    async def _refresh_picker(
        self, interaction: Interaction, match_id: int, stale: OutOfDate
    ) -> None:
        """Say the picker is out of date and show a fresh one in its place (or, when it is no
        longer this member's turn, why not)."""
        try:
            step = await self.service.picker.step(match_id, interaction.user.id)
        except ServiceError as error:
            await interaction.edit_original_response(
                content=f"{explain(stale)}\n{explain(error)}", view=None
            )
            return
        fresh = t("answers.picker.fresh", stale=explain(stale), heading=_heading(step))
        text, view = picker_message(step, say(fresh))
        await interaction.edit_original_response(content=text, view=view)

    async def keep(self, interaction: Interaction) -> None:
        """Cancel under a typed move shown first: it goes, and nothing is played."""
        async with answering(interaction):
            await interaction.response.edit_message(
                content=say(t("views.cancelled")), view=None, attachments=[]
            )

    async def _confirm(self, interaction: Interaction, found: Match, text: str) -> None:
        """Show the typed move's board to its player alone, with Play and Cancel."""
        user_id = interaction.user.id
        preview = await self.service.confirming.preview(found.id, user_id, text)
        move, ply = preview.notation, found.row.ply
        view = confirm_view(found.id, ply, preview.positions, move)
        heading = t("clocks.confirm.heading", move=move, match=safe_name(found.describe()))
        lines: list[Line] = [heading]
        if not any(isinstance(item, PickPlay) for item in view.children):
            lines.append(t("clocks.confirm.too_long"))
        seen = await self.service.settings.private_view(found, user_id)
        board = await self.bot.announcer.board_file(found, seen, ply + 1, preview.state)
        await interaction.followup.send(
            limits.content(worded(lines)), file=board, view=view, ephemeral=True
        )

    async def _play(self, match_id: int, user_id: int, text: str) -> None:
        """Play and post the new board: with the computer's reply when it is to answer (one
        board for the pair)."""
        async with self.service.cache.lock(match_id):
            result = await self.service.turns.move(match_id, user_id, text)
            mover = result.match.to_move
            answered = mover is not None and mover.engine is not None
            if not answered:
                await self.bot.announcer.after_turns(result.match, result.turns)
        if answered:
            await self.bot.computer.reply(result.match, result.turns)


def _heading(step: PickerStep) -> Text:
    match = step.match
    side = match.game.seat_phrase(match.game.to_move(match.state))
    return t("answers.picker.heading", match=match.title, side=side)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Moves(bot))
