"""The words the pictures draw (renderers/words.py), from the catalogue, in the reader's
language: a board in a public post speaks the server's, a private board the member's.

Built where the reader is known (on the event loop, inside `speaking`) and handed to the
thread or worker process that draws: a ContextVar does not reach into another process."""

from __future__ import annotations

from functools import cache

from ai.analysis import Mark
from bot.texts import ENGLISH, catalogue, reading, say, template
from renderers import PictureWords
from rules import GAMES
from rules.outcomes import REASONS
from rules.phrases import phrase


def picture_words(locale: str | None = None) -> PictureWords:
    """Every word of the pictures in `locale` (the reader's, `reading()`, unless given)."""
    return _words(locale or reading())


@cache
def _words(locale: str) -> PictureWords:
    seat_keys = sorted({key for game in GAMES.values() for key in game.seat_keys})
    marks = {mark.value: template(f"analysis.marks.{mark}", locale) for mark in Mark}
    return PictureWords(
        seats={key: say(phrase(key), locale) for key in seat_keys},
        reasons={reason.value: say(phrase(key), locale) for reason, key in REASONS.items()},
        board=_table("pictures.board", locale),
        key=_table("pictures.key", locale),
        graph={**_table("pictures.graph", locale), **marks},
    )


def _table(prefix: str, locale: str) -> dict[str, str]:
    """The templates under `prefix` by their names after it, each in `locale` (English where
    that language lacks it); their placeholders are filled where the picture is drawn."""
    start = f"{prefix}."
    return {
        key.removeprefix(start): template(key, locale)
        for key in catalogue(ENGLISH)
        if key.startswith(start)
    }
