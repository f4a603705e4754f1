import io
import itertools
import math
import random
from collections.abc import Sequence

import pytest
from PIL import Image

from bot.posts.pictures import picture_words
from bot.texts import say, t
from renderers import render, render_png
from renderers.boost import dragon, piece
from renderers.canvas import Grid
from renderers.themes import CLASSIC, THEMES, Theme
from rules import Highlight, get_game
from rules.boost import Boost, BoostState
from rules.boost.board import KNIGHT, PAWN, TOWER

WORDS = picture_words("en")

REGISTERED = get_game("boost")
assert isinstance(REGISTERED, Boost)
GAME: Boost = REGISTERED

# Machado et al. (2009) full-severity colour-vision-deficiency matrices, on linear RGB.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
# sRGB (D65) linear RGB to CIE XYZ, and the D65 white point.
TO_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
WHITE = (0.95047, 1.0, 1.08883)
Matrix = tuple[tuple[float, ...], ...]
Lab = tuple[float, float, float]


def times(matrix: Matrix, vector: Sequence[float]) -> list[float]:
    return [sum(m * v for m, v in zip(row, vector, strict=True)) for row in matrix]


def seen_as(colour: tuple[int, int, int], matrix: Matrix) -> Lab:
    """The CIELAB colour of an sRGB colour as seen through a deficiency's matrix."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    simulated = [min(1.0, max(0.0, v)) for v in times(matrix, [linear(c) for c in colour])]
    fx, fy, fz = (f(v / w) for v, w in zip(times(TO_XYZ, simulated), WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Lab, b: Lab) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, over 30 reads as another colour."""
    return math.dist(a, b)


def played(variant: str, players: int, plies: int, seed: int = 1) -> BoostState:
    rng = random.Random(seed)
    state = GAME.new(players=players, variant=variant, seed=seed)
    for _ in range(plies):
        if GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


@pytest.mark.parametrize(
    ("variant", "players"),
    [("standard", 2), ("standard", 3), ("standard", 4), ("mini", 2), ("quickstart", 2)],
)
def test_positions_render_as_small_wide_palette_pngs(variant: str, players: int) -> None:
    for plies in (0, 15, 40):
        state = played(variant, players, plies)
        data = render_png("boost", state, names=["Ann", "Bo", "Cy", "Di"][:players], words=WORDS)
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG") and image.mode == "P"
        assert image.width >= 800 and image.height != image.width
        assert len(data) < 60 * 1024


@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda theme: theme.name)
def test_no_two_seats_share_a_hue_family(theme: Theme) -> None:
    """Seats 1 and 3 were once dark and light blue: their hue angles lay 8 degrees apart."""
    for a, b in itertools.combinations(theme.seats, 2):
        (_, a1, b1), (_, a2, b2) = seen_as(a.fill, NORMAL), seen_as(b.fill, NORMAL)
        apart = abs(math.degrees(math.atan2(b1, a1) - math.atan2(b2, a2))) % 360
        assert min(apart, 360 - apart) > 30, (a, b)


@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda theme: theme.name)
@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_seat_colours_stay_apart_for_colour_blind_eyes(deficiency: str, theme: Theme) -> None:
    matrix = DEFICIENCIES[deficiency]
    for a, b in itertools.combinations(theme.seats, 2):
        assert delta_e(seen_as(a.fill, matrix), seen_as(b.fill, matrix)) > 30, (a, b)


def test_the_simulation_confuses_what_it_should() -> None:
    """Red and green that differ in hue only are close for red-green colour blindness."""
    red, green = (200, 90, 40), (110, 130, 40)
    assert delta_e(seen_as(red, NORMAL), seen_as(green, NORMAL)) > 40
    for matrix in DEFICIENCIES.values():
        assert delta_e(seen_as(red, matrix), seen_as(green, matrix)) < 15


INLINE_WIDTH = 320  # about how wide Discord shows an image in a channel


