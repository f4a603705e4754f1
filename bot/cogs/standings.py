"""/leaderboard, /profile, /history and /replay: looking back at rated and finished matches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import GAME_CHOICES
from bot.posts import limits
from bot.posts.analyst import turn_evaluation
from bot.posts.match_texts import Line, describe_turns, jump_url, mention, worded
from bot.posts.names import safe_name
from bot.service import Turn, Viewer
from bot.service import rating_model as ratings
from bot.service.ratings import Leaderboard, reason_of, result_for
from bot.store import MatchRow, RatingRow
from bot.texts import Text, say, t
from bot.ui.commands_sync import server_only
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve, viewer
from bot.ui.views import HistoryButton, ReplayButton, history_view, replay_view
from rules import get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

HISTORY_PAGE = 10  # matches per /history page
RATING_NOTE = t("answers.standings.rating_note", least=ratings.PROVISIONAL_GAMES)


def history_line(row: MatchRow, user_id: int, locale: str | None = None) -> str:
    """`Quorum #3 vs bob: **won** (resignation) · link`, for histories and profiles."""
    others = say(t("posts.and"), locale).join(
        safe_name(s.name) for s in row.seats if s.user_id != user_id
    )
    where = row.thread_id or row.channel_id
    line = t(
        "answers.standings.history_line" if row.rated else "answers.standings.history_line_unrated",
        game=get_game(row.game).title,
        number=row.id,
        others=others,
        result=result_for(row, user_id),
        reason=reason_of(row),
        link=jump_url(row.guild_id, where, row.board_message_id),
    )
    return say(line, locale)


def standing_line(standing: RatingRow) -> Text:
    return t(
        "answers.standings.standing",
        rating=ratings.shown(standing),
        games=t("answers.standings.games", count=standing.games),
        record=ratings.record(standing),
    )


def leaderboard_embed(board: Leaderboard, user_id: int) -> discord.Embed:
    title = get_game(board.game).title
    lines: list[Line] = [
        t(
            "answers.standings.leaderboard_line",
            place=place,
            player=mention(standing.user_id),
            standing=standing_line(standing),
        )
        for place, standing in enumerate(board.top, start=1)
    ]
    if not lines:
        lines = [t("answers.standings.no_rated_match", game=title)]
    if board.mine is None:
        lines += ["", t("answers.standings.no_rating", game=title)]
    else:
        rank, standing = board.mine
        lines += ["", t("answers.standings.your_rank", rank=rank, standing=standing_line(standing))]
    heading = say(t("answers.standings.leaderboard_title", game=title))
    return limits.embed(heading, worded([*lines, RATING_NOTE]))


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

    @app_commands.command(
        name="leaderboard", description=described(t("commands.leaderboard.description"))
    )
    @app_commands.describe(game=described(t("commands.leaderboard.options.game")))
    @app_commands.choices(game=GAME_CHOICES)
    @server_only
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            board = await self.bot.service.ratings.leaderboard(
                interaction.guild_id or 0, game, interaction.user.id
            )
            embed = leaderboard_embed(board, interaction.user.id)
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="profile", description=described(t("commands.profile.description")))
    @app_commands.describe(user=described(t("commands.profile.options.user")))
    async def profile(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            who = user or interaction.user
            found = await self.bot.service.ratings.profile(viewer(interaction), who.id)
            fields = [
                (
                    get_game(standing.game).title,
                    say(
                        t(
                            "answers.standings.profile_standing",
                            standing=standing_line(standing),
                            streak=ratings.streak(standing),
                        )
                    ),
                )
                for standing in found.standings
            ]
            current = [
                t(
                    "answers.standings.profile_match",
                    match=safe_name(match.describe()),
                    link=jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id),
                )
                for match in found.current
            ]
            none, none_yet = say(t("answers.standings.none")), say(t("answers.standings.none_yet"))
            fields.append((say(t("answers.standings.current_matches")), worded(current) or none))
            recent = [history_line(row, who.id) for row in found.recent]
            fields.append((say(t("answers.standings.last_results")), "\n".join(recent) or none_yet))
            player = mention(who.id)
            if interaction.guild_id is None:  # the Direct messages pool
                summary = (
                    t("places.profile_summary", player=player)
                    if found.standings
                    else t("places.profile_summary_unrated", player=player)
                )
            else:
                summary = (
                    t("answers.standings.profile_summary", player=player)
                    if found.standings
                    else t("answers.standings.profile_summary_unrated", player=player)
                )
            title = t("answers.standings.profile_title", player=safe_name(who.display_name))
            embed = limits.embed(say(title), worded([summary, RATING_NOTE]), fields)
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description=described(t("commands.history.description")))
    @app_commands.describe(
        user=described(t("commands.history.options.user")),
        game=described(t("commands.history.options.game")),
    )
    @app_commands.choices(game=GAME_CHOICES)
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
        player = mention(user_id)
        heading = (
            t("answers.standings.history_heading_game", player=player, game=get_game(game).title)
            if game
            else t("answers.standings.history_heading", player=player)
        )
        rows: list[Line] = [f"• {history_line(row, user_id)}" for row in found.rows]
        lines: list[Line] = [heading, *(rows or [t("answers.standings.none_yet")])]
        page, pages, total = found.page, found.pages, found.total
        lines.append(t("answers.standings.history_page", page=page, pages=pages, total=total))
        embed = limits.embed(say(t("answers.standings.history_title")), worded(lines))
        return embed, history_view(user_id, game, found.page, found.pages)

    @app_commands.command(name="replay", description=described(t("commands.replay.description")))
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
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
        lines: list[Line] = [
            t(
                "answers.standings.replay_heading",
                match=safe_name(match.describe()),
                turn=ply,
                last=last,
            )
        ]
        if ply == 0:
            lines.append(t("answers.standings.setup"))
        else:
            notation = replay.turns[ply - 1]
            seat = int(notation.split()[1]) if notation.startswith("resign") else None
            seat = seat or match.game.to_move(replay.states[ply - 1])
            lines += describe_turns(match, [Turn(seat, match.at(seat).user_id, notation)])
        if ply == last and match.outcome is not None:
            lines.append(t("answers.board.game_over", outcome=match.describe_outcome(safe_name)))
        analysis = await self.bot.service.analyses.result(match_id, replay)
        if analysis is not None:
            lines.append(turn_evaluation(analysis, ply))
        view = await self.bot.service.settings.private_view(match, viewer)
        file = await self.bot.announcer.board_file(match, view, ply, replay.states[ply])
        return limits.content(worded(lines)), file, replay_view(match_id, ply, last)


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Standings(bot))
