"""Every game drawn from each seat's side: that seat's pieces sit in the lower half of the
board, in every theme."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.posts.pictures import picture_words
from renderers import THEMES, render
from renderers.canvas import HEADER
from renderers.themes import RGB, Theme
from rules import get_game

WORDS = picture_words("en")

CASES = [
    ("boost", 2, 1), ("boost", 2, 2),
    ("boost", 3, 1), ("boost", 3, 2), ("boost", 3, 3),
    ("boost", 4, 1), ("boost", 4, 2), ("boost", 4, 3), ("boost", 4, 4),
    ("quorum", 2, 1), ("quorum", 2, 2),
    ("razzle", 2, 1), ("razzle", 2, 2),
    ("kyo", 2, 1), ("kyo", 2, 2),
]  # fmt: skip


def fill(game: str, seat: int, theme: Theme) -> RGB:
    """The colour only `seat`'s pieces are filled with."""
    if game == "boost":
        return theme.seats[seat - 1].fill
    if game == "kyo":
        return (theme.gold if seat == 1 else theme.red).pawn.fill
    return (theme.light if seat == 1 else theme.dark).fill


def lower_share(image: Image.Image, colour: RGB) -> float:
    """The share of `colour`'s pixels below the middle of the picture under the header. The
    margins round the board are alike above and below, so only the pieces tip it."""
    rgb = image.convert("RGB")
    difference = ImageChops.difference(rgb, Image.new("RGB", rgb.size, colour))
    red, green, blue = difference.split()
    largest = ImageChops.lighter(red, ImageChops.lighter(green, blue))
    matching = largest.point(lambda value: 255 if value <= 6 else 0)
    middle = (HEADER + rgb.height) // 2
    above = matching.crop((0, HEADER, rgb.width, middle)).histogram()[255]
    below = matching.crop((0, middle, rgb.width, rgb.height)).histogram()[255]
    assert above + below > 0
    return below / (above + below)


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=lambda theme: theme.name)
@pytest.mark.parametrize(("game", "players", "seat"), CASES)
def test_each_seat_sees_its_own_pieces_nearest(
    game: str, players: int, seat: int, theme: Theme
) -> None:
    state = get_game(game).new(players=players)
    mine = fill(game, seat, theme)
    own_side = lower_share(render(game, state, perspective=seat, theme=theme, words=WORDS), mine)
    assert own_side > 0.5
    assert lower_share(render(game, state, theme=theme, words=WORDS), mine) <= own_side


def test_boku_looks_the_same_from_both_sides() -> None:
    state = get_game("boku").new()
    assert (
        render("boku", state, perspective=2, words=WORDS).tobytes()
        == render("boku", state, words=WORDS).tobytes()
    )
