import dataclasses
import io
import random

from PIL import Image

from bot.posts.pictures import picture_words
from fixtures.positions import diagram
from renderers import render, render_png
from renderers.canvas import HEADER, Grid
from renderers.themes import CLASSIC
from rules import Highlight
from rules.razzle import RazzleDazzle, RazzleState

WORDS = picture_words("en")

GAME = RazzleDazzle()
GRID = Grid(7, 8)

GOAL = diagram("razzle", "a pass to the back row")


def pixel(image: Image.Image, file: float, rank: float, grid: Grid = GRID) -> tuple[int, ...]:
    """The colour at a (fractional) board coordinate; whole numbers are a square's centre."""
    x, y = grid.center(file, rank)  # type: ignore[arg-type]
    value = image.getpixel((int(x), int(y)))
    assert isinstance(value, tuple)
    return value


def ball_at(image: Image.Image, file: int, rank: int, grid: Grid = GRID) -> bool:
    """Yellow just beside the centre (the centre itself is on the ball's seams)."""
    return near(pixel(image, file + 0.09, rank, grid), CLASSIC.ball)


def near(colour: tuple[int, ...], target: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], target, strict=True))


def play(state: RazzleState, *moves: str) -> RazzleState:
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def test_random_positions_render_as_wide_small_palette_pngs() -> None:
    rng = random.Random(3)
    state = GAME.new()
    for _ in range(30):
        data = render_png("razzle", state, names=["Ann", "Bo"], words=WORDS)
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG")
        assert image.mode == "P"
        assert image.width >= 800 and image.height != image.width
        assert len(data) <= 60 * 1024
        if GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))


def test_the_ball_sits_visibly_on_its_holder() -> None:
    image = render("razzle", GAME.new(), words=WORDS)
    assert ball_at(image, 3, 0)  # d1 holds player 1's ball
    assert ball_at(image, 3, 7)  # d8 holds player 2's ball
    assert not ball_at(image, 2, 0)  # c1 is a plain piece
    after = render("razzle", play(GAME.new(), "d1-e1"), words=WORDS)
    assert ball_at(after, 4, 0) and not ball_at(after, 3, 0)


def test_the_two_sides_differ_in_shape_not_only_colour() -> None:
    image = render("razzle", GAME.new(), words=WORDS)
    # Towards a corner, a square piece still covers what a round one leaves to the board.
    light_round = pixel(image, 1 - 0.27, 0 - 0.27)
    dark_square = pixel(image, 1 - 0.27, 7 - 0.27)
    assert near(dark_square, (34, 34, 38))
    assert not near(light_round, (250, 248, 242), 10)


def test_ineligible_pieces_carry_a_badge() -> None:
    state = play(GAME.new(), "d1-e1")
    image = render("razzle", state, words=WORDS)
    right, up = 0.86 * 0.34, 0.86 * 0.34 + 0.08  # in the badge, above its white bar
    assert near(pixel(image, 3 + right, up), CLASSIC.badge.fill, 40)  # d1 passed
    assert near(pixel(image, 4 + right, up), CLASSIC.badge.fill, 40)  # e1 received
    assert not near(pixel(image, 2 + right, up), CLASSIC.badge.fill, 40)  # c1 untouched


def test_a_pass_chain_is_drawn_as_one_arrow_per_pass() -> None:
    state = play(GAME.parse_diagram(GOAL), "c5-f2-f8")
    image = render("razzle", state, words=WORDS)
    assert near(pixel(image, 3.5, 2.5), CLASSIC.path)  # on the diagonal c5-f2
    assert near(pixel(image, 5, 5), CLASSIC.path)  # on the file f2-f8
    plain = render("razzle", state, last_move=Highlight(1, "", ()), words=WORDS)
    assert not near(pixel(plain, 3.5, 2.5), CLASSIC.path)


def test_the_last_knight_move_is_drawn_as_an_arrow() -> None:
    state = play(GAME.new(), "b1-c3")
    image = render("razzle", state, words=WORDS)
    assert near(pixel(image, 1.5, 1), CLASSIC.path)  # halfway from b1 to c3
    assert near(pixel(image, 1, 0), CLASSIC.path)  # the dot where it started
    plain = render("razzle", state, last_move=Highlight(1, "", ()), words=WORDS)
    assert plain.size == image.size and plain.tobytes() != image.tobytes()


def test_a_forced_pass_is_announced_in_the_header() -> None:
    forcing = diagram("razzle", "seed: a move beside the ball forces a pass")
    forced = play(GAME.parse_diagram(forcing), "c4-d2")
    assert forced.forced
    relaxed = dataclasses.replace(forced, forced=False)
    one, two = render("razzle", forced, words=WORDS), render("razzle", relaxed, words=WORDS)
    assert (
        one.crop((0, 0, one.width, HEADER)).tobytes()
        != two.crop((0, 0, two.width, HEADER)).tobytes()
    )
    assert (
        one.crop((0, HEADER, one.width, one.height)).tobytes()
        == two.crop((0, HEADER, two.width, two.height)).tobytes()
    )


def test_rendering_is_a_pure_function_of_the_state() -> None:
    state = play(GAME.new(), "d1-e1-f1")
    assert render_png("razzle", state, words=WORDS) == render_png("razzle", state, words=WORDS)


def test_perspective_turns_the_board() -> None:
    state = play(GAME.new(), "d1-e1")
    upright, flipped = (
        render("razzle", state, words=WORDS),
        render("razzle", state, perspective=2, words=WORDS),
    )
    # Seen from player 2's side, e1 (now holding the ball) is where c8 normally is.
    assert ball_at(flipped, 4, 0, Grid(7, 8, flipped=True))
    assert ball_at(upright, 4, 0) and not ball_at(upright, 2, 7)
    assert not ball_at(flipped, 4, 0)
