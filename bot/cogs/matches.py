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
from bot.posts.conversations import located
from bot.posts.match_texts import jump_url
from bot.posts.names import safe_name
from bot.service import Match, Waiting
from bot.texts import Text, say, t
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, match_choices, resolve, turns_text, viewer
from bot.ui.persistent import Named

if TYPE_CHECKING:
    from bot.app import BoardBot

FOOTER_ROOM = 200  # characters kept free on each page for the page line and any warning


def listing_line(match: Match, user_id: int) -> Text:
    link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    if match.status == "pending":
        waiting = match.waiting_for
        if any(s.user_id == user_id for s in waiting):
            state = t("answers.matches.your_answer")
        else:
            state = t(
                "answers.matches.waiting_for", names=", ".join(safe_name(s.name) for s in waiting)
            )
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.challenge_message_id)
    else:
        mover = match.to_move
        if mover is None:
            state = t("answers.matches.over")
        elif mover.user_id == user_id:
            state = t("answers.matches.your_move")
        else:
            state = t("answers.matches.to_move", player=safe_name(mover.name))
    where = located(match, user_id, link)
    return t("answers.matches.line", match=safe_name(match.describe()), state=state, link=where)


def needing_line(waiting: Waiting, user_id: int) -> Text:
    """`• Quorum #3: alice vs bob · your move, due <t:..:R> · link`."""
    match = waiting.match
    if match.status == "pending":
        what = t("answers.next.challenge")
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.challenge_message_id)
    else:
        what = t("answers.next.move")
        link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    if waiting.due is not None:
        due = t("answers.next.due", due=waiting.due)
    elif match.status != "pending" and match.row.days_per_move:  # its board is not posted yet
        due = t("answers.next.clock_waits")
    else:
        due = t("posts.no_time_limit")
    described_match = safe_name(match.describe())
    where = located(match, user_id, link)
    return t("answers.next.line", match=described_match, what=what, due=due, link=where)


class Matches(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.guard(Named.MATCH, self.admit)

    @app_commands.command(name="matches", description=described(t("commands.matches.description")))
    @app_commands.describe(page=described(t("commands.matches.options.page")))
    async def matches(self, interaction: Interaction, page: app_commands.Range[int, 1] = 1) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            listing = await self.bot.service.queries.listing(interaction.user.id)
            here = (interaction.guild_id, None)  # a server's matches, and those in DMs
            every = [
                say(listing_line(m, interaction.user.id))
                for m in listing.matches
                if interaction.guild_id is None or m.row.guild_id in here
            ]
            pages = limits.pages(every, limits.CONTENT - FOOTER_ROOM)
            asked, page = page, min(page, len(pages))
            lines = pages[page - 1]
            if not every:
                lines = [say(t("answers.matches.none"))]
            elif page < len(pages):
                more = t("answers.matches.page_more", page=page, pages=len(pages), next=page + 1)
                lines = [*lines, say(more)]
            elif asked > page:
                lines = [*lines, say(t("answers.matches.past_last", asked=asked, pages=page))]
            elif len(pages) > 1:
                lines = [*lines, say(t("answers.matches.page", page=page, pages=len(pages)))]
            if listing.unreadable:
                lines.append(say(t("answers.matches.damaged", count=listing.unreadable)))
            text = limits.content("\n".join(lines))
            await interaction.followup.send(text, ephemeral=True, suppress_embeds=True)

    @app_commands.command(name="next", description=described(t("commands.next.description")))
    async def next(self, interaction: Interaction) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            waiting = await self.bot.service.queries.needing(interaction.user.id)
            lines = [say(needing_line(w, interaction.user.id)) for w in waiting]
            if not lines:
                lines = [say(t("answers.next.nothing"))]
            page = limits.pages(lines, limits.CONTENT - FOOTER_ROOM)[0]
            if len(page) < len(lines):
                page = [*page, say(t("answers.next.more", more=len(lines) - len(page)))]
            await interaction.followup.send(
                limits.content("\n".join(page)), ephemeral=True, suppress_embeds=True
            )

    @app_commands.command(name="record", description=described(t("commands.record.description")))
    @app_commands.describe(match=described(t("commands.options.match")))
    @app_commands.autocomplete(match=match_choices)
    async def record(self, interaction: Interaction, match: str | None = None) -> None:
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await resolve(interaction, match, recent=True)
            record = await self.bot.service.queries.record(found.id)
            data = io.BytesIO(record.to_text(say).encode("utf-8"))
            turns, described_match = turns_text(found), safe_name(found.describe())
            if found.outcome:
                outcome = found.describe_outcome()
                sent = t(
                    "answers.record.sent_over", match=described_match, turns=turns, outcome=outcome
                )
            else:
                sent = t("answers.record.sent", match=described_match, turns=turns)
            await interaction.followup.send(
                say(sent),
                file=discord.File(
                    data,
                    filename=f"{found.game.name}-{found.id}.txt",
                    description=say(t("answers.record.file", match=described_match)),
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
