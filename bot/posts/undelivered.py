"""Discord's refusals of the bot's posts, as the member who caused them is told: a public post
Discord did not take (Undelivered) and a direct message it refused (DmsClosed)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.posts.conversations import place_for
from bot.posts.match_texts import Line
from bot.posts.names import safe_name
from bot.service import Match
from bot.texts import ENGLISH, Text, say, t
from bot.ui.permissions import label

log = logging.getLogger(__name__)

NOTHING_LOST = t("posts.undelivered.nothing_lost")


def board_later(match: Match) -> Text:
    """What happens to a board Discord did not take: it is posted later, and the clock
    of the player to move starts only then."""
    mover = match.to_move
    if mover is None or mover.engine is not None:
        return t("delivery.board_later")
    return t("delivery.board_later_clock", player=safe_name(mover.name))


class Undelivered(Exception):
    """Discord refused a public post (a permission withheld, or too many requests). What the
    service saved stays saved; the member is told why, in one sentence."""

    def __init__(
        self,
        what: Text,
        channels: tuple[int, ...],
        needed: tuple[str, ...],
        instead: Text = NOTHING_LOST,
        retry_after: Line | None = None,
        outage: bool = False,
        match: Match | None = None,
    ) -> None:
        super().__init__(f"could not {say(what, ENGLISH)} in channel {channels[0]}")
        self.outage = outage  # Discord answered with a server error (5xx)
        self.what = what
        self.channels = channels  # where it failed, then its parent (threads inherit from it)
        self.needed = needed  # discord.Permissions names, any of which may be the one lacking
        self.instead = instead
        self.retry_after = retry_after
        self.match = match  # whose post it was, if known: a private one's place is named

    @property
    def for_now(self) -> bool:
        """Whether Discord may take it later (an outage, or too many requests), unlike a
        permission withheld."""
        return self.outage or self.retry_after is not None

    def explain(
        self,
        permissions: discord.Permissions,
        channel_id: int | None,
        locale: str | None = None,
        viewer: int | None = None,
    ) -> str:
        """The sentence for the member `viewer`; `permissions` are the bot's where they asked,
        which tell exactly what is lacking when that is the same channel or its parent. A
        private conversation is named as the member calls it ("your DM with bob"): a channel
        mention of a DM shows as no name in Discord's clients."""
        if self.outage:
            why = t("posts.undelivered.outage")
        elif self.retry_after is not None:
            why = (
                t("posts.undelivered.slow_down", seconds=self.retry_after)
                if self.retry_after
                else t("posts.undelivered.slow_down_briefly")
            )
        else:
            lacking = [p for p in self.needed if not getattr(permissions, p)]
            if channel_id not in self.channels or not lacking:
                lacking = list(self.needed)
            names = say(t("posts.or"), locale).join(say(label(p), locale) for p in lacking)
            why = t("posts.undelivered.lacking", permissions=names)
        sentence = t(
            "posts.undelivered.sentence",
            doing=self.what,
            place=self._place(viewer),
            why=why,
            instead=self.instead,
        )
        return say(sentence, locale)

    def _place(self, viewer: int | None) -> Text | str:
        if self.match is not None and viewer is not None:
            return place_for(self.match, viewer)
        return f"<#{self.channels[0]}>"


def match_places(match: Match) -> tuple[int, ...]:
    """Where the match is played, then the channel its thread hangs from."""
    return (match.channel_id, match.row.channel_id)


def send_permission(match: Match) -> str:
    return "send_messages_in_threads" if match.row.thread_id else "send_messages"


@asynccontextmanager
async def delivering(
    what: Text,
    places: tuple[int, ...],
    needed: tuple[str, ...],
    instead: Text = NOTHING_LOST,
    match: Match | None = None,
) -> AsyncIterator[None]:
    """Turn Discord's refusal of a post (of `match`, if it has one) into Undelivered,
    naming what it needs."""
    try:
        yield
    except discord.Forbidden as error:
        log.info("could not %s in %s: %s", say(what, ENGLISH), places[0], error)
        raise Undelivered(what, places, needed, instead, match=match) from error
    except discord.DiscordServerError as error:
        log.warning(
            "could not %s in %s: Discord answered %s", say(what, ENGLISH), places[0], error.status
        )
        raise Undelivered(what, places, needed, instead, outage=True, match=match) from error
    except discord.HTTPException as error:
        if error.status != 429:
            raise
        log.info("could not %s in %s: rate limited", say(what, ENGLISH), places[0])
        retry_after = error.response.headers.get("Retry-After", "")
        raise Undelivered(what, places, needed, instead, retry_after, match=match) from error


class DmsClosed(Exception):
    """Discord refused a direct message: the member's DMs are closed to the bot."""

    def __init__(self, first: bool) -> None:
        super().__init__("direct messages closed")
        self.first = first  # the first refusal since they last opened them
