"""Pictures of positions. Each game has a module of the same name exposing
`render(state, *, last_move, perspective, names, theme, words) -> Image`, `icons(theme)`
(each seat's piece on its plate, for the header), `ground(theme)` (the plate's colours),
`key(theme, words)` (the entries of its key picture) and `reference(theme)` (a busy picture
its palette is built from, by renderers/palettes.py only).

The entry points here take a theme by name or as a `Theme` (None is `classic`), a
perspective (the seat drawn at the bottom; None is seat 1's side) and the words to draw, in
the reader's language (`PictureWords`, renderers/words.py)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from PIL import Image

from renderers.canvas import encode_png, quantize
from renderers.graph import side_by_side
from renderers.key import render_key
from renderers.large import enlarge
from renderers.replay import MAX_BYTES, animate, schedule
from renderers.themes import THEMES, Theme, get_theme
from renderers.words import PictureWords
from rules import Highlight, get_game
from rules.records import Record

__all__ = [
    "THEMES",
    "PictureWords",
    "Theme",
    "get_theme",
    "render",
    "render_comparison",
    "render_key",
    "record_gif",
    "render_png",
    "render_replay",
]


def _module(game_name: str) -> ModuleType:
    return importlib.import_module(f"renderers.{get_game(game_name).name}")


def render(
    game_name: str,
    state: Any,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme | str | None = None,
    words: PictureWords,
) -> Image.Image:
    """`last_move` overrides the state's own last turn; `perspective` puts that seat at the
    bottom; `names` label the seats in the header."""
    image: Image.Image = _module(game_name).render(
        state,
        last_move=last_move,
        perspective=perspective,
        names=names,
        theme=get_theme(theme),
        words=words,
    )
    return image


def render_png(
    game_name: str,
    state: Any,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme | str | None = None,
    large: bool = False,
    words: PictureWords,
) -> bytes:
    """`large`: the board in two halves, one above the other, for phones (renderers/large.py)."""
    chosen = get_theme(theme)
    image = render(
        game_name,
        state,
        last_move=last_move,
        perspective=perspective,
        names=names,
        theme=chosen,
        words=words,
    )
    if large:
        image = enlarge(image, game_name, state, chosen)
    return encode_png(image, get_game(game_name).name, chosen)


def render_replay(
    game_name: str,
    states: Sequence[Any],
    *,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme | str | None = None,
    max_bytes: int = MAX_BYTES,
    words: PictureWords,
) -> bytes:
    """An animated GIF of a whole game, each frame with that turn's last-move marks, within
    the limits of `replay.schedule` (at most 45 s, the final position held 4 s) and under
    `max_bytes` (kept by shrinking the frames)."""
    frames = schedule(len(states))
    module, chosen, key = _module(game_name), get_theme(theme), get_game(game_name).name

    def pictures() -> Iterator[Image.Image]:
        for index, _ in frames:
            yield module.render(
                states[index],
                last_move=None,
                perspective=perspective,
                names=names,
                theme=chosen,
                words=words,
            )

    def to_palette(image: Image.Image) -> Image.Image:
        return quantize(image, key, chosen)

    return animate(pictures, [ms for _, ms in frames], to_palette, max_bytes=max_bytes)


def record_gif(
    record: Record,
    *,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: str | None = None,
    words: PictureWords,
) -> bytes:
    """`render_replay` for a worker process, from the game's record: the record is small to
    send, and the positions are replayed where the GIF is made, not in the bot; the words
    come along, pickled (the reader's language does not cross into the process)."""
    states = list(record.positions(get_game(record.game)))
    return render_replay(
        record.game, states, perspective=perspective, names=names, theme=theme, words=words
    )


def render_comparison(
    game_name: str,
    played: Any,
    better: Any,
    *,
    title: str,
    captions: tuple[str, str],
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme | str | None = None,
    words: PictureWords,
) -> bytes:
    """The position after the move played beside the position after the better move, each
    with its own last-move marks, for an analysis's blunders (renderers/graph.py)."""
    chosen = get_theme(theme)
    boards = [
        render(game_name, state, perspective=perspective, names=names, theme=chosen, words=words)
        for state in (played, better)
    ]
    image = side_by_side(boards, title=title, captions=captions, theme=chosen)
    return encode_png(image, get_game(game_name).name, chosen)
