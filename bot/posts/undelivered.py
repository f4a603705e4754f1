"""Discord's refusals of the bot's posts, as the member who caused them is told: a public post
Discord did not take (Undelivered) and a direct message it refused (DmsClosed)."""

from __future__ import annotations

import discord

from bot.posts.match_texts import Line
from bot.posts.names import safe_name
from bot.service import Match
from bot.texts import Text, say, t
from bot.ui.permissions import label

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
    ) -> None:
        super().__init__(f"could not {what} in channel {channels[0]}")
        self.outage = outage  # Discord answered with a server error (5xx)
        self.what = what
        self.channels = channels  # where it failed, then its parent (threads inherit from it)
        self.needed = needed  # discord.Permissions names, any of which may be the one lacking
        self.instead = instead
        self.retry_after = retry_after

    def explain(
        self, permissions: discord.Permissions, channel_id: int | None, locale: str | None = None
    ) -> str:
        """The sentence for the member; `permissions` are the bot's where they asked, which
        tell exactly what is lacking when that is the same channel or its parent."""
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
            place=f"<#{self.channels[0]}>",
            why=why,
            instead=self.instead,
        )
        return say(sentence, locale)


class DmsClosed(Exception):
    """Discord refused a direct message: the member's DMs are closed to the bot."""

    def __init__(self, first: bool) -> None:
        super().__init__("direct messages closed")
        self.first = first  # the first refusal since they last opened them
