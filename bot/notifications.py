"""Public posts about a match: its thread, a fresh board message per turn, the result.

Everything here uses the bot token and stored ids (never an interaction token), so it works
the same after a restart and long after the interaction that caused it has expired.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal, Protocol

import discord
from discord.utils import MISSING

from bot import limits
from bot.service import Match, MatchService, Turn
from bot.views import board_view

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: correspondence games are slow
DMS_CLOSED = 50007  # Discord's error code: this user does not accept DMs from the bot
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


NOTHING_LOST = "nothing is lost, and /board shows the match"


class Undelivered(Exception):
    """Discord refused a public post (a permission withheld, or too many requests). What the
    service saved stays saved; the member is told why, in one sentence."""

    def __init__(
        self,
        what: str,
        channels: tuple[int, ...],
        needed: tuple[str, ...],
        instead: str = NOTHING_LOST,
        retry_after: str | None = None,
    ) -> None:
        super().__init__(f"could not {what} in channel {channels[0]}")
        self.what = what
        self.channels = channels  # where it failed, then its parent (threads inherit from it)
        self.needed = needed  # discord.Permissions names, any of which may be the one lacking
        self.instead = instead
        self.retry_after = retry_after

    def explain(self, permissions: discord.Permissions, channel_id: int | None) -> str:
        """The sentence for the member; `permissions` are the bot's where they asked, which
        tell exactly what is lacking when that is the same channel or its parent."""
        where = f"<#{self.channels[0]}>"
        if self.retry_after is not None:
            why = f"Discord asked me to slow down (for {self.retry_after} s)"
        else:
            lacking = [p for p in self.needed if not getattr(permissions, p)]
            if channel_id not in self.channels or not lacking:
                lacking = list(self.needed)
            names = " or ".join(permission_name(p) for p in lacking)
            why = f"I lack the {names} permission there"
        return f"I could not {self.what} in {where} because {why}; {self.instead}."


def permission_name(permission: str) -> str:
    """'send_messages_in_threads' -> 'Send Messages in Threads', as Discord names it."""
    return permission.replace("_", " ").title().replace(" In ", " in ")


class Renderer(Protocol):
    def __call__(
        self, game_name: str, state: Any, *, names: Sequence[str] | None = None
    ) -> bytes: ...


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def describe_turns(match: Match, turns: Sequence[Turn]) -> list[str]:
    """'alice played **a1e3**.', 'bob had no move and passed.', 'carol resigned.'"""
    lines = []
    for turn in turns:
        name = match.at(turn.seat).name
        if turn.notation.startswith("resign"):
            lines.append(f"{name} resigned.")
        elif turn.notation.startswith("timeout"):
            lines.append(f"{name} ran out of time.")
        elif turn.automatic:
            lines.append(f"{name} had no legal move and passed.")
        else:
            lines.append(f"{name} played **{turn.notation}**.")
    return lines


def status_line(match: Match) -> str:
    """Who is to move (with a mention), or the result."""
    if match.outcome is not None:
        return f"**Game over: {match.describe_outcome()}.**"
    mover = match.to_move
    if mover is None:
        return ""
    side = match.game.seat_name(mover.seat)
    return f"{mention(mover.user_id)}, your move ({side})."


class Announcer:
    """Renders boards (in a thread, off the event loop) and posts them where a match lives."""

    def __init__(self, client: discord.Client, service: MatchService, render: Renderer) -> None:
        self.client = client
        self.service = service
        self.render = render

    async def board_file(self, match: Match) -> discord.File:
        png = await asyncio.to_thread(self.render, match.game.name, match.state, names=match.names)
        name = f"{match.game.name}-{match.id}-{match.row.ply}.png"
        return discord.File(io.BytesIO(limits.upload(png, name)), filename=name)

    def _channel(self, match: Match) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(match.channel_id, guild_id=match.row.guild_id)

    @staticmethod
    def _places(match: Match) -> tuple[int, ...]:
        """Where the match is played, then the channel its thread hangs from."""
        return (match.channel_id, match.row.channel_id)

    @staticmethod
    def _sending(match: Match) -> str:
        return "send_messages_in_threads" if match.row.thread_id else "send_messages"

    @staticmethod
    @asynccontextmanager
    async def _delivering(
        what: str, places: tuple[int, ...], needed: tuple[str, ...], instead: str = NOTHING_LOST
    ) -> AsyncIterator[None]:
        """Turn Discord's refusal of a post into Undelivered, naming what it needs."""
        try:
            yield
        except discord.Forbidden as error:
            log.info("could not %s in %s: %s", what, places[0], error)
            raise Undelivered(what, places, needed, instead) from error
        except discord.HTTPException as error:
            if error.status != 429:
                raise
            log.info("could not %s in %s: rate limited", what, places[0])
            retry_after = error.response.headers.get("Retry-After", "a few")
            raise Undelivered(what, places, needed, instead, retry_after) from error

    async def open_match(
        self, match: Match, challenge: discord.Message | None, turns: Sequence[Turn] = ()
    ) -> Match:
        """Open the match thread from the challenge message (or stay in the channel)."""
        no_thread: Undelivered | None = None
        if challenge is not None:
            name = limits.thread_name(f"{match.title}: {' vs '.join(match.names)}")
            try:
                async with self._delivering(
                    "open a thread for the match",
                    (match.row.channel_id,),
                    ("create_public_threads", "read_message_history"),
                    "the match is played in this channel instead",
                ):
                    thread = await challenge.create_thread(
                        name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
                    )
            except (Undelivered, discord.HTTPException, ValueError) as error:
                log.warning("match #%s: no thread (%s); playing in the channel", match.id, error)
                no_thread = error if isinstance(error, Undelivered) else None
            else:
                match = await self.service.set_messages(match, thread_id=thread.id)
        players = " vs ".join(mention(s.user_id) for s in match.seats)
        header = f"**{match.title}** ({match.row.variant}) begins: {players}."
        await self.post_board(match, [header, *describe_turns(match, turns)])
        if no_thread is not None:
            raise no_thread
        return match

    async def after_turns(self, match: Match, turns: Sequence[Turn]) -> discord.Message:
        return await self.post_board(match, describe_turns(match, turns))

    async def post_board(self, match: Match, lines: Sequence[str]) -> discord.Message:
        """A new board message; the previous one loses its Move button; a finished match's
        thread is archived."""
        deadline = await self.service.deadline(match)
        due = f"Deadline: <t:{deadline}:R>." if deadline is not None else ""
        text = limits.content("\n".join([*lines, status_line(match), due]).strip())
        channel = self._channel(match)
        active = match.outcome is None and match.status == "active"
        needed = (self._sending(match), "attach_files")
        async with self._delivering("post the board", self._places(match), needed):
            message = await channel.send(
                text,
                file=await self.board_file(match),
                allowed_mentions=MENTIONS,
                view=board_view(match.id) if active else MISSING,
            )
        previous = match.row.board_message_id
        await self.service.set_messages(match, board_message_id=message.id)
        if previous:
            await self._strip_buttons(channel, previous)
        if not active:
            await self.archive(match)
        mover = match.to_move
        if mover is not None:
            link = jump_url(match.row.guild_id, match.channel_id, message.id)
            await self.direct(
                match, mover.user_id, f"Your move in {match.describe()}. {due}\n{link}"
            )
        return message

    async def direct(self, match: Match, user_id: int, text: str, *, board: bool = True) -> bool:
        """Send a member who opted in (`/settings dm`) a direct message with the board;
        False if they did not opt in or Discord refused. The first refusal is remembered
        and said once in the match's channel, and no DM is tried again."""
        wanted = await self.service.preferences(user_id)
        if not wanted.dm or wanted.dm_refused:
            return False
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            picture = await self.board_file(match) if board else MISSING
            await channel.send(limits.content(text), file=picture, allowed_mentions=MENTIONS)
        except discord.HTTPException as error:
            if error.code != DMS_CLOSED:
                log.warning("could not send a DM to %s: %s", user_id, error)
                return False
            if await self.service.refuse_dm(user_id):
                await self.say(
                    match,
                    f"{mention(user_id)}, Discord would not let me send you a direct message "
                    "(your DMs are closed to me), so I will mention you here instead. "
                    "Use `/settings dm:on` once they are open again.",
                )
            return False
        return True

    async def say(self, match: Match, text: str) -> None:
        async with self._delivering("post that", self._places(match), (self._sending(match),)):
            await self._channel(match).send(limits.content(text), allowed_mentions=MENTIONS)

    async def post(self, match: Match, text: str, *, view: discord.ui.View) -> discord.Message:
        """A message with buttons where the match is played."""
        async with self._delivering("post that", self._places(match), (self._sending(match),)):
            return await self._channel(match).send(
                limits.content(text), allowed_mentions=MENTIONS, view=view
            )

    async def _strip_buttons(self, channel: discord.PartialMessageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("could not strip the buttons of message %s: %s", message_id, error)

    async def archive(self, match: Match) -> None:
        if match.row.thread_id is None:
            return
        try:
            thread = self.client.get_channel(match.row.thread_id)
            if thread is None:
                thread = await self.client.fetch_channel(match.row.thread_id)
        except discord.HTTPException as error:
            log.info("could not find the thread of match #%s: %s", match.id, error)
            return
        if isinstance(thread, discord.Thread):
            over = "the match is over all the same"
            async with self._delivering(
                "archive the match thread", self._places(match), ("manage_threads",), over
            ):
                await thread.edit(archived=True)
