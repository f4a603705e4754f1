"""Themes: every text readable (contrast computed from the tables), sides told apart without
colour, each game's palette fitting its drawing in every theme, and a key to every board."""

from __future__ import annotations

import importlib
import io
import itertools

import pytest
from PIL import Image, ImageChops

from bot.posts.pictures import picture_words
from renderers import THEMES, get_theme, render_key
from renderers.canvas import fit, quantize, turn_line, words_font
from renderers.key import key_image
from renderers.themes import CLASSIC, Theme, contrast, text_pairs
from rules import GAMES

WORDS = picture_words("en")

THEME_LIST = list(THEMES.values())


def by_name(theme: Theme) -> str:
    return theme.name


def test_the_three_themes_are_there_and_named_ones_are_found() -> None:
    assert {"classic", "dark", "high-contrast"} <= set(THEMES)
    assert get_theme(None) is CLASSIC
    assert get_theme(" Dark ") is THEMES["dark"]
    with pytest.raises(ValueError, match="There is no theme 'neon'; choose classic, dark"):
        get_theme("neon")


def test_contrast_is_computed_as_wcag_defines_it() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", THEME_LIST, ids=by_name)
def test_every_text_has_a_contrast_of_at_least_4_5(theme: Theme) -> None:
    low = {
        what: round(contrast(text, ground), 2)
        for what, (text, ground) in text_pairs(theme).items()
        if contrast(text, ground) < 4.5
    }
    assert low == {}


@pytest.mark.parametrize("theme", THEME_LIST, ids=by_name)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sides_differ_without_colour(game: str, theme: Theme) -> None:
    """Each seat's piece, seen in grey (lightness only), differs from every other seat's in
    a good number of pixels: by shape, letter, number or lightness, not by hue alone."""
    icons = importlib.import_module(f"renderers.{game}").icons(theme)
    greys = [
        Image.alpha_composite(Image.new("RGBA", icon.size, (128, 128, 128, 255)), icon).convert("L")
        for icon in icons
    ]
    for a, b in itertools.combinations(greys, 2):
        differing = ImageChops.difference(a, b).point(lambda v: 255 if v > 60 else 0)
        assert differing.histogram()[255] >= 20


@pytest.mark.parametrize("theme", THEME_LIST, ids=by_name)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_checked_in_palette_holds_the_drawing_s_colours(game: str, theme: Theme) -> None:
    """The key shows every piece and mark: mapped onto the game's palette it must barely
    change (the palette is data, built by renderers/make_palettes.py)."""
    picture = key_image(game, theme, words=WORDS)
    mapped = quantize(picture, game, theme).convert("RGB")
    error = ImageChops.difference(picture, mapped).convert("L")
    histogram = error.histogram()
    mean = sum(level * count for level, count in enumerate(histogram)) / sum(histogram)
    assert mean < 1.5


KEY_WORDS = {
    "boost": ["Dragon", "edge ring", "Captured", "seat 4"],
    "quorum": ["White's home", "Black's home", "Objective"],
    "boku": ["Blocked", "winning line", "last marble placed"],
    "razzle": ["ball", "Ineligible", "knight move or a pass"],
    "kyo": ["Shield", "light mana", "struck", "Step 3", "double outline", "count"],
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_key_to_its_marks(game: str) -> None:
    module = importlib.import_module(f"renderers.{game}")
    meanings = " / ".join(entry.meaning for entry in module.key(CLASSIC, WORDS))
    for word in KEY_WORDS[game]:
        assert word in meanings
    for theme in THEME_LIST:
        data = render_key(game, theme=theme.name, words=WORDS)
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG") and image.mode == "P" and image.width == 840
        assert image.height > 64 * len(module.key(theme, WORDS))


def test_turns_are_numbered_as_in_the_record() -> None:
    assert turn_line(0, None, "", WORDS) == "No turns yet"
    assert turn_line(104, "bob", "e5", WORDS) == "Turn 104: bob played e5"


def test_a_long_move_is_shortened_with_an_ellipsis() -> None:
    route = "i9:0-h9-" + "-".join(f"{c}{r}" for c in "hgfedcba" for r in (8, 7, 6, 5)) + "-c1"
    shown = fit(f"Turn 40: bob played {route}", 808, 20)
    assert shown.endswith("…") and shown.startswith("Turn 40: bob played i9:0-h9-")
    assert words_font(20).getlength(shown) <= 808
    assert fit("Turn 3: bob played e5", 808, 20) == "Turn 3: bob played e5"
