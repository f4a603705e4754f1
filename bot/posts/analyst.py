"""What a computer analysis posts, in words and pictures, where the match was played: the
progress line (edited as positions are judged), then the win-chance graph with a summary per
player naming each marked move and the better one, then a board for each player's three worst
marked moves, each beside the better move. Every picture is drawn off the event loop and
carries alt text made here from the rules' words. Also each turn's evaluation and the
computer's line, which /replay shows once a match is analysed. The words are the catalogue's
(bot/texts/en.toml [analysis]).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from ai.analysis import THRESHOLDS, Judgement, Mark, Summary
from bot.posts import limits
from bot.posts.conversations import Conversation, Conversations, private
from bot.posts.delivery import send_embedded
from bot.posts.match_texts import plain
from bot.posts.names import safe_name
from bot.posts.pictures import picture_words
from bot.service import Match, MatchService
from bot.service.analysis import Analysis, Progress
from bot.texts import Text, say, speaking, t
from bot.texts.numbers import Number
from renderers import render_comparison
from renderers.graph import Dot, graph_png

log = logging.getLogger(__name__)

WORST_BOARDS = 3  # each player's worst marked moves shown on a board
SWINGS = 3  # the largest swings the graph's alt text names
ALT_TEXT = 1024  # characters of an attachment's description


MARKS = {
    Mark.INACCURACY: t("analysis.marks.inaccuracy"),
    Mark.MISTAKE: t("analysis.marks.mistake"),
    Mark.BLUNDER: t("analysis.marks.blunder"),
}
A_MARK = {  # a mark after its article, "a blunder"
    Mark.INACCURACY: t("analysis.a_mark.inaccuracy"),
    Mark.MISTAKE: t("analysis.a_mark.mistake"),
    Mark.BLUNDER: t("analysis.a_mark.blunder"),
}


def percent(chance: float) -> Text:
    return t("analysis.percent", percent=round(100 * chance))


def progress_text(progress: Progress) -> Text:
    match, done, total = progress.match.title, progress.done, progress.total
    if progress.looked_again:
        return t("analysis.looking_again", match=match, total=total, done=progress.looked_again)
    return t("analysis.progress", match=match, done=done, total=total)


def done_text(analysis: Analysis) -> Text:
    """The finished progress line, saying exactly what follows it."""
    boards = len(worst_moves(analysis.judged, len(analysis.summaries)))
    follows = t("analysis.follows", count=boards) if boards else t("analysis.follows_none")
    return t(
        "analysis.done", match=analysis.match.title, count=len(analysis.judged), follows=follows
    )


def marks_rule(locale: str | None = None) -> Text:
    """The thresholds in words, from the constants (docs/analysis.md)."""
    steps = ", ".join(
        say(t("analysis.threshold", points=f"{threshold:.0f}", mark=A_MARK[mark]), locale)
        for threshold, mark in reversed(THRESHOLDS)
    )
    return t("analysis.marks_rule", steps=steps)


def summary_line(summary: Summary) -> Text:
    return t(
        "analysis.summary",
        accuracy=f"{summary.accuracy:.0f}",
        inaccuracies=t("analysis.inaccuracies", count=summary.inaccuracies),
        mistakes=t("analysis.mistakes", count=summary.mistakes),
        blunders=t("analysis.blunders", count=summary.blunders),
        loss=Number(summary.average_loss, places=1),
        moves=t("analysis.moves", count=summary.moves),
    )


def marked_move(judged: Sequence[Judgement], index: int) -> Text:
    """One marked move in a summary: "Turn 6, e4: blunder, 24% to 0%; better d4"."""
    judgement = judged[index]
    seat = judgement.seat or 1
    before, after = judgement.chances[seat - 1], judged[index + 1].chances[seat - 1]
    better = (
        t("analysis.nothing_better")
        if judgement.better is None
        else t("analysis.better", move=judgement.better)
    )
    return t(
        "analysis.marked",
        turn=index + 1,
        move=judgement.played,
        mark=MARKS[judgement.mark or Mark.INACCURACY],
        before=percent(before),
        after=percent(after),
        better=better,
    )


def player_summary(analysis: Analysis, summary: Summary, locale: str | None = None) -> str:
    """A player's summary line, then each of their marked moves, one a line."""
    judged = analysis.judged
    lines = [summary_line(summary)] + [
        marked_move(judged, i)
        for i, j in enumerate(judged)
        if j.seat == summary.seat and j.mark is not None
    ]
    return "\n".join(say(line, locale) for line in lines)


