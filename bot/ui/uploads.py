"""A file a member attached to a command, read: checked for size before it is downloaded,
parsed off the event loop (bot.records knows the formats, not Discord); and an uploaded
record studied for `/analysis record:<file>`."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.posts import limits
from bot.posts.analyst import dots, summary_line
from bot.posts.names import safe_name
from bot.posts.pictures import picture_words
from bot.records.imports import MAX_BYTES, RecordError, Study, read_position, read_record
from bot.records.study import Studied, analyse
from bot.service.analysis import Analyses
from bot.service.matches import ServiceError
from bot.texts import say, t
from bot.ui.interface import Interaction
from renderers import PictureWords
from renderers.graph import graph_png
from rules import Game
from rules.outcomes import described


async def download(attachment: discord.Attachment) -> bytes:
    if attachment.size > MAX_BYTES:
        raise RecordError(
            t("records.bad.too_large", size=attachment.size // 1024, limit=MAX_BYTES // 1024)
        )
    return await attachment.read()


async def read_attached(game: Game[Any, Any], attachment: discord.Attachment) -> Any:
    """The position of `game` an attached diagram or record gives (a record is replayed,
    which is CPU work: in a thread)."""
    data = await download(attachment)
    return await asyncio.to_thread(read_position, game, data)


async def study_attached(attachment: discord.Attachment) -> Study:
    """An attached record, read (not yet replayed)."""
    return await asyncio.to_thread(read_record, await download(attachment))


class Studying:
    """`/analysis record:<file>`: the uploaded record judged and summarised for the member
    alone, one upload per member at a time; nothing of it is stored."""

    def __init__(self, analyses: Analyses) -> None:
        self.analyses = analyses
        self._running: set[int] = set()

    async def study(self, interaction: Interaction, attachment: discord.Attachment) -> None:
        user_id = interaction.user.id
        if user_id in self._running:
            raise ServiceError(t("records.study.busy"))
        self._running.add(user_id)
        try:
            study = await study_attached(attachment)
            analyses = self.analyses
            if analyses.read is None:
                raise RuntimeError("no analysis worker is set")
            studied = await analyse(
                study, analyses.read, analyses.seconds, analyses.nodes, asker=user_id
            )
        finally:
            self._running.discard(user_id)
        await interaction.followup.send(
            studied_text(studied),
            file=await asyncio.to_thread(graph_file, studied, picture_words()),
            ephemeral=True,
        )


def studied_text(studied: Studied) -> str:
    """The answer: what was analysed, each player's summary, and the result."""
    game = studied.study.game
    names = [safe_name(name) for name in studied.study.names]
    lines = [t("records.study.title", game=game.title, count=len(studied.judged))]
    lines += [
        t("records.study.player", player=names[s.seat - 1], summary=summary_line(s))
        for s in studied.summaries
    ]
    outcome = game.outcome(studied.states[-1])
    if outcome is not None:
        lines.append(t("records.study.result", outcome=described(outcome, names)))
    return limits.content("\n".join(say(line) for line in lines))


def graph_file(studied: Studied, words: PictureWords) -> discord.File:
    """The win-chance graph (rendered here, in a thread) with its alt text."""
    game, judged = studied.study.game, studied.judged
    png = graph_png(
        [j.chances for j in judged],
        names=studied.study.names,
        words=words,
        dots=dots(judged),
        title=say(t("records.study.graph_title", game=game.title)),
    )
    return discord.File(
        io.BytesIO(png),
        filename=f"{game.name}-study.png",
        description=say(t("records.study.graph_alt", game=game.title)),
    )
