"""Public posts about a match: its thread, a fresh board message per turn, the result.

Everything here uses the bot token and stored ids (never an interaction token), so it works
the same after a restart and long after the interaction that caused it has expired.

Each post speaks the language of its place (`Announcer.language`), whoever caused it: a
thread or channel its server's, a private conversation its member's; each DM its reader's.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

import discord
from discord.utils import MISSING

from bot.posts import limits
from bot.posts.clock_texts import banks_line, repetition_line
from bot.posts.conversations import (
    Conversation,
    Conversations,
    OutOfReach,
    place_for,
    private,
    rewordable,
)
from bot.posts.direct_messages import DirectMessages
from bot.posts.languages import in_its_place, spoken_in
from bot.posts.match_texts import (
    POSTED_LATE,
    Line,
    alt_text,
    challenge_expired,
    challenge_unanswered,
    deadline_line,
    describe_turns,
    dms_closed,
    draw_lapsed,
    followed,
    jump_url,
    match_begins,
    on_vacation,
    plain,
    rating_changes,
    reminder_direct,
    reminder_in_place,
    replay_alt,
    replay_post,
    status_line,
    worded,
    your_move,
)
from bot.posts.pictures import picture_words
from bot.posts.threads import archive, strip_buttons
from bot.posts.undelivered import (
    NOTHING_LOST,
    DmsClosed,
    Undelivered,
    board_later,
    delivering,
    match_places,
    send_permission,
)
from bot.service import Match, MatchService, Reminder, ServiceError, Turn, View
from bot.store import JobKind
from bot.texts import Text, language_of, say, speaking, t
from bot.ui.views import board_view, rematch_view
from bot.workers.pool import WorkerPool
from renderers import PictureWords

log = logging.getLogger(__name__)

POST_THAT = t("posts.undelivered.post_that")

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: correspondence games are slow
FOLLOWER_SENDS = 5  # followers' DMs in flight at once: well within Discord's rate limits
FOLLOWERS_TASK = "followers"  # the offline harness waits for tasks named so


def pinging(*user_ids: int) -> discord.AllowedMentions:
    """Exactly these users may be pinged by a message: a mention written any other way (a
    display name such as `<@123>`) pings nobody."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(user_id) for user_id in dict.fromkeys(user_ids)],
        replied_user=False,
    )


class Renderer(Protocol):
    def __call__(
        self,
        game_name: str,
        state: Any,
        *,
        perspective: int | None = None,
        names: Sequence[str] | None = None,
        theme: str | None = None,
        large: bool = False,
        words: PictureWords,
    ) -> bytes: ...


