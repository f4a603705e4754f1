import io
import itertools
import random

import pytest
from PIL import Image

from renderers import render, render_png
from renderers.boost import SEATS, dragon, piece
from renderers.canvas import CAPTURE_COLOUR, PATH_COLOUR, Grid
from rules import Highlight, get_game
from rules.boost import Boost, BoostState
from rules.boost.board import KNIGHT, PAWN, TOWER

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
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def seen_as(colour: tuple[int, int, int], matrix: tuple[tuple[float, ...], ...]) -> list[float]:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def gamma(v: float) -> float:
        v = min(1.0, max(0.0, v))
        return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)

    rgb = [linear(c) for c in colour]
    return [gamma(sum(row[i] * rgb[i] for i in range(3))) for row in matrix]


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
        data = render_png("boost", state, names=["Ann", "Bo", "Cy", "Di"][:players])
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG") and image.mode == "P"
        assert image.width >= 800 and image.height != image.width
        assert len(data) < 60 * 1024


def test_seat_colours_stay_apart_for_colour_blind_eyes() -> None:
    fills = [fill for fill, _ in SEATS.values()]
    for name, matrix in DEFICIENCIES.items():
        for a, b in itertools.combinations(fills, 2):
            distance = sum(
                (x - y) ** 2 for x, y in zip(seen_as(a, matrix), seen_as(b, matrix), strict=True)
            )
            assert distance**0.5 > 60, (name, a, b)


def test_piece_kinds_differ_in_shape_and_seats_in_more_than_colour() -> None:
    outlines = [piece(kind, 1, 60).getchannel("A").tobytes() for kind in (PAWN, KNIGHT, TOWER)]
    outlines.append(dragon(60).getchannel("A").tobytes())
    assert len(set(outlines)) == 4
    # Under the letter each piece shows its seat number, so seats differ by more than colour.
    bands = []
    for seat in (1, 2, 3, 4):
        image = piece(PAWN, seat, 60).convert("RGB")
        ink = SEATS[seat][1]
        band = frozenset(
            (x, y)
            for x in range(22, 38)
            for y in range(40, 51)
            if close(pixel(image, (x, y)), ink, 150)
        )
        assert len(band) > 5, seat
        bands.append(band)
    assert len(set(bands)) == 4


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
    image = render("boost", after)
    grid = Grid(9, 9)
    (start_x, y), (end_x, _) = grid.center(1, 3), grid.center(2, 3)
    assert close(pixel(image, ((start_x + end_x) / 2, y + 1)), PATH_COLOUR)
    assert close(pixel(image, grid.center(2, 4)), CAPTURE_COLOUR)
    plain = render("boost", after, last_move=Highlight(1, ""))
    assert plain.tobytes() != image.tobytes()


def test_defeated_players_are_shown_in_the_header() -> None:
    state = GAME.new(players=3, seed=2)
    out = GAME.resign(state, 3)
    before = render("boost", state).crop((0, 0, 840, 124))
    after = render("boost", out).crop((0, 0, 840, 124))
    assert before.tobytes() != after.tobytes()
    board_before = render("boost", state).crop((0, 124, 840, 900))
    board_after = render("boost", out).crop((0, 124, 840, 900))
    assert board_before.tobytes() == board_after.tobytes(), "the pieces stay on the board"


def test_rendering_is_pure_and_perspective_turns_the_board() -> None:
    state = played("standard", 2, 10)
    assert render_png("boost", state) == render_png("boost", state)
    assert render("boost", state).tobytes() != render("boost", state, perspective=2).tobytes()
    assert render("boost", state).tobytes() == render("boost", state, perspective=1).tobytes()
    four = played("standard", 4, 5)
    assert render("boost", four, perspective=3).tobytes() == render("boost", four).tobytes()
