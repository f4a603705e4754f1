"""Which language a match's place speaks: the one decision behind every post about a match
(see docs/languages.md). A thread or channel speaks its server's language; a private
conversation (a DM or group DM match) the language of the member whose interaction it
answers, else the remembered locale of the person to move (or of its first person)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from bot.posts.conversations import Conversations, private
from bot.service import Match
from bot.service.settings import Settings
from bot.texts import ENGLISH, language_of, speaking

P = ParamSpec("P")
R = TypeVar("R")


class Placed(Protocol):
    """What posts about a match (the announcer): it knows the language of a match's place."""

    async def language(self, match: Match) -> str: ...


S = TypeVar("S", bound=Placed)


async def spoken_in(match: Match, settings: Settings, conversations: Conversations) -> str:
    """The language of the place where `match` is played."""
    if not private(match):
        return await settings.server_language(match.row.guild_id)
    heard = conversations.reachable(match)
    if heard is not None:
        return language_of(str(heard.interaction.locale))
    people = [seat for seat in match.seats if seat.engine is None]
    mover = match.to_move
    reader = mover if mover is not None and mover.engine is None else next(iter(people), None)
    return ENGLISH if reader is None else await settings.member_language(reader.user_id)


def in_its_place(
    post: Callable[Concatenate[S, Match, P], Awaitable[R]],
) -> Callable[Concatenate[S, Match, P], Awaitable[R]]:
    """A post about a match, worded in the language of the place it goes to, whoever's
    interaction caused it."""

    @functools.wraps(post)
    async def posting(poster: S, match: Match, /, *args: P.args, **kw: P.kwargs) -> R:
        with speaking(await poster.language(match)):
            return await post(poster, match, *args, **kw)

    return posting