class Announcer:
    """Renders boards (in a thread, off the event loop) and posts them where a match lives."""

    def __init__(
        self,
        client: discord.Client,
        service: MatchService,
        render: Renderer,
        workers: WorkerPool,
    ) -> None:
        self.client = client
        self.service = service
        self.render = render
        self.workers = workers
        # Told of each position posted in a match under way (the computer hears its turns).
        self.watchers: list[Callable[[Match], None]] = []
        self._telling: set[asyncio.Task[None]] = set()  # followers' DMs under way
        self._dm_slots = asyncio.Semaphore(FOLLOWER_SENDS)
        clock, store = service.deadlines.clock, service.store
        self.dms = DirectMessages(client, store)
        self.conversations = Conversations(
            clock,
            self.dms.anyway,
            self._post_waiting_board,
            store,
            self.service.settings.member_language,
        )

    async def language(self, match: Match) -> str:
        """The language of the place where a match is played (see bot.posts.languages)."""
        return await spoken_in(match, self.service.settings, self.conversations)

    async def board_file(
        self, match: Match, view: View, ply: int | None = None, state: Any = None
    ) -> discord.File:
        """The board now, or at an earlier `ply` whose `state` a replay passes, drawn as
        `view` says (see service.settings), with its alt text."""
        if ply is None:
            ply, state = match.row.ply, match.state
        png = await asyncio.to_thread(
            self.render,
            match.game.name,
            state,
            perspective=view.perspective,
            names=[plain(name) for name in match.names],
            theme=view.theme,
            large=view.large,
            words=picture_words(),
        )
        name = f"{match.game.name}-{match.id}-{ply}.png"
        return discord.File(
            io.BytesIO(limits.upload(png, name)),
            filename=name,
            description=alt_text(match, state),
        )

    async def private_board(self, match: Match, viewer: int) -> discord.File:
        """The board as this member sees it: from their seat, in their theme."""
        return await self.board_file(match, await self.service.settings.private_view(match, viewer))

    async def post_replay(self, match_id: int) -> None:
        """The finished match's replay GIF, made in the worker process, as its own message
        after the result; the thread, reopened by the post, is archived again. Discord's
        refusal goes up to the REPLAY job, which runs again later."""
        await self._post_replay(await self.service.cache.get(match_id))

    @in_its_place
    async def _post_replay(self, match: Match) -> None:
        match_id = match.id
        record = await self.service.queries.record(match_id)
        names = [plain(name) for name in match.names]
        gif = await self.workers.replay(record, names=names, words=picture_words())
        name = f"{match.game.name}-{match.id}-replay.gif"
        alt = limits.description(say(replay_alt(match)))
        picture = discord.File(io.BytesIO(limits.upload(gif, name)), filename=name, description=alt)
        needed = (send_permission(match), "attach_files")
        doing = t("posts.undelivered.post_replay")
        async with delivering(doing, match_places(match), needed, match=match):
            await self._channel(match).send(
                limits.content(say(replay_post(match))),
                file=picture,
                allowed_mentions=pinging(),
            )
        try:
            await archive(self.client, match)
        except (Undelivered, OutOfReach) as error:  # the replay is posted: the thread stays open
            log.info("match #%s: %s", match_id, error)

    def _channel(self, match: Match) -> discord.PartialMessageable | Conversation:
        """Where a match's posts go: its thread or channel, or its private conversation."""
        if private(match):
            return Conversation(match, self.conversations)
        return self.client.get_partial_messageable(match.channel_id, guild_id=match.row.guild_id)

    @in_its_place
    async def open_match(
        self, match: Match, challenge: discord.Message | None, turns: Sequence[Turn] = ()
    ) -> Match:
        """Open the match thread from the challenge message (or stay in the channel)."""
        no_thread: Undelivered | None = None
        if challenge is not None and not private(match):
            name = limits.thread_name(plain(match.describe()))
            try:
                async with delivering(
                    t("posts.undelivered.open_thread"),
                    (match.row.channel_id,),
                    ("create_public_threads", "read_message_history"),
                    t("posts.undelivered.in_channel_instead"),
                ):
                    thread_id = await self._thread_on(challenge, name)
            except (Undelivered, discord.HTTPException, ValueError) as error:
                log.warning("match #%s: no thread (%s); playing in the channel", match.id, error)
                no_thread = error if isinstance(error, Undelivered) else None
            else:
                match = await self.service.cache.set_messages(match, thread_id=thread_id)
        await self.post_board(
            match, [match_begins(match), *describe_turns(match, turns)], match.people
        )
        if no_thread is not None:
            raise no_thread
        return match

    async def _thread_on(self, message: discord.Message, name: str) -> int:
        """Open a thread on `message`. A message the bot sent on its own (a tournament's
        round) knows no server, as the bot keeps no guild cache, so its channel is fetched
        first."""
        if message.guild is not None:
            thread = await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            return thread.id
        channel = await self.client.fetch_channel(message.channel.id)
        if not isinstance(channel, discord.TextChannel):
            raise ValueError(f"channel {channel.id} cannot hold a match's thread")
        thread = await channel.create_thread(
            name=name, message=message, auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
        return thread.id

    async def after_turns(self, match: Match, turns: Sequence[Turn]) -> discord.Message:
        return await self.post_board(match, describe_turns(match, turns))

    async def after_reply(
        self, match: Match, turns: Sequence[Turn], replies: Sequence[Turn]
    ) -> discord.Message:
        """One board for a person's move and the computer's reply ("alice played e5.
        Computer (Black) replied h3."), mentioning the person who moved."""
        lines = [*describe_turns(match, turns), *describe_turns(match, replies, reply=True)]
        return await self.post_board(match, lines, ping=[turns[0].user_id])

    def typing(self, match: Match) -> contextlib.AbstractAsyncContextManager[None]:
        """The typing indicator in the match's place while the computer thinks (an async
        context manager)."""
        return self._channel(match).typing()

    async def finish_telling(self, seconds: float) -> None:
        """Give the followers' DMs under way `seconds` to go out (a clean stop), then drop them."""
        if self._telling:
            await asyncio.wait(set(self._telling), timeout=seconds)
        for task in set(self._telling):
            task.cancel()

    @in_its_place
    async def post_board(
        self, match: Match, lines: Sequence[Line], ping: Sequence[int] = ()
    ) -> discord.Message:
        """A new board message; the previous one loses its Move button; a finished match's
        carries a Rematch button, its replay follows as its own message (`post_replay`), and
        its thread is archived. The player to move is pinged (unless it is the computer), and
        those in `ping`; the deadline is shown in each reader's time zone."""
        match = await self.end_draw_offer(match)
        clock = await self.service.deadlines.upcoming(match)
        due = deadline_line(clock.due if clock is not None else None)
        away = on_vacation(await self.service.vacations.away(match)) if match.to_move else []
        changes = await self.service.ratings.changes(match)
        banks = banks_line(await self.service.timing.left(match))

        def words() -> str:  # in the language spoken when called (see `rewordable`)
            ratings_line = rating_changes(match, changes)
            shown = [*lines, status_line(match), ratings_line, due, *away, banks]
            shown.append(repetition_line(match))
            return limits.content(worded([line for line in shown if line]).strip())

        text = words()
        channel = self._channel(match)
        mover = match.to_move
        to_ping = [mover.user_id] if mover is not None and mover.engine is None else []
        active = match.outcome is None and match.status == "active"
        needed = (send_permission(match), "attach_files")
        board = await self.board_file(match, await self.service.settings.thread_view(match))
        doing = t("posts.undelivered.post_board")
        try:
            async with delivering(doing, match_places(match), needed, board_later(match), match):
                with rewordable(words):
                    message = await channel.send(
                        text,
                        file=board,
                        allowed_mentions=pinging(*ping, *to_ping),
                        view=board_view(match.id) if active else rematch_view(match.id),
                    )
        except (Undelivered, discord.HTTPException):
            await self.service.deadlines.post_later(match.id, JobKind.BOARD, match.row.ply)
            raise
        except OutOfReach as unreached:  # its players got the board by DM: the clock starts
            if not unreached.told:  # Discord failed that too: no clock before they get it
                await self.service.deadlines.post_later(match.id, JobKind.BOARD, match.row.ply)
            elif clock is not None:
                await self.service.deadlines.start_clock(match, clock)
            raise
        if clock is not None:  # before the board is recorded as posted: see Jobs.unscheduled
            await self.service.deadlines.start_clock(match, clock)
        previous = match.row.board_message_id
        await self.service.cache.set_messages(
            match, board_message_id=message.id, board_ply=match.row.ply
        )
        if previous and isinstance(channel, discord.PartialMessageable):  # a conversation's
            await strip_buttons(channel, previous)  # token edits only its own messages
        if not active:
            await archive(self.client, match)
        if match.outcome is not None and match.turns_played:  # no replay of a game without turns
            await self.service.deadlines.replay_later(match)
        link = jump_url(match.row.guild_id, match.channel_id, message.id)
        if to_ping:
            await self.direct(match, to_ping[0], your_move(match, due, link))
        self._tell_followers(match, lines, [due, *away], link)
        for watcher in self.watchers:
            watcher(match)
        return message

    async def direct(self, match: Match, user_id: int, text: Line, *, board: bool = True) -> bool:
        """Send a member who opted in (`/settings dm`) a direct message with the board;
        False if they did not opt in or Discord refused. The first refusal is remembered
        and said once in the match's channel, and no DM is tried again."""
        wanted = await self.service.store.preferences(user_id)
        if not wanted.dm or wanted.dm_refused:
            return False
        with speaking(language_of(wanted.locale)):
            picture = await self.private_board(match, user_id) if board else MISSING
            worded_text = say(text)
        try:
            return await self.dms.send(user_id, worded_text, picture)
        except DmsClosed as closed:
            if closed.first:
                try:
                    await self.say(match, dms_closed(user_id), ping=[user_id])
                except (Undelivered, OutOfReach, discord.HTTPException) as error:
                    log.info("match #%s: DMs closed, not said: %s", match.id, error)
            return False

    def _tell_followers(
        self, match: Match, lines: Sequence[Line], notes: Sequence[Line], link: str
    ) -> None:
        """The followers' DMs go on their own task: the command that posted the board
        answers without waiting for them, and they go once it has let go of the match."""
        task = asyncio.create_task(
            self._send_followers(match, lines, notes, link),
            name=f"{FOLLOWERS_TASK}-{match.id}",
        )
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _send_followers(
        self, match: Match, lines: Sequence[Line], notes: Sequence[Line], link: str
    ) -> None:
        """Each follower gets the board by DM, drawn once for each language they read, a few
        at a time, in their own language; one whose DMs are closed is remembered and sent no more
        (`/follow` tells them why)."""
        async with self.service.cache.lock(match.id):
            pass  # the command that posted the board holds it until it has answered
        followers = await self.service.following.recipients(match.id)
        if not followers:
            return
        view = await self.service.settings.thread_view(match)
        languages = {user: await self.service.settings.member_language(user) for user in followers}
        pictures: dict[str, discord.File] = {}
        for language in set(languages.values()):
            with speaking(language):
                pictures[language] = await self.board_file(match, view)
        pngs = {language: picture.fp.read() for language, picture in pictures.items()}

        async def send(user_id: int) -> None:
            picture = pictures[languages[user_id]]
            board = discord.File(
                io.BytesIO(pngs[languages[user_id]]),
                filename=picture.filename,
                description=picture.description,
            )
            with speaking(languages[user_id]):
                text = followed(match, lines, notes, link)
            async with self._dm_slots:
                with contextlib.suppress(DmsClosed):
                    await self.dms.send(user_id, text, board)

        await asyncio.gather(*(send(user_id) for user_id in followers))

    async def post_missing_board(self, match_id: int, late: Line = POSTED_LATE) -> None:
        """Post the board of turns that were saved but never shown (Discord did not take
        it, or the process stopped first), if they still are, mentioning whoever is to
        move, whose clock starts now. Discord's refusal goes up to the BOARD job that called
        this, which runs again later."""
        match = await self.service.cache.get(match_id)
        if match.row.board_ply is not None and match.row.board_ply >= match.row.ply:
            return
        shown_up_to = match.row.board_ply or 0
        moves = [m for m in await self.service.store.moves(match_id) if m.ply > shown_up_to]
        turns = [Turn(m.seat, match.at(m.seat).user_id, m.notation) for m in moves]
        if match.row.board_message_id is None:  # its first board: the match begins
            opening = [match_begins(match), *describe_turns(match, turns), late]
            await self.post_board(match, opening, match.people)
            return
        await self.post_board(match, [*describe_turns(match, turns), late])

    async def _post_waiting_board(self, match_id: int, late: Text) -> bool:
        """A private conversation's board that waited for its next interaction, posted now
        if it still waits; False if it could not be (the log says why)."""
        async with self.service.cache.lock(match_id):
            try:
                await self.post_missing_board(match_id, late)
            except (ServiceError, Undelivered, OutOfReach, discord.HTTPException) as error:
                log.warning("match #%s: could not post its missing board: %s", match_id, error)
                return False
        return True

    async def gave_up(
        self, match: Match, sentence: Callable[[Text | str], Text], to: Sequence[int] = ()
    ) -> None:
        """DM each player (or those `to`), opted in or not, as nothing else reaches them, the
        `sentence` saying what will not be posted in its place (bot/service/delivery.py)."""
        self.conversations.forget(match.id)
        people = to or [s.user_id for s in match.seats if s.engine is None]
        for user_id in dict.fromkeys(people):
            language = await self.service.settings.member_language(user_id)
            text = say(sentence(place_for(match, user_id)), language)
            with contextlib.suppress(DmsClosed):
                await self.dms.send(user_id, text, MISSING)

    async def remind(self, reminder: Reminder) -> bool:
        """A DM for a player who opted in, else a mention in the match's place; False if
        Discord failed it for now (an outage, or too many requests: try again later)."""
        match, user_id = reminder.match, reminder.seat.user_id
        if await self.direct(match, user_id, reminder_direct(reminder)):
            return True
        if private(match):  # nowhere to mention them: a DM whatever their setting
            with speaking(await self.service.settings.member_language(user_id)):
                board = await self.private_board(match, user_id)
                text = say(reminder_direct(reminder))
            return await self.dms.anyway(user_id, text, board)
        try:
            await self.say(match, reminder_in_place(reminder), ping=[user_id])
        except Undelivered as refused:
            if refused.for_now:
                return False
            raise
        return True

    @in_its_place
    async def challenge_expired(self, match: Match) -> bool:
        """The challenge loses its buttons and says why; the challenger is told (by DM only,
        for a challenge in a private conversation, which only an interaction can edit).
        False if Discord failed that for now (a CLOSING job tells them later)."""
        if private(match):
            challenger = match.challenger.user_id
            language = await self.service.settings.member_language(challenger)
            unanswered = say(challenge_unanswered(match), language)
            return await self.dms.anyway(challenger, unanswered, MISSING)
        channel = self.client.get_partial_messageable(
            match.row.channel_id, guild_id=match.row.guild_id
        )
        if match.row.challenge_message_id is not None:
            try:
                await channel.get_partial_message(match.row.challenge_message_id).edit(
                    content=challenge_expired(match), view=None
                )
            except discord.HTTPException as error:
                log.info("could not edit the expired challenge #%s: %s", match.id, error)
        challenger = match.challenger.user_id
        if await self.direct(match, challenger, challenge_unanswered(match), board=False):
            return True
        try:
            async with delivering(POST_THAT, (match.row.channel_id,), ("send_messages",)):
                await channel.send(
                    limits.content(say(challenge_unanswered(match, challenger))),
                    allowed_mentions=pinging(challenger),
                )
        except Undelivered as refused:
            if refused.for_now:
                return False
            log.info("match #%s: its challenger not told of its expiry: %s", match.id, refused)
        return True

    @in_its_place
    async def challenge_post(
        self, match: Match, text: str, view: discord.ui.View | None
    ) -> discord.Message:
        """Post a challenge the bot makes itself (a rematch) in the channel the match was
        challenged in, or rewrite it there once answered; players are pinged on posting."""
        channel = self.client.get_partial_messageable(
            match.row.channel_id, guild_id=match.row.guild_id
        )
        async with delivering(
            t("posts.undelivered.post_challenge"),
            (match.row.channel_id,),
            ("send_messages",),
            match=match,
        ):
            if match.row.challenge_message_id is None or private(match):
                # a conversation takes answers only, and edits none but its own: a new post
                place = self._channel(match) if private(match) else channel
                return await place.send(
                    limits.content(text),
                    view=view or MISSING,
                    allowed_mentions=pinging(*match.people),
                )
            message = channel.get_partial_message(match.row.challenge_message_id)
            return await message.edit(content=limits.content(text), view=view)

    @in_its_place
    async def end_draw_offer(self, match: Match, text: Line | None = None) -> Match:
        """The post of a draw offer that no longer stands (its receiver moved, the game
        ended, or `text` says how it was answered) says so and loses its buttons, once."""
        message_id = match.row.draw_message_id
        standing = match.row.draw_offer is not None and match.to_move is not None
        if message_id is None or (standing and text is None):
            return match
        content = limits.content(say(text or draw_lapsed(match)))
        channel = self._channel(match)
        if isinstance(channel, discord.PartialMessageable):  # a conversation's token edits
            try:  # only its own messages: there the offer's buttons answer that it lapsed
                await channel.get_partial_message(message_id).edit(content=content, view=None)
            except discord.HTTPException as error:
                log.info("could not edit the draw offer of match #%s: %s", match.id, error)
        return await self.service.cache.set_messages(match, draw_message_id=None)

    @in_its_place
    async def closed(self, match: Match, text: Line, ping: Sequence[int] = ()) -> None:
        """A match ended without a result (aborted): said where it is played, its board's
        buttons stripped, its thread archived; no replay. What Discord did not take (nor, in
        a private conversation, the DMs that stand for it) a CLOSING job says again."""
        doing = t("posts.undelivered.post_abort")
        try:
            await self.say(match, text, ping, doing=doing, instead=t("delivery.board_later"))
        except (Undelivered, OutOfReach, discord.HTTPException) as missed:
            if not (isinstance(missed, OutOfReach) and missed.told):  # DMs stood for it
                await self.service.deadlines.post_later(match.id, JobKind.CLOSING, match.row.ply)
            raise
        match = await self.end_draw_offer(match)
        channel = self._channel(match)
        if match.row.board_message_id and isinstance(channel, discord.PartialMessageable):
            await strip_buttons(channel, match.row.board_message_id)
        await archive(self.client, match)

    @in_its_place
    async def say(
        self,
        match: Match,
        text: Line,
        ping: Sequence[int] = (),
        *,
        doing: Text = POST_THAT,
        instead: Text = NOTHING_LOST,
    ) -> None:
        """A line in the match's place, pinging only the users in `ping`; Undelivered says
        what it was `doing` and what happens `instead`."""
        sending = (send_permission(match),)

        def words() -> str:
            return limits.content(say(text))

        async with delivering(doing, match_places(match), sending, instead, match):
            with rewordable(words):
                await self._channel(match).send(words(), allowed_mentions=pinging(*ping))

    @in_its_place
    async def post(
        self, match: Match, text: Line, *, view: discord.ui.View, ping: Sequence[int] = ()
    ) -> discord.Message:
        """A message with buttons where the match is played, pinging only the users in `ping`."""
        sending = (send_permission(match),)
        async with delivering(POST_THAT, match_places(match), sending, match=match):
            return await self._channel(match).send(
                limits.content(say(text)), allowed_mentions=pinging(*ping), view=view
            )
