"""Quorum's board: light White and dark Black stones, homes framed in their side's tone (Black's
dashed as well) and the four objectives marked."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.canvas import ICON, Grid, checkerboard, disc, paste_centered, render_board
from renderers.key import Entry, capture_entry, change_entry, route_entries
from renderers.themes import CLASSIC, Ink, Theme
from renderers.words import PLACEHOLDERS, PictureWords
from rules import Highlight
from rules.quorum import Quorum, QuorumState
from rules.quorum.board import BLACK, HOMES, OBJECTIVES, SIZE, WHITE

GAME = Quorum()


def _stone(colour: str, size: int, theme: Theme) -> Image.Image:
    """White light, Black dark, each outlined in the other's tone: told apart by lightness."""
    if colour == WHITE:
        return disc(size, theme.light.fill, theme.light.ink)
    return disc(size, theme.dark.fill, theme.dark.ink)


def _home(
    canvas: ImageDraw.ImageDraw, box: tuple[int, int], cell: int, seat: int, theme: Theme
) -> None:
    """A home square: framed in its side's stone colour with a line of the other tone inside
    (seen on light and dark squares alike), Black's frame dashed as well."""
    x, y = box
    inset, width = cell // 12, max(3, cell // 16)
    side = theme.light if seat == 1 else theme.dark
    outer = (x + inset, y + inset, x + cell - inset, y + cell - inset)
    canvas.rectangle(outer, outline=side.fill, width=width)
    inner = (outer[0] + width, outer[1] + width, outer[2] - width, outer[3] - width)
    canvas.rectangle(inner, outline=side.ink, width=max(1, width // 3))
    if seat == 2:
        step = cell // 6
        for along in range(x + inset + step // 2, x + cell - inset, step * 2):
            for top in (y + inset, y + cell - inset - width + 1):
                canvas.rectangle((along, top, along + step // 2, top + width - 1), fill=side.ink)


def _objective(canvas: ImageDraw.ImageDraw, box: tuple[int, int], cell: int, theme: Theme) -> None:
    """An objective square: a thick frame and a diamond in its middle."""
    x, y = box
    cx, cy = x + cell / 2, y + cell / 2
    canvas.rectangle(
        (x + 2, y + 2, x + cell - 3, y + cell - 3),
        outline=theme.objective,
        width=max(3, cell // 14),
    )
    r = cell // 8
    canvas.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=theme.objective)


@lru_cache(maxsize=12)
def _background(grid: Grid, theme: Theme) -> Image.Image:
    image = checkerboard(grid, theme).copy()
    canvas = ImageDraw.Draw(image)
    for seat, squares in HOMES.items():
        for index in squares:
            _home(canvas, grid.origin(index % SIZE, index // SIZE), grid.cell, seat, theme)
    for index in OBJECTIVES:
        _objective(canvas, grid.origin(index % SIZE, index // SIZE), grid.cell, theme)
    return image


def render(
    state: QuorumState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
    words: PictureWords,
) -> Image.Image:
    """Black (seat 2) sees the board turned round."""
    grid = Grid(SIZE, SIZE, flipped=perspective == 2)
    stone_size = int(grid.cell * 0.86)

    def draw_stones(image: Image.Image) -> None:
        for index, colour in enumerate(state.board):
            if colour in (WHITE, BLACK):
                center = grid.center(index % SIZE, index // SIZE)
                paste_centered(image, _stone(colour, stone_size, theme), center)

    board = grid.board(_background(grid, theme))
    return render_board(
        GAME,
        state,
        board,
        draw_stones,
        icons=icons(theme),
        ground=ground(theme),
        theme=theme,
        words=words,
        last_move=last_move,
        names=names,
    )


def ground(theme: Theme) -> Ink:
    """What the legends show the stones on: White's own light tone, so that White reads as
    the rules draw it, a hollow ring (○), and Black as a filled disc (●)."""
    return theme.light


def icons(theme: Theme) -> list[Image.Image]:
    """Each seat's stone as the header shows it (on a plate of `ground`)."""
    return [_stone(WHITE, ICON, theme), _stone(BLACK, ICON, theme)]


def key(theme: Theme, words: PictureWords) -> list[Entry]:
    """What the board's marks mean, for the key picture."""
    cell = 64

    def square(draw: Callable[[ImageDraw.ImageDraw], None]) -> Image.Image:
        image = Image.new("RGBA", (cell, cell), theme.light_square)
        draw(ImageDraw.Draw(image))
        return image

    return [
        Entry(_stone(WHITE, 56, theme), words.key["quorum.white"]),
        Entry(_stone(BLACK, 56, theme), words.key["quorum.black"]),
        Entry(square(lambda c: _home(c, (0, 0), cell, 1, theme)), words.key["quorum.white_home"]),
        Entry(square(lambda c: _home(c, (0, 0), cell, 2, theme)), words.key["quorum.black_home"]),
        Entry(square(lambda c: _objective(c, (0, 0), cell, theme)), words.key["quorum.objective"]),
        *route_entries(theme, words),
        capture_entry(theme, words),
        change_entry(theme, words),
    ]


def reference(theme: Theme) -> Image.Image:
    """A mid-game position with every kind of mark, to build the palette from."""
    rng = random.Random(1)
    state = GAME.new()
    for _ in range(30):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))
    last = Highlight(1, "a1e3", ((0, 0), (4, 2)), ((5, 3),), ((4, 4),))
    names = ["Reference White", "Reference Black"]
    return render(state, last_move=last, names=names, theme=theme, words=PLACEHOLDERS)
