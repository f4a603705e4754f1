import io
import random

from PIL import Image

from bot.posts.pictures import picture_words
from renderers import render, render_png
from renderers.canvas import Grid
from renderers.themes import CLASSIC
from rules import Highlight, get_game

WORDS = picture_words("en")

GAME = get_game("kyo")
GRID = Grid(10, 10)


def diagram(**stacks: str) -> str:
    """A position with a few stacks (`c3="DLLH"`); both kings and some mana elsewhere."""
    rows = {10: ["."] * 9 + ["dk"], 1: ["DK"] + ["."] * 9}
    grid = [rows.get(rank, ["."] * 10) for rank in range(10, 0, -1)]
    for name, stack in stacks.items():
        grid[10 - int(name[1:])][ord(name[0]) - ord("a")] = stack
    return "\n".join(" ".join(row) for row in grid)


def test_random_positions_render_as_small_wide_palette_pngs() -> None:
    rng = random.Random(3)
    state = GAME.new()
    for _ in range(20):
        data = render_png("kyo", state, names=["Ann", "Bo"], words=WORDS)
        image = Image.open(io.BytesIO(data))
        assert data.startswith(b"\x89PNG") and image.mode == "P"
        assert image.width >= 800 and image.height != image.width
        assert len(data) < 80 * 1024
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))


def test_every_item_changes_the_picture_of_its_tile() -> None:
    stacks = ("DLH", "LDH", "DDH", "dlh", "dLh", "SSH", "DLT", "DLQ", "DLK", "DLP", "DL", "D", ".")
    pictures = {
        _tile(render("kyo", GAME.parse_diagram(diagram(e5=s)), words=WORDS), (4, 4)) for s in stacks
    }
    assert len(pictures) == len(stacks)


def test_the_last_turn_is_marked_path_strike_and_deploy() -> None:
    state = GAME.parse_diagram(diagram(c3="DDH", c5="dh", e3="SST"))
    struck = GAME.apply(state, GAME.parse_move(state, "c3:1-c4:0-c5"))
    last = GAME.last(struck)
    assert last is not None and last.captured == ((2, 4),)
    plain = render("kyo", struck, last_move=Highlight(1, ""), words=WORDS)
    marked = render("kyo", struck, words=WORDS)
    assert _tile(plain, (2, 4)) != _tile(marked, (2, 4))
    assert _tile(plain, (2, 3)) != _tile(marked, (2, 3))
    deployed = GAME.apply(state, GAME.parse_move(state, "e3+f4"))
    last = GAME.last(deployed)
    assert last is not None and last.changed == ((5, 3),)
    plain = render("kyo", deployed, last_move=Highlight(1, ""), words=WORDS)
    assert _tile(plain, (5, 3)) != _tile(render("kyo", deployed, words=WORDS), (5, 3))


def test_tall_stacks_stay_inside_their_tile_and_show_their_height() -> None:
    tall = GAME.parse_diagram(diagram(e5="DL" * 10, f6="DLDLDLDH"))
    short = GAME.parse_diagram(diagram(e5="DL" * 3, f6="DLDLDLDH"))
    image = render("kyo", tall, words=WORDS)
    assert _tile(image, (4, 4)) != _tile(render("kyo", short, words=WORDS), (4, 4))
    assert _tile(image, (4, 5)) == _tile(render("kyo", short, words=WORDS), (4, 5))
    assert _tile(image, (4, 3)) == _tile(render("kyo", short, words=WORDS), (4, 3))


def test_rendering_is_pure_and_perspective_turns_the_board() -> None:
    state = GAME.apply(GAME.new(), GAME.parse_move(GAME.new(), "b1:2-b2:1-b3"))
    assert render_png("kyo", state, words=WORDS) == render_png("kyo", state, words=WORDS)
    assert (
        render("kyo", state, words=WORDS).tobytes()
        != render("kyo", state, perspective=2, words=WORDS).tobytes()
    )


def _tile(image: Image.Image, point: tuple[int, int]) -> bytes:
    """The pixels of one tile of an unflipped board."""
    x, y = GRID.origin(*point)
    return image.crop((x, y, x + GRID.cell, y + GRID.cell)).tobytes()


def test_a_strike_frames_the_whole_struck_tile() -> None:
    """The strike mark was a small cross in one corner; now every side of the tile shows it."""
    state = GAME.parse_diagram(diagram(c3="DDH", c5="dLDLDLh"))
    struck = GAME.apply(state, GAME.parse_move(state, "c3:1-c4:0-c5"))
    x, y = GRID.origin(2, 4)
    inset, middle = 2, GRID.cell // 2
    sides = [(x + inset, y + middle), (x + GRID.cell - 1 - inset, y + middle)]
    sides += [(x + middle + 12, y + inset), (x + middle + 12, y + GRID.cell - 1 - inset)]

    def framed(image: Image.Image) -> list[bool]:
        rgb = image.convert("RGB")
        return [_near(rgb.getpixel(side), CLASSIC.capture) for side in sides]

    assert framed(render("kyo", struck, words=WORDS)) == [True] * 4
    assert framed(render("kyo", struck, last_move=Highlight(1, ""), words=WORDS)) == [False] * 4


def _near(colour: object, expected: tuple[int, int, int]) -> bool:
    assert isinstance(colour, tuple)
    distance: int = sum(abs(a - b) for a, b in zip(colour, expected, strict=True))
    return distance < 60
