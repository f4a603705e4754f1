"""Legends show in every theme. The header's seat swatches and the key's pictures stand on a
plate of the game's ground, and wherever a picture meets a ground of its own colour an edge
shows where it ends: every pixel of its rim lies within `REACH` px of one that contrasts
with the ground by 3:1 or more (WCAG's minimum for graphics), as a black marble on a black
header did not. Quorum's swatches read as the rules draw the stones: White hollow (○),
Black filled (●)."""

from __future__ import annotations

import importlib

import pytest
from PIL import Image, ImageChops, ImageFilter

from bot.posts.pictures import picture_words
from renderers import THEMES, render
from renderers.canvas import LEGEND, plate, seat_spot, swatch
from renderers.key import PLATE, key_image
from renderers.themes import RGB, Theme, contrast
from rules import GAMES, get_game

WORDS = picture_words("en")

THEME_LIST = list(THEMES.values())
NON_TEXT = 3.0
REACH = 3
HOLLOW = 1.5  # at most this contrast between a hollow stone's middle and what it stands on


def laid(picture: Image.Image, under: Image.Image | RGB) -> Image.Image:
    """`picture` centred on `under` (a picture, or a plain colour), as RGB."""
    if not isinstance(under, Image.Image):
        under = Image.new("RGBA", picture.size, (*under, 255))
    base = under.convert("RGBA")
    base.alpha_composite(
        picture, ((base.width - picture.width) // 2, (base.height - picture.height) // 2)
    )
    return base.convert("RGB")


def contrasting(picture: Image.Image, ground: RGB) -> Image.Image:
    """White where an RGB picture contrasts with `ground` by `NON_TEXT` or more."""
    seen: dict[bytes, int] = {}
    data = picture.tobytes()
    values = bytearray(len(data) // 3)
    for index in range(len(values)):
        colour = data[3 * index : 3 * index + 3]
        if colour not in seen:
            rgb = (colour[0], colour[1], colour[2])
            seen[colour] = 255 if contrast(rgb, ground) >= NON_TEXT else 0
        values[index] = seen[colour]
    return Image.frombytes("L", picture.size, bytes(values))


def unseen_rim(picture: Image.Image, ground: RGB, under: Image.Image | None = None) -> float:
    """The share of the picture's rim (its opaque pixels next to transparent ones, or its
    border) with no pixel within `REACH` px that contrasts with `ground`, the picture laid
    on `under` (a plate of that ground), or on the plain ground."""
    size = picture.size if under is None else under.size
    alpha = Image.new("L", (size[0] + 2, size[1] + 2))
    opaque = picture.getchannel("A").point(lambda value: 255 if value >= 128 else 0)
    alpha.paste(opaque, ((size[0] - picture.width) // 2 + 1, (size[1] - picture.height) // 2 + 1))
    rim = ImageChops.subtract(alpha, alpha.filter(ImageFilter.MinFilter(3)))
    rim = rim.crop((1, 1, size[0] + 1, size[1] + 1))
    scene = laid(picture, ground if under is None else under)
    near = contrasting(scene, ground).filter(ImageFilter.MaxFilter(2 * REACH + 1))
    total = rim.histogram()[255]
    assert total > 0
    return ImageChops.subtract(rim, near).histogram()[255] / total


def module(game: str) -> object:
    return importlib.import_module(f"renderers.{game}")


@pytest.mark.parametrize("theme", THEME_LIST, ids=lambda theme: theme.name)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_header_swatches_show(game: str, theme: Theme) -> None:
    """Each seat's plate shows on the header, each piece on its plate, and the picture's
    header holds them where the seats are."""
    ground = module(game).ground(theme)  # type: ignore[attr-defined]
    icons = module(game).icons(theme)  # type: ignore[attr-defined]
    assert unseen_rim(plate(LEGEND, ground), theme.header) <= 0.02
    for icon in icons:
        assert unseen_rim(icon, ground.fill, plate(LEGEND, ground)) <= 0.02
    players = 4 if game == "boost" else 2
    state = get_game(game).new(players=players)
    header = render(game, state, theme=theme, words=WORDS).convert("RGB")
    for index in range(players):
        left, top = seat_spot(index, players)
        corner = (left + 16 - LEGEND // 2, top + 17 - LEGEND // 2)
        shown = header.crop((*corner, corner[0] + LEGEND, corner[1] + LEGEND))
        expected = swatch(icons[index], ground)
        laid = Image.new("RGB", expected.size, theme.header)
        laid.paste(expected, (0, 0), expected)
        opaque = expected.getchannel("A").point(lambda value: 255 if value == 255 else 0)
        difference = ImageChops.multiply(ImageChops.difference(shown, laid).convert("L"), opaque)
        assert not any(difference.histogram()[3:])


@pytest.mark.parametrize("theme", THEME_LIST, ids=lambda theme: theme.name)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_key_s_pictures_show(game: str, theme: Theme) -> None:
    """Each entry of the key on its plate, each plate on the paper."""
    ground = module(game).ground(theme)  # type: ignore[attr-defined]
    assert unseen_rim(plate(PLATE, ground), theme.paper) <= 0.02
    for entry in module(game).key(theme, WORDS):  # type: ignore[attr-defined]
        assert unseen_rim(entry.picture, ground.fill, plate(PLATE, ground)) <= 0.02, entry.meaning
    assert key_image(game, theme, words=WORDS).width == 840


@pytest.mark.parametrize("theme", THEME_LIST, ids=lambda theme: theme.name)
def test_quorum_s_swatches_read_as_the_rules_draw_the_stones(theme: Theme) -> None:
    """The rules draw White's stones as hollow circles and Black's as filled ones: on its
    plate, White's swatch is a ring round the plate's own colour, Black's a disc that
    contrasts with it (a dark stone on the dark header read as a ring)."""
    quorum = module("quorum")
    ground = quorum.ground(theme)  # type: ignore[attr-defined]
    white, black = (swatch(icon, ground) for icon in quorum.icons(theme))  # type: ignore[attr-defined]

    def middle(picture: Image.Image) -> RGB:
        centre = picture.convert("RGB").crop(
            (LEGEND // 2 - 4, LEGEND // 2 - 4, LEGEND // 2 + 4, LEGEND // 2 + 4)
        )
        colour = centre.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
        assert isinstance(colour, tuple)
        return colour[0], colour[1], colour[2]

    assert contrast(middle(white), ground.fill) <= HOLLOW
    assert contrast(middle(black), ground.fill) >= NON_TEXT
