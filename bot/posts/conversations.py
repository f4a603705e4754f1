"""Posting in a private conversation: a DM or group DM between people, which the app reaches
through a person's account (a user install) and where it is no member (DESIGN.md §10).

There Discord lets the app only answer: every post is a follow-up to an interaction of that
conversation (at most FOLLOW_UPS of them, within the token's 15 minutes). So the announcer
posts a private match's boards through the interaction under way, which `hearing` makes known
to the task that handles it (and to the computer's reply it starts). What cannot reach the
conversation then (a timeout, a result, the computer's move after a restart) stays unposted:
the players get it by the bot's own DM, and the board shows at the next command or button
used in the conversation (`catch_up`).
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord
from discord.utils import MISSING

from bot.clock import MINUTE, Clock
from bot.posts import limits
from bot.service import Match
from bot.texts import Text, say, speaking, t

log = logging.getLogger(__name__)
T = TypeVar("T")

CAUGHT_UP = t("places.caught_up")  # under a board posted at the first interaction since

FOLLOW_UPS = 5  # Discord's follow-ups per interaction where the app is not in the server
OWN_FOLLOW_UPS = FOLLOW_UPS - 1  # one is left for the command's own answer
TOKEN_LIFETIME = 15 * MINUTE  # an interaction's token works this long
TOKEN_MARGIN = MINUTE  # a post begun this close to the end might arrive too late


@dataclass
class Heard:
    """The interaction being handled in a private conversation, and what it has used up."""

    interaction: discord.Interaction[Any]
    at: float  # on the bot's clock
    follow_ups: int = 0
    checked: bool = False  # whether a "thinking…" reply was seen to, before the first post


HEARD: ContextVar[Heard | None] = ContextVar("heard", default=None)

SendDm = Callable[[int, str, discord.File], Awaitable[bool]]
"""A DM to a member: True if Discord took it or refused it for good (closed DMs, say: nothing
to wait for), False if Discord failed for now (try again later). It raises nothing."""
PostMissing = Callable[[int, Text], Awaitable[bool]]


class Tellings(Protocol):
    """The record of the positions a private match's players were sent by DM (the store)."""

    async def claim_telling(self, match_id: int, ply: int) -> bool:
        """True the first time the match's players are to get that position by DM, which is
        then recorded (a restart sends it no more)."""

    async def release_telling(self, match_id: int, ply: int) -> None:
        """The position's DMs failed: the next try sends them again."""


def private(match: Match) -> bool:
    """A match outside servers lives in a private conversation (the bot's DM is one too)."""
    return match.row.guild_id is None


def place_of(match: Match, viewer: int) -> Text:
    """Where a private match is, as `viewer` calls it: "your DM with bob" (by its players:
    who else is in the conversation is Discord's to know)."""
    people = [seat for seat in match.seats if seat.engine is None]
    others = ", ".join(seat.name for seat in people if seat.user_id != viewer)
    if not others:  # against the computer only
        return t("places.its_conversation")
    if len(people) == 2:
        return t("places.dm_with", names=others)
    return t("places.group_with", names=others)


def place_for(match: Match, viewer: int) -> Text | str:
    """Where a match is played, as `viewer` reads it: their DM or group DM, or the channel
    (a mention: Discord's clients show a DM's as no name)."""
    return place_of(match, viewer) if private(match) else f"<#{match.channel_id}>"


def located(match: Match, viewer: int, link: str) -> Text | str:
    """A link to a match's post, said to be in a private conversation where it is."""
    return t("places.at", place=place_of(match, viewer), link=link) if private(match) else link


class OutOfReach(Exception):
    """A private conversation could not be posted to now: no interaction of it is under way
    (or it has used up its follow-ups or its token). Nothing is lost: the board shows at the
    next command or button there, and the players were sent it by DM, unless Discord failed
    that too (`told` False: try again later, and start no clock meanwhile)."""

    def __init__(self, match: Match, told: bool) -> None:
        super().__init__(f"match #{match.id}: its conversation cannot be posted to now")
        self.match = match
        self.told = told

    def explain(self, viewer: int, locale: str | None = None) -> str:
        return say(t("places.out_of_reach", place=place_of(self.match, viewer)), locale)


