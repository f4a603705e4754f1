"""Boku pictures: a hexagonal board, labels on the edges, marbles and every mark in place."""

from __future__ import annotations

import io
import math
import random
from itertools import combinations

from PIL import Image

from bot.posts.pictures import picture_words
from renderers import boku as picture
from renderers import render, render_png
from renderers.canvas import HEADER
from renderers.themes import CLASSIC
from rules import Highlight
from rules.boku import Boku, BokuState
from rules.boku.board import COLUMNS, NAMES, NEIGHBOURS, POINTS

WORDS = picture_words("en")

GAME = Boku()
CAPTURED = "1: E8\n2: E6 E7 A1\nto move: 1"  # e5xe6 takes e6, which is then blocked


def pixel(image: Image.Image, x: float, y: float) -> tuple[int, ...]:
    colour = image.getpixel((round(x), round(y)))
    assert isinstance(colour, tuple)
    return colour[:3]


def cell_pixel(image: Image.Image, name: str, down: float = 0.6) -> tuple[int, ...]:
    """A pixel inside a cell, below its centre, clear of the faint name written there."""
    x, y = picture.center(POINTS[NAMES.index(name)])
    return pixel(image, x, y + picture.RISE * down)


def near(colour: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def captured_state() -> BokuState:
    state = GAME.parse_diagram(CAPTURED)
    return GAME.apply(state, GAME.parse_move(state, "e5xe6"))


def test_random_positions_render_as_wide_palette_pngs() -> None:
    rng = random.Random(3)
    state = GAME.new()
    while GAME.outcome(state) is None:
        if state.ply % 7 == 0:
            data = render_png("boku", state, names=["Ann", "Bo"], words=WORDS)
            image = Image.open(io.BytesIO(data))
            assert data.startswith(b"\x89PNG") and image.mode == "P"
            assert image.width >= 800 and image.height != image.width
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert render_png("boku", state, words=WORDS).startswith(b"\x89PNG")


def test_cells_are_hexagons_each_neighbour_the_same_distance_away() -> None:
    centres = [picture.center(p) for p in POINTS]
    assert len(set(centres)) == 80
    for cell, neighbours in enumerate(NEIGHBOURS):
        x, y = centres[cell]
        distances = [math.dist((x, y), centres[n]) for n in neighbours]
        assert max(distances) - min(distances) < 1
        assert abs(distances[0] - 2 * picture.RISE) < 1
    # not a square grid: a cell's neighbours lie in six directions, 60 degrees apart
    x, y = centres[NAMES.index("e5")]
    angles = sorted(
        round(math.degrees(math.atan2(y - ny, nx - x))) % 360
        for nx, ny in (centres[n] for n in NEIGHBOURS[NAMES.index("e5")])
    )
    assert [b - a for a, b in zip(angles, angles[1:], strict=False)] == [60] * 5


def test_every_line_is_labelled_where_it_enters_the_board() -> None:
    for q in range(10):
        lowest = min(r for p, r in POINTS if p == q)
        assert picture.LABELS[(q, lowest - 1)] == COLUMNS[q]
    for r in range(10):
        first = min(q for q, p in POINTS if p == r)
        assert picture.LABELS[(first - 1, r)] == str(r + 1)
    assert not set(picture.LABELS) & set(POINTS)
    width, height = picture.SIZE_PX
    for spot in picture.LABELS:
        x, y = picture.center(spot)
        assert 20 <= x <= width - 20 and HEADER + 10 <= y <= height - 10
    for a, b in combinations(picture.LABELS, 2):
        assert math.dist(picture.center(a), picture.center(b)) > 40


def test_marbles_are_dark_and_light_on_empty_cells() -> None:
    state = GAME.parse_diagram("1: E5\n2: F6\nto move: 1")
    image = render("boku", state, words=WORDS).convert("RGB")
    assert near(cell_pixel(image, "e5"), CLASSIC.ink)
    assert near(cell_pixel(image, "f6"), CLASSIC.paper)
    assert near(cell_pixel(image, "d4"), CLASSIC.light_square)


def test_blocked_cell_capture_and_last_placement_are_marked() -> None:
    state = captured_state()
    image = render("boku", state, words=WORDS).convert("RGB")
    assert near(cell_pixel(image, "e6", down=0.75), CLASSIC.blocked.fill)
    x, y = picture.center(POINTS[NAMES.index("e6")])
    assert near(pixel(image, x, y), CLASSIC.capture, 60)
    ring = picture.center(POINTS[NAMES.index("e5")])
    across = range(-picture.RADIUS, picture.RADIUS)
    assert any(near(pixel(image, ring[0] + dx, ring[1]), CLASSIC.path, 40) for dx in across)
    plain = render("boku", state, last_move=Highlight(1, "", ()), words=WORDS).convert("RGB")
    assert not any(near(pixel(plain, ring[0] + dx, ring[1]), CLASSIC.path, 40) for dx in across)


def test_the_blocked_cell_is_explained_only_while_it_is_blocked() -> None:
    blocked = render("boku", captured_state(), words=WORDS).convert("RGB")
    after = captured_state()
    after = GAME.apply(after, GAME.parse_move(after, "a2"))
    free = render("boku", after, words=WORDS).convert("RGB")
    corner = (0, blocked.height - 70, 260, blocked.height)
    assert blocked.crop(corner).tobytes() != free.crop(corner).tobytes()
    assert free.crop(corner).getcolors() == [(260 * 70, CLASSIC.paper)]  # nothing but paper there
    assert not near(cell_pixel(free, "e6", down=0.75), CLASSIC.blocked.fill)


def test_a_winning_line_is_joined_by_a_green_bar() -> None:
    state = GAME.parse_diagram("1: E1 E2 E4 E5\n2: A1\nto move: 1")
    won = GAME.apply(state, GAME.parse_move(state, "e3"))
    (x1, y1), (x2, y2) = (picture.center(POINTS[NAMES.index(n)]) for n in ("e2", "e3"))
    between = ((x1 + x2) / 2, (y1 + y2) / 2)
    assert near(pixel(render("boku", won, words=WORDS).convert("RGB"), *between), CLASSIC.win)
    assert not near(pixel(render("boku", state, words=WORDS).convert("RGB"), *between), CLASSIC.win)
    png = Image.open(io.BytesIO(render_png("boku", won, words=WORDS))).convert("RGB")
    assert near(pixel(png, *between), CLASSIC.win)  # the palette keeps the green


def test_rendering_is_a_pure_function_of_the_state() -> None:
    state = captured_state()
    assert render_png("boku", state, words=WORDS) == render_png("boku", state, words=WORDS)
    assert render_png("boku", state, words=WORDS) == render_png(
        "boku", state, perspective=2, words=WORDS
    )


def test_the_last_placement_stands_out_on_a_dark_marble() -> None:
    """A ring around a dark marble hid in its outline: the mark sits on the marble itself."""
    state = captured_state()  # dark e5 was just placed
    x, y = picture.center(POINTS[NAMES.index("e5")])
    y += picture.RISE * 0.45  # below the cell's name written on the marble
    inside = range(-picture.RISE * 3 // 4, picture.RISE * 3 // 4)

    def seen(image: Image.Image) -> set[str]:
        colours = {pixel(image, x + dx, y) for dx in inside}
        return {
            name
            for name, colour in (
                ("path", CLASSIC.path),
                ("paper", CLASSIC.paper),
                ("marble", CLASSIC.ink),
            )
            if any(near(c, colour, 40) for c in colours)
        }

    assert seen(render("boku", state, words=WORDS).convert("RGB")) == {"path", "paper", "marble"}
    plain = render("boku", state, last_move=Highlight(1, "", ()), words=WORDS).convert("RGB")
    assert seen(plain) == {"marble"}
