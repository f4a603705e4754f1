"""The large board (renderers/large.py): at phone width (400 px across) each game's squares
are at least 1.5x as big as in the normal picture, and the halves are the normal picture's own
pixels, so nothing is blurred or lost."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.posts.pictures import picture_words
from renderers import THEMES, render, render_png
from renderers.canvas import HEADER
from renderers.large import GAP, cut, enlarge, square
from rules import GAMES, get_game

WORDS = picture_words("en")

PHONE = 400


@pytest.mark.parametrize("game", sorted(GAMES))
def test_large_squares_are_half_again_as_big_at_phone_width(game: str) -> None:
    state = get_game(game).new()
    normal = render(game, state, words=WORDS)
    large = enlarge(normal, game, state, THEMES["classic"])
    side = square(game, state)
    assert side * PHONE / large.width >= 1.5 * side * PHONE / normal.width
    left_end, right_start = cut(game, state)
    left = normal.crop((0, HEADER, left_end, normal.height))
    right = normal.crop((right_start, HEADER, normal.width, normal.height))
    body = normal.height - HEADER
    left_top = large.height - 2 * body - GAP
    assert left_top == round(HEADER * large.width / normal.width), "the header, shrunk"
    assert large.crop((0, left_top, left.width, left_top + body)) == left
    right_left = large.width - right.width
    assert large.crop((right_left, large.height - body, large.width, large.height)) == right


def test_the_large_png_is_the_enlarged_picture() -> None:
    state = get_game("kyo").new()
    png = render_png("kyo", state, theme="dark", large=True, words=WORDS)
    expected = enlarge(
        render("kyo", state, theme="dark", words=WORDS), "kyo", state, THEMES["dark"]
    )
    assert Image.open(io.BytesIO(png)).size == expected.size