def test_piece_kinds_differ_in_shape_and_seats_in_more_than_colour() -> None:
    outlines = [piece(kind, 1, 60).getchannel("A").tobytes() for kind in (PAWN, KNIGHT, TOWER)]
    outlines.append(dragon(60).getchannel("A").tobytes())
    assert len(set(outlines)) == 4
    # Beside the letter each piece shows its seat number, big enough to read at inline size.
    size = int(Grid(9, 9).cell * 0.84)
    inked = []
    for seat in (1, 2, 3, 4):
        image = piece(PAWN, seat, size).convert("RGB")
        inked.append(
            frozenset(
                (x, y)
                for x in range(size * 3 // 10, size * 7 // 10)
                for y in range(size * 15 // 100, size * 85 // 100)
                if close(pixel(image, (x, y)), CLASSIC.seats[seat - 1].ink, 150)
            )
        )
    letter = frozenset.intersection(*inked)
    for seat, ink in enumerate(inked, start=1):
        rows = {y for _, y in ink - letter}
        height = (max(rows) - min(rows) + 1) * INLINE_WIDTH / 840
        assert height >= 8, (seat, height)


def pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, ...]:
    value = image.convert("RGB").getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return value


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 60) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) < tolerance


def test_the_last_move_s_path_and_captures_are_marked() -> None:
    state = GAME.parse_diagram(
        """
        . . . . . P P P P
        . . . . . . . . .
        . . . . . . . . .
        . . p . . . . . .
        . . P . . . . . .
        . p . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        p p p p . . . . .
        """
    )
    after = GAME.apply(state, GAME.parse_move(state, "b4c4"))
    assert after.last is not None and after.last.captured == ((2, 4),)
    image = render("boost", after, words=WORDS)
    grid = Grid(9, 9)
    (start_x, y), (end_x, _) = grid.center(1, 3), grid.center(2, 3)
    assert close(pixel(image, ((start_x + end_x) / 2, y + 1)), CLASSIC.path)
    assert close(pixel(image, grid.center(2, 4)), CLASSIC.capture)
    plain = render("boost", after, last_move=Highlight(1, ""), words=WORDS)
    assert plain.tobytes() != image.tobytes()


def test_defeated_players_are_shown_in_the_header() -> None:
    state = GAME.new(players=3, seed=2)
    out = GAME.resign(state, 3)
    before = render("boost", state, words=WORDS).crop((0, 0, 840, 124))
    after = render("boost", out, words=WORDS).crop((0, 0, 840, 124))
    assert before.tobytes() != after.tobytes()
    board_before = render("boost", state, words=WORDS).crop((0, 124, 840, 900))
    board_after = render("boost", out, words=WORDS).crop((0, 124, 840, 900))
    assert board_before.tobytes() == board_after.tobytes(), "the pieces stay on the board"


def test_rendering_is_pure_and_perspective_turns_the_board() -> None:
    state = played("standard", 2, 10)
    assert render_png("boost", state, words=WORDS) == render_png("boost", state, words=WORDS)
    assert (
        render("boost", state, words=WORDS).tobytes()
        != render("boost", state, perspective=2, words=WORDS).tobytes()
    )
    assert (
        render("boost", state, words=WORDS).tobytes()
        == render("boost", state, perspective=1, words=WORDS).tobytes()
    )
    four = played("standard", 4, 5)
    assert (
        render("boost", four, perspective=3, words=WORDS).tobytes()
        == render("boost", four, words=WORDS).tobytes()
    )


def test_the_picture_shows_the_build_area_the_rules_explain() -> None:
    text = say(t("help.boost.building"))
    assert "darker outer ring" in text and "lighter inner area (b2 to h8" in text
    image = render("boost", GAME.new(players=2, variant="dragonless"), words=WORDS)
    grid = Grid(9, 9)

    def ground(file: int, rank: int) -> int:
        """Brightness of the board just off a point, clear of lines and pieces."""
        x, y = grid.center(file, rank)
        return sum(pixel(image, (x + grid.cell * 0.3, y + grid.cell * 0.3)))

    assert ground(1, 1) > ground(0, 1) + 30  # b2 is inside, a2 on the edge
    assert ground(7, 7) > ground(8, 7) + 30  # h8 inside, i8 on the edge
    assert ground(4, 4) == ground(1, 1) == ground(7, 7)
