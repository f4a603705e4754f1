import io
import random

from PIL import Image

from bot.posts.pictures import picture_words
from renderers import render, render_png
from rules import Highlight, get_game

WORDS = picture_words("en")

GAME = get_game("quorum")


def test_random_positions_render_as_wide_palette_pngs() -> None:
    rng = random.Random(3)
    state = GAME.new()
    for _ in range(25):
        data = render_png("quorum", state, names=["Ann", "Bo"], words=WORDS)
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG")
        assert image.mode == "P"
        assert image.width >= 800 and image.height != image.width
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))


def test_the_last_move_is_marked_on_the_board() -> None:
    state = GAME.new()
    after = GAME.apply(state, GAME.parse_move(state, "a1e3"))
    plain = render("quorum", after, last_move=Highlight(1, "", ()), words=WORDS)
    marked = render("quorum", after, words=WORDS)
    assert plain.size == marked.size
    assert plain.tobytes() != marked.tobytes()


def test_rendering_is_a_pure_function_of_the_state() -> None:
    state = GAME.apply(GAME.new(), GAME.parse_move(GAME.new(), "a1e3"))
    assert render_png("quorum", state, words=WORDS) == render_png("quorum", state, words=WORDS)


def test_perspective_turns_the_board() -> None:
    state = GAME.new()
    assert (
        render("quorum", state, words=WORDS).tobytes()
        != render("quorum", state, perspective=2, words=WORDS).tobytes()
    )
