"""Each game's fixed palette per theme, as data: building one means drawing a busy reference
position (for Kyo, playing to it), seconds of CPU that no bot process should spend. The
palettes are computed once by renderers/make_palettes.py and checked in as
renderers/palettes.json; run it again after changing a theme or a drawing:

    python -m renderers.make_palettes

A palette holds `COLOURS` colours, one short of a GIF's 256, so that a replay's frames keep
an index free to mean "as in the frame before"; stills use the same palette.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from PIL import Image

from renderers.themes import Theme

COLOURS = 255
PATH = Path(__file__).with_name("palettes.json")


@cache
def _table() -> dict[str, str]:
    table: dict[str, str] = json.loads(PATH.read_text())
    return table


@cache
def palette_image(game: str, theme: Theme) -> Image.Image:
    """A one-pixel palette image carrying the game's colours in `theme`."""
    image = Image.new("P", (1, 1))
    image.putpalette(bytes.fromhex(_table()[f"{game}/{theme.name}"]))
    return image