class Conversation:
    """A private match's place, as the announcer posts there: `send` and `typing`, like a
    channel, through the interaction under way."""

    def __init__(self, match: Match, conversations: Conversations) -> None:
        self.match = match
        self.conversations = conversations

    async def send(
        self,
        content: str = MISSING,
        *,
        embed: discord.Embed = MISSING,
        file: discord.File = MISSING,
        allowed_mentions: discord.AllowedMentions = MISSING,
        view: discord.ui.View = MISSING,
    ) -> discord.Message:
        """A follow-up to the interaction under way in this conversation; OutOfReach (the
        players sent it by DM) when there is none that can still post."""
        heard = self.conversations.reachable(self.match)
        if heard is None:
            told = await self.conversations.missed(self.match, content or "", file)
            raise OutOfReach(self.match, told)
        interaction = heard.interaction
        if not heard.checked:
            heard.checked = True
            await _leave_thinking(interaction)
        heard.follow_ups += 1
        return await interaction.followup.send(
            content,
            embed=embed,
            file=file,
            allowed_mentions=allowed_mentions,
            view=view,
            wait=True,
        )

    def typing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """No typing indicator: the app is no member of the conversation."""
        return contextlib.nullcontext()

    def get_partial_message(self, message_id: int) -> OwnMessage:
        return OwnMessage(self, message_id)


class OwnMessage:
    """A message the interaction under way posted in a conversation: the only kind its token
    may edit (an analysis's progress, say)."""

    def __init__(self, conversation: Conversation, message_id: int) -> None:
        self.conversation = conversation
        self.id = message_id

    async def edit(self, *, content: str) -> None:
        """Edit it while that interaction can; later, it stays as it was (nobody is asking)."""
        heard = self.conversation.conversations.reachable(self.conversation.match)
        if heard is not None:
            await heard.interaction.followup.edit_message(self.id, content=content)


def or_by_dm(post: Callable[[T], Awaitable[None]]) -> Callable[[T], Awaitable[None]]:
    """`post`, where a conversation that cannot take the whole of it fails nothing: the
    players got the rest by DM (OutOfReach), which the log notes."""

    async def posting(value: T) -> None:
        try:
            await post(value)
        except OutOfReach as error:
            log.info("%s", error)

    return posting


