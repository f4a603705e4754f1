"""The key to a game's board: every piece and mark it draws, each beside what it means (for
`/rules game topic:board`). Each game module lists its entries with `key(theme)`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.canvas import (
    WIDTH,
    corner_mark,
    cross_mark,
    dot_mark,
    encode_png,
    fit,
    paste_centered,
    plate,
    ring_mark,
    step_mark,
    words_font,
)
from renderers.themes import Ink, Theme, get_theme
from renderers.words import PictureWords
from rules import get_game

SWATCH = 64  # the square each entry's picture fills
PLATE = SWATCH + 4  # what it stands on: a tile's edge meets the plate's
ROW = 76
TITLE = 64
MEANING_WIDTH = WIDTH - SWATCH - 64  # px for what an entry means, right of its picture
MEANING_SIZES = (30, 28, 26)  # px, largest first: still readable at Discord's inline size


@dataclass(frozen=True)
class Entry:
    """One line of a key: a picture (RGBA, at most `SWATCH` square) and what it means."""

    picture: Image.Image
    meaning: str


def _tile(theme: Theme) -> Image.Image:
    return Image.new("RGBA", (SWATCH, SWATCH), theme.light_square)


def route_entries(theme: Theme, words: PictureWords) -> list[Entry]:
    """The last move's route: the line, the dot where it started and the ring where it ended."""
    line = _tile(theme)
    ImageDraw.Draw(line).line((4, SWATCH // 2, SWATCH - 4, SWATCH // 2), fill=theme.path, width=5)
    start, end = _tile(theme), _tile(theme)
    paste_centered(start, dot_mark(SWATCH, theme.path), (SWATCH / 2, SWATCH / 2))
    paste_centered(end, ring_mark(SWATCH, theme.path), (SWATCH / 2, SWATCH / 2))
    return [
        Entry(line, words.key["route"]),
        Entry(start, words.key["route_start"]),
        Entry(end, words.key["route_end"]),
    ]


def capture_entry(theme: Theme, words: PictureWords) -> Entry:
    tile = _tile(theme)
    paste_centered(tile, cross_mark(SWATCH, theme.capture), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, words.key["captured"])


def change_entry(theme: Theme, words: PictureWords, meaning: str = "changed") -> Entry:
    """Brackets on a point: `meaning` names the key's words for what changed it."""
    tile = _tile(theme)
    paste_centered(tile, corner_mark(SWATCH, theme.change), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, words.key[meaning])


def step_entry(theme: Theme, words: PictureWords) -> Entry:
    tile = _tile(theme)
    paste_centered(tile, step_mark(SWATCH * 2 // 3, "3", theme), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, words.say(words.key, "step", step=3))


def key_image(
    game_name: str, theme: Theme | str | None = None, *, words: PictureWords
) -> Image.Image:
    """The key to `game_name`'s board in `theme`: one entry a row under a title, each picture
    on its plate (as the header shows the seats), the words large enough to read at
    Discord's inline size."""
    chosen = get_theme(theme)
    game = get_game(game_name)
    module = importlib.import_module(f"renderers.{game.name}")
    entries: list[Entry] = module.key(chosen, words)
    ground: Ink = module.ground(chosen)
    image = Image.new("RGB", (WIDTH, TITLE + len(entries) * ROW + 12), chosen.paper)
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, WIDTH, TITLE - 12), fill=chosen.header)
    title = words.say(words.key, "title", game=game.title)
    canvas.text((16, 10), title, fill=chosen.header_text, font=words_font(28))
    for index, entry in enumerate(entries):
        top = TITLE + index * ROW
        centre = (24 + SWATCH / 2, top + SWATCH / 2)
        paste_centered(image, plate(PLATE, ground), centre)
        paste_centered(image, entry.picture, centre)
        size = meaning_size(entry.meaning)
        text = fit(entry.meaning, MEANING_WIDTH, size)
        canvas.text(
            (SWATCH + 44, top + SWATCH / 2),
            text,
            fill=chosen.ink,
            font=words_font(size),
            anchor="lm",
        )
    return image


def meaning_size(meaning: str) -> int:
    """The largest of `MEANING_SIZES` at which a meaning fits its row (the smallest, cut short
    with an ellipsis, if none does): a language longer than English still reads whole."""
    return next(
        (size for size in MEANING_SIZES if words_font(size).getlength(meaning) <= MEANING_WIDTH),
        MEANING_SIZES[-1],
    )


def render_key(game_name: str, *, words: PictureWords, theme: Theme | str | None = None) -> bytes:
    """The key picture as a palette PNG."""
    chosen = get_theme(theme)
    return encode_png(key_image(game_name, chosen, words=words), get_game(game_name).name, chosen)
