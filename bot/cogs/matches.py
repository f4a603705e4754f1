"""/matches (yours, waiting for you first), /next (what needs you, most urgent first, in
every server), /record (a match's record as a file), and which match a button may act on
where it is clicked."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.posts import limits
from bot.posts.match_texts import jump_url, shown
from bot.service import Match, Waiting
from bot.ui.interface import Interaction, answering, match_choices, resolve, turns_text, viewer

if TYPE_CHECKING:
    from bot.app import BoardBot

FOOTER_ROOM = 200  # characters kept free on each page for the page line and any warning


def listing_line(match: Match, user_id: int) -> str:
    link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    if match.status == "pending":
        waiting = match.waiting_for
        if any(s.user_id == user_id for s in waiting):
            state = "**waiting for your answer**"
        else:
            state = f"waiting for {', '.join(shown(s.name) for s in waiting)}"
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.challenge_message_id)
    else:
        mover = match.to_move
        if mover is not None and mover.user_id == user_id:
            state = "**your move**"
        else:
            state = f"{shown(mover.name)} to move" if mover else "over"
    return f"• {shown(match.describe())} · {state} · {link}"


def needing_line(waiting: Waiting) -> str:
    """`• Quorum #3: alice vs bob · your move, due <t:..:R> · link`."""
    match = waiting.match
    if match.status == "pending":
        what = "your answer to the challenge"
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.challenge_message_id)
    else:
        what = "your move"
        link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    due = f", due <t:{waiting.due}:R>" if waiting.due is not None else ", no time limit"
    return f"• {shown(match.describe())} · {what}{due} · {link}"


class Matches(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.guard(self.admit)

    @app_commands.command(name="matches", description="Your matches, those waiting for you first")
    @app_commands.describe(page="Which page of a long list (default: the first)")
    async def matches(self, interaction: Interaction, page: app_commands.Range[int, 1] = 1) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            listing = await self.bot.service.queries.listing(
                interaction.user.id, interaction.guild_id
            )
            every = [listing_line(m, interaction.user.id) for m in listing.matches]
            pages = limits.pages(every, limits.CONTENT - FOOTER_ROOM)
            page = min(page, len(pages))
            lines = pages[page - 1]
            if not every:
                lines = ["You have no open matches here. Start one with /challenge."]
            elif len(pages) > 1:
                following = f" · `/matches page:{page + 1}` shows more" if page < len(pages) else ""
                lines = [*lines, f"-# Page {page} of {len(pages)}{following}."]
            if listing.unreadable:
                lines.append(
                    f"({listing.unreadable} damaged match(es) could not be shown; "
                    "a server admin can run `python -m bot --check-db`.)"
                )
            text = limits.content("\n".join(lines))
            await interaction.followup.send(text, ephemeral=True, suppress_embeds=True)

    @app_commands.command(
        name="next", description="Your matches waiting for you, in every server, most urgent first"
    )
    async def next(self, interaction: Interaction) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            waiting = await self.bot.service.queries.needing(interaction.user.id)
            lines = [needing_line(w) for w in waiting]
            if not lines:
                lines = ["Nothing waits for you: no move to make, no challenge to answer."]
            page = limits.pages(lines, limits.CONTENT - FOOTER_ROOM)[0]
            if len(page) < len(lines):
                page = [*page, f"-# …and {len(lines) - len(page)} more; /matches lists them."]
            await interaction.followup.send(
                limits.content("\n".join(page)), ephemeral=True, suppress_embeds=True
            )

    @app_commands.command(name="record", description="A match's game record, as a text file")
    @app_commands.describe(match="Which match (not needed inside a match thread)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.guild_only()
    async def record(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            record = await self.bot.service.queries.record(found.id)
            data = io.BytesIO(record.to_text().encode("utf-8"))
            result = f"; game over: {found.describe_outcome()}" if found.outcome else ""
            await interaction.followup.send(
                f"The record of {found.describe()} ({turns_text(found)}{result}).",
                file=discord.File(
                    data,
                    filename=f"{found.game.name}-{found.id}.txt",
                    description=f"The game record of {found.describe()}, a turn per line.",
                ),
                ephemeral=True,
            )

    async def admit(self, interaction: Interaction, match_id: int) -> bool:
        """Whether a button or menu naming this match may act where it was used (each asks
        before its click, see bot.ui.persistent.InMatch); if not, the member is told so, as
        of a match that does not exist."""
        async with answering(interaction):
            await self.bot.service.queries.reach(viewer(interaction), match_id)
            return True
        return False


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Matches(bot))