async def _leave_thinking(interaction: discord.Interaction[Any]) -> None:
    """A command deferred privately shows its member "thinking…", which the first follow-up
    would fill, privately: fill it with a note first, so the board is everyone's."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return
    original = await interaction.original_response()
    if original.flags.loading and original.flags.ephemeral:
        await interaction.edit_original_response(content=say(t("places.below")))


REWORDING: ContextVar[Callable[[], str] | None] = ContextVar("rewording", default=None)


@contextlib.contextmanager
def rewordable(words: Callable[[], str]) -> Iterator[None]:
    """While a post goes to a private conversation: `words` words it again in the language
    spoken when called, so that what misses the conversation reaches each player by DM in
    their own (the picture stays as drawn)."""
    token = REWORDING.set(words)
    try:
        yield
    finally:
        REWORDING.reset(token)


class Conversations:
    """The private conversations' posts: who may post now, and what waits for the next
    interaction in each."""

    def __init__(
        self,
        clock: Clock,
        send_dm: SendDm,
        post_missing: PostMissing,
        tellings: Tellings,
        languages: Callable[[int], Awaitable[str]],
    ) -> None:
        self.clock = clock
        self.send_dm = send_dm
        self.post_missing = post_missing
        self.tellings = tellings
        self.languages = languages  # the language each member reads DMs in
        # channel id -> matches with a board unposted; after a restart, each unposted board's
        # BOARD job (bot/jobs/startup.py) finds its conversation out of reach and adds it again
        self._waiting: dict[int, set[int]] = {}
        # match id -> (ply, who got that position by DM) while a DM of it failed: the next
        # try sends it to the others only (after a restart, to everyone again); forgotten
        # when its post is given up
        self._sent: dict[int, tuple[int, set[int]]] = {}
        self._noted: dict[tuple[int, str], set[int]] = {}  # the same for a note, by its text

    @contextlib.contextmanager
    def hearing(self, interaction: discord.Interaction[Any]) -> Iterator[None]:
        """While an interaction outside servers is handled, its task (and the tasks it
        starts) may post to its conversation."""
        if interaction.guild_id is not None:
            yield
            return
        token = HEARD.set(Heard(interaction, self.clock.now()))
        try:
            yield
        finally:
            HEARD.reset(token)

    def reachable(self, match: Match) -> Heard | None:
        """The interaction under way that can post to this match's conversation now."""
        heard = HEARD.get()
        if heard is None or heard.interaction.channel_id != match.channel_id:
            return None
        if self.clock.now() - heard.at > TOKEN_LIFETIME - TOKEN_MARGIN:
            return None
        return heard if heard.follow_ups < OWN_FOLLOW_UPS else None

    async def missed(self, match: Match, content: str, file: discord.File) -> bool:
        """A post the conversation could not take: each player gets it by DM now (once per
        position, restarts included), where Discord allows; a board waits for the next
        interaction there. False if Discord failed a DM: the position is not counted as
        told, and the next try sends it to those who did not get it (`_sent`). A note (a
        post without a picture: a vacation, an abort) is news of its own, not the
        position's: it goes to every player as it is (a retry of the same note, only to those
        who did not get it), and leaves the position's telling to its board."""
        board_missing = match.row.board_ply is None or match.row.board_ply < match.row.ply
        if board_missing:
            self._waiting.setdefault(match.channel_id, set()).add(match.id)
        if file is MISSING:
            key = (match.id, content)
            sent = self._noted.setdefault(key, set())
            noted = await self._tell_players(match, content, file, False, sent)
            if noted:
                self._noted.pop(key)
            return noted
        if not await self.tellings.claim_telling(match.id, match.row.ply):
            return True
        ply, sent = self._sent.get(match.id, (match.row.ply, set()))
        if ply != match.row.ply:
            sent = set()
        told = await self._tell_players(match, content, file, board_missing, sent)
        if told:
            self._sent.pop(match.id, None)
        else:
            self._sent[match.id] = (match.row.ply, sent)
            await self.tellings.release_telling(match.id, match.row.ply)
        return told

    def forget(self, match_id: int) -> None:
        """Its posts are given up: who got its position by DM need not be remembered."""
        self._sent.pop(match_id, None)
        for key in [key for key in self._noted if key[0] == match_id]:
            del self._noted[key]

    async def _tell_players(
        self, match: Match, content: str, file: discord.File, waits: bool, sent: set[int]
    ) -> bool:
        """DM each player not in `sent`, in their language where the post can be worded
        again (`rewordable`), adding each who got it (with a line saying where it shows, if
        the board `waits`); False if Discord failed one for now."""
        picture = None if file is MISSING else file.fp.read()
        words = REWORDING.get()
        told = True
        for seat in match.seats:
            if seat.engine is not None or seat.user_id in sent:
                continue
            with speaking(await self.languages(seat.user_id)):
                body = content if words is None else words()
                note = say(t("places.missed", place=place_of(match, seat.user_id)))
            text = limits.content(f"{body}\n{note}" if waits else body)
            board = MISSING
            if picture is not None:
                board = discord.File(
                    io.BytesIO(picture), filename=file.filename, description=file.description
                )
            if await self.send_dm(seat.user_id, text, board):
                sent.add(seat.user_id)
            else:
                told = False
        return told

    async def catch_up(self, interaction: discord.Interaction[Any]) -> None:
        """At an interaction in a private conversation, post the boards that waited for one."""
        channel_id = interaction.channel_id
        if interaction.guild_id is not None or channel_id is None:
            return
        if not interaction.response.is_done() or not self._waiting.get(channel_id):
            return
        for match_id in sorted(self._waiting.pop(channel_id)):
            await self.post_missing(match_id, CAUGHT_UP)
