"""What a computer analysis posts, in words and pictures, where the match was played: the
progress line (edited as positions are judged), then the win-chance graph with a summary per
player, then the three largest blunders, each beside the better move. Every picture is drawn
off the event loop and carries alt text made here from the rules' words. Also each turn's
evaluation, which /replay shows once a match is analysed.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from ai.analysis import THRESHOLDS, Judgement, Mark, Summary
from bot.posts import limits
from bot.service import Match, MatchService
from bot.service.analysis import Analysis, Progress
from bot.texts import say
from renderers import render_comparison
from renderers.graph import Dot, graph_png

log = logging.getLogger(__name__)

BLUNDER_BOARDS = 3  # the largest blunders shown on a board
SWINGS = 3  # the largest swings the graph's alt text names
ALT_TEXT = 1024  # characters of an attachment's description


def percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def progress_text(progress: Progress) -> str:
    return (
        f"Analysing {progress.match.title}: {progress.done} of {progress.total} positions "
        "judged by the computer."
    )


def done_text(analysis: Analysis) -> str:
    return (
        f"Computer analysis of {analysis.match.title}: all {len(analysis.judged)} positions "
        "judged. The graph and the turning points follow."
    )


def marks_rule() -> str:
    """The thresholds in words, from the constants (docs/analysis.md)."""
    steps = ", ".join(
        f"{threshold:.0f} {'an' if str(mark)[0] in 'aeiou' else 'a'} {mark}"
        for threshold, mark in reversed(THRESHOLDS)
    )
    return f"Points of win chance a move lost: {steps}. A forced move is never marked."


def summary_line(summary: Summary) -> str:
    counts = (
        (summary.inaccuracies, "inaccuracy", "inaccuracies"),
        (summary.mistakes, "mistake", "mistakes"),
        (summary.blunders, "blunder", "blunders"),
    )
    marks = ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts)
    return (
        f"Accuracy **{summary.accuracy:.0f}** · {marks} · average loss "
        f"{summary.average_loss:.1f} points over {summary.moves} "
        f"move{'' if summary.moves == 1 else 's'}"
    )


def summary_embed(analysis: Analysis) -> discord.Embed:
    match = analysis.match
    fields = [(match.names[s.seat - 1], summary_line(s)) for s in analysis.summaries]
    description = f"{shown_outcome(analysis)}\n-# {marks_rule()}"
    return limits.embed(f"Computer analysis: {match.describe()}", description, fields)


def shown_outcome(analysis: Analysis) -> str:
    return f"Result: {analysis.match.describe_outcome()}."


def graph_alt(analysis: Analysis) -> str:
    """The graph in words: where it starts, its largest swings, where it ends."""
    match, judged = analysis.match, analysis.judged
    names = match.names

    def standing(chances: Sequence[float]) -> str:
        return ", ".join(f"{name} {percent(c)}" for name, c in zip(names, chances, strict=False))

    moves = [(i, j) for i, j in enumerate(judged[:-1]) if j.seat is not None]
    swings = sorted(moves, key=lambda ij: -_swing(judged, ij[0]))[:SWINGS]
    parts = [
        f"Graph of each player's chance to win {match.title}, turn by turn, as the computer "
        f"judged it. At the start: {standing(judged[0].chances)}."
    ]
    for index, judgement in sorted(swings):
        if _swing(judged, index) < 0.05:
            continue
        seat = judgement.seat or 0
        before, after = judgement.chances[seat - 1], judged[index + 1].chances[seat - 1]
        mark = f", {judgement.mark}" if judgement.mark else ""
        parts.append(
            f"Turn {index + 1}, {names[seat - 1]} played {judgement.played}: "
            f"{percent(before)} to {percent(after)}{mark}."
        )
    parts.append(f"At the end: {standing(judged[-1].chances)}. {shown_outcome(analysis)}")
    return limits.clip(" ".join(parts), ALT_TEXT)


def _swing(judged: Sequence[Judgement], index: int) -> float:
    before, after = judged[index].chances, judged[index + 1].chances
    return max(abs(a - b) for a, b in zip(before, after, strict=True))


def dots(judged: Sequence[Judgement]) -> list[Dot]:
    return [
        Dot(index + 1, j.seat, str(j.mark))
        for index, j in enumerate(judged)
        if j.mark is not None and j.seat is not None
    ]


def largest_blunders(judged: Sequence[Judgement]) -> list[int]:
    """The positions of the worst blunders, in the order they were played."""
    blunders = [i for i, j in enumerate(judged) if j.mark is Mark.BLUNDER]
    return sorted(sorted(blunders, key=lambda i: -judged[i].loss)[:BLUNDER_BOARDS])


def turn_evaluation(analysis: Analysis, index: int) -> str:
    """For /replay at position `index`: the chances there and what the move leading to it
    was worth."""
    names, judged = analysis.match.names, analysis.judged
    chances = ", ".join(
        f"{name} {percent(c)}" for name, c in zip(names, judged[index].chances, strict=False)
    )
    lines = [f"Computer's evaluation: {chances}."]
    if index > 0 and judged[index - 1].seat is not None:
        move = judged[index - 1]
        name = names[(move.seat or 1) - 1]
        if move.mark is not None:
            lines.append(
                f"{name}'s {move.played} was {'an' if move.mark is Mark.INACCURACY else 'a'} "
                f"{move.mark} (lost {move.loss:.0f} points); the computer preferred {move.best}."
            )
        elif move.forced:
            lines.append(f"{name}'s {move.played} was forced.")
    return "\n".join(lines)


class Analyst:
    """Posts an analysis's progress and results where its match was played."""

    def __init__(self, client: discord.Client, service: MatchService) -> None:
        self.client = client
        self.service = service

    def _channel(self, match: Match) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(match.channel_id, guild_id=match.row.guild_id)

    async def start(self, progress: Progress) -> discord.Message:
        """The progress message, posted when an analysis is first asked for."""
        channel = self._channel(progress.match)
        return await channel.send(limits.content(progress_text(progress)))

    async def progressed(self, progress: Progress) -> None:
        await self._edit(progress, progress_text(progress))

    async def finished(self, analysis: Analysis) -> None:
        """The graph with the summary, then a board for each of the largest blunders."""
        match = analysis.match
        channel = self._channel(match)
        row = await self.service.cache.store.analysis(match.id)
        if row is not None and row.message_id is not None:
            progress = Progress(match, len(analysis.judged), len(analysis.judged), row.message_id)
            await self._edit(progress, done_text(analysis))
        graph = await asyncio.to_thread(
            graph_png,
            [j.chances for j in analysis.judged],
            names=match.names,
            dots=dots(analysis.judged),
            title=f"{match.describe()}: chance to win",
        )
        name = f"{match.game.name}-{match.id}-analysis.png"
        await channel.send(
            embed=summary_embed(analysis),
            file=discord.File(io.BytesIO(graph), filename=name, description=graph_alt(analysis)),
        )
        for index in largest_blunders(analysis.judged):
            text, file = await self._blunder(analysis, index)
            await channel.send(limits.content(text), file=file)

    async def _edit(self, progress: Progress, text: str) -> None:
        if progress.message_id is None:
            return
        message = self._channel(progress.match).get_partial_message(progress.message_id)
        try:
            await message.edit(content=limits.content(text))
        except discord.HTTPException as error:
            log.info("could not edit the progress of %s: %s", progress.match.title, error)

    async def _blunder(self, analysis: Analysis, index: int) -> tuple[str, discord.File]:
        """A blunder's post: the move played beside the computer's choice, with alt text."""
        match, judgement = analysis.match, analysis.judged[index]
        game, names = match.game, match.names
        state = analysis.replay.states[index]
        seat = judgement.seat or 1
        who = names[seat - 1]
        before = judgement.chances[seat - 1]
        after = analysis.judged[index + 1].chances[seat - 1]
        played_state = analysis.replay.states[index + 1]

        def draw() -> tuple[bytes, str, str]:
            best = game.parse_move(state, judgement.best or "")
            played = game.parse_move(state, judgement.played or "")
            better_state = game.apply(state, best)
            png = render_comparison(
                game.name,
                played_state,
                better_state,
                title=f"Turn {index + 1}: {who} played {judgement.played}, a blunder",
                captions=(
                    f"Played {judgement.played}: {who} {percent(before)} to {percent(after)}",
                    f"Better: {judgement.best}",
                ),
                names=names,
            )
            return (
                png,
                say(game.describe_move(state, played, names)),
                say(game.describe_move(state, best, names)),
            )

        png, played_words, better_words = await asyncio.to_thread(draw)
        text = (
            f"Turn {index + 1}: {who} played {played_words}, a blunder: {who}'s chance fell "
            f"from {percent(before)} to {percent(after)}. The computer preferred "
            f"{better_words}."
        )
        alt = limits.clip(
            f"Two {game.title} boards side by side. Left: after {who} played {played_words}. "
            f"Right: after {better_words} instead, the computer's choice.",
            ALT_TEXT,
        )
        name = f"{game.name}-{match.id}-blunder-{index + 1}.png"
        data = limits.upload(png, name)
        return text, discord.File(io.BytesIO(data), filename=name, description=alt)