def summary_embed(analysis: Analysis, locale: str | None = None) -> discord.Embed:
    match = analysis.match
    names = [safe_name(name) for name in match.names]
    fields = [(names[s.seat - 1], player_summary(analysis, s, locale)) for s in analysis.summaries]
    description = t(
        "analysis.embed_description", result=shown_outcome(analysis), rule=marks_rule(locale)
    )
    title = t("analysis.embed_title", match=safe_name(match.describe()))
    return limits.embed(say(title, locale), say(description, locale), fields)


def shown_outcome(analysis: Analysis) -> Text:
    return t("analysis.result", outcome=analysis.match.describe_outcome(safe_name))


def graph_alt(analysis: Analysis, locale: str | None = None) -> str:
    """The graph in words: where it starts, its largest swings, where it ends."""
    match, judged = analysis.match, analysis.judged
    names = [plain(name) for name in match.names]

    def standing(chances: Sequence[float]) -> str:
        return ", ".join(
            say(t("analysis.chance", player=name, percent=percent(c)), locale)
            for name, c in zip(names, chances, strict=False)
        )

    moves = [(i, j) for i, j in enumerate(judged[:-1]) if j.seat is not None]
    swings = sorted(moves, key=lambda ij: -_swing(judged, ij[0]))[:SWINGS]
    parts = [t("analysis.graph.start", title=match.title, standing=standing(judged[0].chances))]
    for index, judgement in sorted(swings):
        if _swing(judged, index) < 0.05:
            continue
        seat = judgement.seat or 0
        before, after = judgement.chances[seat - 1], judged[index + 1].chances[seat - 1]
        mark = t("analysis.graph.mark", mark=MARKS[judgement.mark]) if judgement.mark else ""
        parts.append(
            t(
                "analysis.graph.swing",
                turn=index + 1,
                player=names[seat - 1],
                move=judgement.played,
                before=percent(before),
                after=percent(after),
                mark=mark,
            )
        )
    end = standing(judged[-1].chances)
    parts.append(t("analysis.graph.end", standing=end, result=shown_outcome(analysis)))
    return limits.clip(" ".join(say(part, locale) for part in parts), ALT_TEXT)


def _swing(judged: Sequence[Judgement], index: int) -> float:
    before, after = judged[index].chances, judged[index + 1].chances
    return max(abs(a - b) for a, b in zip(before, after, strict=True))


def dots(judged: Sequence[Judgement]) -> list[Dot]:
    return [
        Dot(index + 1, j.seat, str(j.mark))
        for index, j in enumerate(judged)
        if j.mark is not None and j.seat is not None
    ]


def worst_moves(judged: Sequence[Judgement], players: int) -> list[int]:
    """The positions of each player's WORST_BOARDS worst marked moves that have a better move
    to show, whatever their mark, in the order they were played."""
    worst: list[int] = []
    for seat in range(1, players + 1):
        mine = [
            i
            for i, j in enumerate(judged)
            if j.seat == seat and j.mark is not None and j.better is not None
        ]
        worst += sorted(mine, key=lambda i: -judged[i].loss)[:WORST_BOARDS]
    return sorted(worst)


def turn_evaluation(analysis: Analysis, index: int, locale: str | None = None) -> str:
    """For /replay at position `index`: the chances there, what the move leading to it was
    worth, and the computer's choice at that turn with the line it expected (at the setup,
    its choice for the first turn)."""
    names, judged = [safe_name(name) for name in analysis.match.names], analysis.judged
    chances = ", ".join(
        say(t("analysis.chance", player=name, percent=percent(c)), locale)
        for name, c in zip(names, judged[index].chances, strict=False)
    )
    lines = [t("analysis.evaluation", chances=chances)]
    turn = max(index, 1)
    move = judged[turn - 1]
    if index > 0 and move.seat is not None:
        name = names[move.seat - 1]
        if move.mark is not None:
            preferred = (
                t("analysis.preferred_nothing")
                if move.better is None
                else t("analysis.preferred", move=move.better)
            )
            lines.append(
                t(
                    "analysis.evaluation_marked",
                    player=name,
                    move=move.played,
                    mark=A_MARK[move.mark],
                    loss=f"{move.loss:.0f}",
                    preferred=preferred,
                )
            )
        elif move.forced:
            lines.append(t("analysis.evaluation_forced", player=name, move=move.played))
    if move.line:
        lines.append(
            t("analysis.evaluation_line", turn=turn, move=move.line[0], line=" ".join(move.line))
        )
    return "\n".join(say(line, locale) for line in lines)


