"""Quorum's board: hollow White and filled Black stones, homes and the four objectives marked."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.canvas import (
    INK,
    ORANGE,
    PAPER,
    Grid,
    checkerboard,
    disc,
    paste_centered,
    render_board,
)
from rules import Highlight
from rules.quorum import BLACK, HOMES, OBJECTIVES, SIZE, WHITE, Quorum, QuorumState

GAME = Quorum()


def _stone(colour: str, size: int) -> Image.Image:
    if colour == WHITE:
        return disc(size, PAPER, INK)
    return disc(size, INK, INK)


@lru_cache(maxsize=4)
def _background(grid: Grid) -> Image.Image:
    image = checkerboard(grid).copy()
    canvas = ImageDraw.Draw(image)
    cell = grid.cell
    inset = cell // 12
    for seat, squares in HOMES.items():
        outline = PAPER if seat == 1 else INK
        for index in squares:
            x, y = grid.origin(index % SIZE, index // SIZE)
            canvas.rectangle(
                (x + inset, y + inset, x + cell - inset, y + cell - inset),
                outline=outline,
                width=max(2, cell // 20),
            )
    for index in OBJECTIVES:
        x, y = grid.origin(index % SIZE, index // SIZE)
        cx, cy = x + cell / 2, y + cell / 2
        canvas.rectangle(
            (x + 2, y + 2, x + cell - 3, y + cell - 3), outline=ORANGE, width=max(3, cell // 14)
        )
        r = cell // 8
        canvas.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=ORANGE)
    return image


def render(
    state: QuorumState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    grid = Grid(SIZE, SIZE, flipped=perspective == 2)
    stone_size = int(grid.cell * 0.86)

    def draw_stones(image: Image.Image) -> None:
        for index, colour in enumerate(state.board):
            if colour in (WHITE, BLACK):
                center = grid.center(index % SIZE, index // SIZE)
                paste_centered(image, _stone(colour, stone_size), center)

    icons = [_stone(WHITE, 34), _stone(BLACK, 34)]
    board = grid.board(_background(grid))
    return render_board(
        GAME, state, board, draw_stones, icons=icons, last_move=last_move, names=names
    )


def reference() -> Image.Image:
    """A mid-game position with every kind of mark, to build the palette from."""
    rng = random.Random(1)
    state = GAME.new()
    for _ in range(30):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))
    last = Highlight(1, "a1e3", ((0, 0), (4, 2)), ((5, 3),), ((4, 4),))
    return render(state, last_move=last, names=["Reference White", "Reference Black"])
