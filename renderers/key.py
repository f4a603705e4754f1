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
    font,
    paste_centered,
    plate,
    ring_mark,
    step_mark,
)
from renderers.themes import Ink, Theme, get_theme
from rules import get_game

SWATCH = 64  # the square each entry's picture fills
PLATE = SWATCH + 4  # what it stands on: a tile's edge meets the plate's
ROW = 76
TITLE = 64


@dataclass(frozen=True)
class Entry:
    """One line of a key: a picture (RGBA, at most `SWATCH` square) and what it means."""

    picture: Image.Image
    meaning: str


def _tile(theme: Theme) -> Image.Image:
    return Image.new("RGBA", (SWATCH, SWATCH), theme.light_square)


def route_entries(theme: Theme) -> list[Entry]:
    """The last move's route: the line, the dot where it started and the ring where it ended."""
    line = _tile(theme)
    ImageDraw.Draw(line).line((4, SWATCH // 2, SWATCH - 4, SWATCH // 2), fill=theme.path, width=5)
    start, end = _tile(theme), _tile(theme)
    paste_centered(start, dot_mark(SWATCH, theme.path), (SWATCH / 2, SWATCH / 2))
    paste_centered(end, ring_mark(SWATCH, theme.path), (SWATCH / 2, SWATCH / 2))
    return [
        Entry(line, "Last move's route"),
        Entry(start, "Where the last move started"),
        Entry(end, "Where the last move ended"),
    ]


def capture_entry(theme: Theme) -> Entry:
    tile = _tile(theme)
    paste_centered(tile, cross_mark(SWATCH, theme.capture), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, "Captured by the last move")


def change_entry(theme: Theme, meaning: str = "Changed by the last move") -> Entry:
    tile = _tile(theme)
    paste_centered(tile, corner_mark(SWATCH, theme.change), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, meaning)


def step_entry(theme: Theme) -> Entry:
    tile = _tile(theme)
    paste_centered(tile, step_mark(SWATCH * 2 // 3, "3", theme), (SWATCH / 2, SWATCH / 2))
    return Entry(tile, "Step 3 of a long route (numbered in order)")


def key_image(game_name: str, theme: Theme | str | None = None) -> Image.Image:
    """The key to `game_name`'s board in `theme`: one entry a row under a title, each picture
    on its plate (as the header shows the seats), the words large enough to read at
    Discord's inline size."""
    chosen = get_theme(theme)
    game = get_game(game_name)
    module = importlib.import_module(f"renderers.{game.name}")
    entries: list[Entry] = module.key(chosen)
    ground: Ink = module.ground(chosen)
    image = Image.new("RGB", (WIDTH, TITLE + len(entries) * ROW + 12), chosen.paper)
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, WIDTH, TITLE - 12), fill=chosen.header)
    canvas.text((16, 10), f"{game.title}: key to the board", fill=chosen.header_text, font=font(28))
    for index, entry in enumerate(entries):
        top = TITLE + index * ROW
        centre = (24 + SWATCH / 2, top + SWATCH / 2)
        paste_centered(image, plate(PLATE, ground), centre)
        paste_centered(image, entry.picture, centre)
        text = fit(entry.meaning, WIDTH - SWATCH - 64, 30)
        canvas.text(
            (SWATCH + 44, top + SWATCH / 2), text, fill=chosen.ink, font=font(30), anchor="lm"
        )
    return image


def render_key(game_name: str, *, theme: Theme | str | None = None) -> bytes:
    """The key picture as a palette PNG."""
    chosen = get_theme(theme)
    return encode_png(key_image(game_name, chosen), get_game(game_name).name, chosen)
