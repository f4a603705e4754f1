"""Pictures of positions. Each game has a module of the same name exposing
`render(state, *, last_move, perspective, names) -> Image` and `reference() -> Image`
(a busy picture from which its palette is built once), used for still PNGs and animated
replays alike."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from PIL import Image

from renderers.canvas import encode_png, quantize
from renderers.graph import side_by_side
from renderers.replay import COLOURS, MAX_BYTES, animate
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


def render_replay(
    game_name: str,
    states: Sequence[Any],
    *,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated GIF of a whole game: one frame per state, each with that turn's last-move
    marks, the final position held longest. Kept under `max_bytes` by shrinking the frames."""
    if not states:
        raise ValueError("A replay needs at least one position.")
    module = _module(game_name)

    def frames() -> Iterator[Image.Image]:
        for state in states:
            yield module.render(state, last_move=None, perspective=perspective, names=names)

    def to_palette(image: Image.Image) -> Image.Image:
        return quantize(image, module.__name__, module.reference, COLOURS)

    return animate(frames, len(states), to_palette, max_bytes=max_bytes)


def render_comparison(
    game_name: str,
    played: Any,
    better: Any,
    *,
    title: str,
    captions: tuple[str, str],
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> bytes:
    """The position after the move played beside the position after the better move, each
    with its own last-move marks, for an analysis's blunders (renderers/graph.py)."""
    module = _module(game_name)
    boards = [
        module.render(state, last_move=None, perspective=perspective, names=names)
        for state in (played, better)
    ]
    image = side_by_side(boards, title=title, captions=captions)
    return encode_png(image, module.__name__, module.reference)