class Analyst:
    """Posts an analysis's progress and results where its match was played."""

    def __init__(
        self,
        client: discord.Client,
        service: MatchService,
        conversations: Conversations,
        language: Callable[[Match], Awaitable[str]],
    ) -> None:
        self.client = client
        self.service = service
        self.conversations = conversations
        self.language = language  # of the match's place (Announcer.language)

    def _channel(self, match: Match) -> discord.PartialMessageable | Conversation:
        if private(match):  # answers to the /analysis that asked, while its token lasts
            return Conversation(match, self.conversations)
        return self.client.get_partial_messageable(match.channel_id, guild_id=match.row.guild_id)

    async def start(self, progress: Progress) -> discord.Message:
        """The progress message, posted when an analysis is first asked for."""
        channel = self._channel(progress.match)
        text = say(progress_text(progress), await self.language(progress.match))
        return await channel.send(limits.content(text))

    async def progressed(self, progress: Progress) -> None:
        await self._edit(progress, progress_text(progress))

    async def finished(self, analysis: Analysis) -> None:
        """The graph with the summary, then a board for each player's worst marked moves,
        in the language of the match's place."""
        with speaking(await self.language(analysis.match)):
            await self._finished(analysis)

    async def _finished(self, analysis: Analysis) -> None:
        match = analysis.match
        channel = self._channel(match)
        row = await self.service.cache.store.analysis(match.id)
        if row is not None and row.message_id is not None:
            progress = Progress(match, len(analysis.judged), len(analysis.judged), row.message_id)
            await self._edit(progress, done_text(analysis))
        graph = await asyncio.to_thread(
            graph_png,
            [j.chances for j in analysis.judged],
            names=[plain(name) for name in match.names],
            words=picture_words(),
            dots=dots(analysis.judged),
            title=say(t("analysis.graph_title", match=plain(match.describe()))),
        )
        name = f"{match.game.name}-{match.id}-analysis.png"
        alt = graph_alt(analysis)
        await send_embedded(
            channel,
            summary_embed(analysis),
            lambda: discord.File(io.BytesIO(graph), filename=name, description=alt),
        )
        for index in worst_moves(analysis.judged, len(analysis.summaries)):
            text, file = await self._board(analysis, index)
            await channel.send(limits.content(say(text)), file=file)

    async def _edit(self, progress: Progress, text: Text) -> None:
        if progress.message_id is None:
            return
        message = self._channel(progress.match).get_partial_message(progress.message_id)
        worded_text = say(text, await self.language(progress.match))
        try:
            await message.edit(content=limits.content(worded_text))
        except discord.HTTPException as error:
            log.info("could not edit the progress of %s: %s", progress.match.title, error)

    async def _board(self, analysis: Analysis, index: int) -> tuple[Text, discord.File]:
        """A marked move's post: the move played beside the computer's choice, with alt
        text."""
        match, judgement = analysis.match, analysis.judged[index]
        game, names = match.game, [plain(name) for name in match.names]
        state = analysis.replay.states[index]
        seat = judgement.seat or 1
        who = names[seat - 1]
        before = judgement.chances[seat - 1]
        after = analysis.judged[index + 1].chances[seat - 1]
        played_state = analysis.replay.states[index + 1]

        mark = A_MARK[judgement.mark or Mark.INACCURACY]
        title = t(
            "analysis.board.title", turn=index + 1, player=who, move=judgement.played, mark=mark
        )
        captions = (
            t(
                "analysis.board.played",
                move=judgement.played,
                player=who,
                before=percent(before),
                after=percent(after),
            ),
            t("analysis.board.better", move=judgement.better),
        )

        shown = [safe_name(name) for name in match.names]  # in the post; `names` elsewhere
        words = picture_words()

        def draw() -> tuple[bytes, tuple[str, str], tuple[str, str]]:
            best = game.parse_move(state, judgement.better or "")
            played = game.parse_move(state, judgement.played or "")
            better_state = game.apply(state, best)
            png = render_comparison(
                game.name,
                played_state,
                better_state,
                title=say(title),
                captions=(say(captions[0]), say(captions[1])),
                names=names,
                words=words,
            )
            return (
                png,
                (
                    say(game.describe_move(state, played, names)),
                    say(game.describe_move(state, best, names)),
                ),
                (
                    say(game.describe_move(state, played, shown)),
                    say(game.describe_move(state, best, shown)),
                ),
            )

        png, (played_words, better_words), (played_post, better_post) = await asyncio.to_thread(
            draw
        )
        text = t(
            "analysis.board.post",
            turn=index + 1,
            player=shown[seat - 1],
            mark=mark,
            played=played_post,
            before=percent(before),
            after=percent(after),
            better=better_post,
        )
        alt = t(
            "analysis.board.alt",
            game=game.title,
            player=who,
            played=played_words,
            better=better_words,
        )
        name = f"{game.name}-{match.id}-turn-{index + 1}.png"
        data = limits.upload(png, name)
        description = limits.clip(say(alt), ALT_TEXT)
        return text, discord.File(io.BytesIO(data), filename=name, description=description)
