"""Pictures of positions. Each game has a module of the same name exposing
`render(state, *, last_move, perspective, names) -> Image` and `reference() -> Image`
(a busy picture from which its PNG palette is built once)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from PIL import Image

from renderers.canvas import encode_png
from rules import Highlight, get_game


def _module(game_name: str) -> ModuleType:
    return importlib.import_module(f"renderers.{get_game(game_name).name}")


def render(
    game_name: str,
    state: Any,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """`last_move` overrides the state's own last turn; `perspective` puts that seat at the
    bottom; `names` label the seats in the header."""
    module = _module(game_name)
    image: Image.Image = module.render(
        state, last_move=last_move, perspective=perspective, names=names
    )
    return image


def render_png(
    game_name: str,
    state: Any,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    module = _module(game_name)
    image = module.render(state, last_move=last_move, perspective=perspective, names=names)
    return encode_png(image, module.__name__, module.reference)
