"""Builds renderers/palettes.json: each game's palette in each theme: every colour of the
theme's table exactly, then the blends (anti-aliased edges) median cut finds in the game's
reference picture. Run after changing a theme or a drawing:

    python -m renderers.make_palettes
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any

from PIL import Image

from renderers.palettes import COLOURS, PATH
from renderers.themes import RGB, THEMES, Theme
from rules import GAMES


def colours(table: Any) -> list[RGB]:
    """Every colour in a theme's table, in field order, once each."""
    found: list[RGB] = []
    for field in dataclasses.fields(table):
        value = getattr(table, field.name)
        values = value if isinstance(value, tuple) and not isinstance(value[0], int) else (value,)
        for item in values:
            if dataclasses.is_dataclass(item):
                found.extend(colours(item))
            elif isinstance(item, tuple):
                found.append(item)
    return list(dict.fromkeys(found))


def build(game: str, theme: Theme) -> bytes:
    """The theme's own colours, then what median cut finds in the game's reference picture."""
    exact = colours(theme)
    module = importlib.import_module(f"renderers.{game}")
    reference: Image.Image = module.reference(theme).convert("RGB")
    found = reference.quantize(COLOURS - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = found.getpalette() or []
    blends = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    # Pillow maps a colour to a near palette entry, not always the nearest: a blend close to
    # an exact colour would take that colour's pixels, so it is left out.
    kept = [b for b in blends if all(max(map(_apart, b, e)) > NEAR for e in exact)]
    palette = [channel for colour in exact + kept for channel in colour]
    return bytes(palette[: COLOURS * 3])


NEAR = 10


def _apart(a: int, b: int) -> int:
    return abs(a - b)


def main() -> None:
    table = {
        f"{game}/{theme.name}": build(game, theme).hex()
        for game in GAMES
        for theme in THEMES.values()
    }
    PATH.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(table)} palettes to {PATH}")


if __name__ == "__main__":
    main()
