"""/leaderboard, /profile, /history and /replay: looking back at rated and finished matches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import GAME_CHOICES
from bot.posts import limits
from bot.posts.analyst import turn_evaluation
from bot.posts.match_texts import describe_turns, jump_url, mention, shown
from bot.service import Turn, Viewer
from bot.service import rating_model as ratings
from bot.service.ratings import Leaderboard, reason_of, result_for
from bot.store import MatchRow, RatingRow
from bot.ui.interface import Interaction, answering, match_choices, resolve, viewer
from bot.ui.views import HistoryButton, ReplayButton, history_view, replay_view
from rules import get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

HISTORY_PAGE = 10  # matches per /history page
RATING_NOTE = "-# The rating is openskill's conservative estimate (mu - 3 sigma); it starts at 0."


def history_line(row: MatchRow, user_id: int) -> str:
    """`Quorum #3 vs bob: **won** (resignation) · link`, for histories and profiles."""
    others = " and ".join(shown(s.name) for s in row.seats if s.user_id != user_id)
    where = row.thread_id or row.channel_id
    link = jump_url(row.guild_id, where, row.board_message_id)
    result = result_for(row, user_id)
    rated = "" if row.rated else ", unrated"
    return (
        f"{get_game(row.game).title} #{row.id} vs {others}: **{result}** "
        f"({reason_of(row)}{rated}) · {link}"
    )


def standing_line(standing: RatingRow) -> str:
    return (
        f"**{ratings.shown(standing)}** · {standing.games} game{'s' * (standing.games != 1)} · "
        f"{ratings.record(standing)}"
    )


def leaderboard_embed(board: Leaderboard, user_id: int) -> discord.Embed:
    title = get_game(board.game).title
    lines = [
        f"{place}. {mention(standing.user_id)} · {standing_line(standing)}"
        for place, standing in enumerate(board.top, start=1)
    ]
    if not lines:
        lines = [f"No rated {title} match has finished here yet. Play one with /challenge."]
    if board.mine is None:
        lines += ["", f"You have no {title} rating here yet."]
    else:
        rank, standing = board.mine
        lines += ["", f"You: #{rank} · {standing_line(standing)}"]
    return limits.embed(f"{title} leaderboard", "\n".join([*lines, RATING_NOTE]))


class Standings(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.on(
            HistoryButton,
            lambda interaction, button: self.history_page(
                interaction, button.user_id, button.game, button.page
            ),
        )
        bot.clicks.on(
            ReplayButton,
            lambda interaction, button: self.replay_step(interaction, button.match_id, button.ply),
        )

    @app_commands.command(name="leaderboard", description="The server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            board = await self.bot.service.ratings.leaderboard(
                interaction.guild_id or 0, game, interaction.user.id
            )
            embed = leaderboard_embed(board, interaction.user.id)
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="profile", description="A player's ratings, matches and results")
    @app_commands.describe(user="Whose profile (default: yours)")
    @app_commands.guild_only()
    async def profile(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            who = user or interaction.user
            found = await self.bot.service.ratings.profile(viewer(interaction), who.id)
            fields = [
                (
                    get_game(standing.game).title,
                    f"{standing_line(standing)} · streak: {ratings.streak(standing)}",
                )
                for standing in found.standings
            ]
            current = [
                f"{shown(match.describe())} · "
                f"{jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)}"
                for match in found.current
            ]
            fields.append(("Current matches", "\n".join(current) or "none"))
            recent = [history_line(row, who.id) for row in found.recent]
            fields.append(("Last results", "\n".join(recent) or "none yet"))
            summary = f"{mention(who.id)}'s games on this server."
            if not found.standings:
                summary += " No rated match has finished yet."
            embed = limits.embed(
                f"{shown(who.display_name)}'s profile", f"{summary}\n{RATING_NOTE}", fields
            )
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="Finished matches, newest first")
    @app_commands.describe(user="Whose matches (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(
        self,
        interaction: Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            who = (user or interaction.user).id
            embed, view = await self._history(viewer(interaction), who, game, 1)
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)

    async def history_page(
        self, interaction: Interaction, user_id: int, game: str | None, page: int
    ) -> None:
        """A history's ◀ ▶ button: the page it names, in place."""
        async with answering(interaction):
            await interaction.response.defer()
            embed, view = await self._history(viewer(interaction), user_id, game, page)
            await interaction.edit_original_response(embed=embed, view=view)

    async def _history(
        self, seen_by: Viewer, user_id: int, game: str | None, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        found = await self.bot.service.ratings.history(
            seen_by, user_id, game, page=page, per_page=HISTORY_PAGE
        )
        which = f"{get_game(game).title} matches" if game else "matches"
        lines = [f"{mention(user_id)}'s finished {which}, newest first:"]
        lines += [f"• {history_line(row, user_id)}" for row in found.rows] or ["none yet"]
        lines.append(f"-# Page {found.page} of {found.pages} · {found.total} in all.")
        embed = limits.embed("Match history", "\n".join(lines))
        return embed, history_view(user_id, game, found.page, found.pages)

    @app_commands.command(name="replay", description="Step through a match, turn by turn")
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def replay(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            text, file, view = await self._replay(found.id, None, interaction.user.id)
            await interaction.followup.send(text, file=file, view=view, ephemeral=True)

    async def replay_step(self, interaction: Interaction, match_id: int, ply: int) -> None:
        """A replay's ◀ ▶ button: the position it names, in place."""
        async with answering(interaction):
            await interaction.response.defer()
            text, file, view = await self._replay(match_id, ply, interaction.user.id)
            await interaction.edit_original_response(content=text, attachments=[file], view=view)

    async def _replay(
        self, match_id: int, ply: int | None, viewer: int
    ) -> tuple[str, discord.File, discord.ui.View]:
        """The text, board and buttons of one position (the last when `ply` is None), drawn
        as the viewer sees boards."""
        replay = await self.bot.service.ratings.positions(match_id)
        match, last = replay.match, len(replay.states) - 1
        ply = last if ply is None else min(max(ply, 0), last)
        lines = [f"**{shown(match.describe())}** · turn {ply} of {last}"]
        if ply == 0:
            lines.append("The setup.")
        else:
            notation = replay.turns[ply - 1]
            seat = int(notation.split()[1]) if notation.startswith("resign") else None
            seat = seat or match.game.to_move(replay.states[ply - 1])
            lines += describe_turns(match, [Turn(seat, match.at(seat).user_id, notation)])
        if ply == last and match.outcome is not None:
            lines.append(f"Game over: {shown(match.describe_outcome())}.")
        analysis = await self.bot.service.analyses.result(match_id, replay)
        if analysis is not None:
            lines.append(turn_evaluation(analysis, ply))
        view = await self.bot.service.settings.private_view(match, viewer)
        file = await self.bot.announcer.board_file(match, view, ply, replay.states[ply])
        return limits.content("\n".join(lines)), file, replay_view(match_id, ply, last)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Standings(bot))
