"""The "large" board, for a member who reads boards on a phone.

A phone shows a picture about 400 px wide, scaled to fit, so the board's squares can only grow
if fewer of them share the width: the large picture is the normal one cut down the middle of
its board, the left half (with its rank labels) above the right half, under the header shrunk
to the halves' width. The middle file (Razzle's d, Boku's middle column) is in both halves, so
no piece is cut. Only pixels are moved: the header reads as it does in the normal picture, the
board at about twice its size (docs/renderers.md has the figures).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from renderers import boku
from renderers.canvas import HEADER, WIDTH, Grid
from renderers.themes import Theme
from rules.kyo.board import SIZE as KYO_SIZE
from rules.quorum.board import SIZE as QUORUM_SIZE
from rules.razzle.board import HEIGHT as RAZZLE_RANKS
from rules.razzle.board import WIDTH as RAZZLE_FILES

GAP = 10  # px of paper between the halves


def grid(game_name: str, state: Any) -> Grid:
    """A grid game's board as its renderer lays it out (which way up does not matter here)."""
    if game_name == "boost":
        return Grid(state.size, state.size)
    if game_name == "razzle":
        return Grid(RAZZLE_FILES, RAZZLE_RANKS)
    size = {"quorum": QUORUM_SIZE, "kyo": KYO_SIZE}[game_name]
    return Grid(size, size)


def cut(game_name: str, state: Any) -> tuple[int, int]:
    """Where the left half ends and the right half starts, in the normal picture's pixels:
    between two files, or around the middle file of an odd board."""
    if game_name == "boku":
        middle = boku.ORIGIN_X
        return middle + boku.RADIUS, middle - boku.RADIUS
    board = grid(game_name, state)
    left, _ = board.origin(0, 0)
    return left + (board.files + 1) // 2 * board.cell, left + board.files // 2 * board.cell


def square(game_name: str, state: Any) -> int:
    """A square's (Boku: a cell's) width in the normal picture, px."""
    if game_name == "boku":
        return 2 * boku.RADIUS
    return grid(game_name, state).cell


def enlarge(image: Image.Image, game_name: str, state: Any, theme: Theme) -> Image.Image:
    """The normal picture rearranged: header, left half of the board, right half."""
    left_end, right_start = cut(game_name, state)
    left = image.crop((0, HEADER, left_end, image.height))
    right = image.crop((right_start, HEADER, image.width, image.height))
    width = max(left.width, right.width)
    header = image.crop((0, 0, image.width, HEADER)).resize(
        (width, round(HEADER * width / WIDTH)), Image.Resampling.LANCZOS
    )
    height = header.height + left.height + GAP + right.height
    large = Image.new("RGB", (width, height), theme.paper)
    large.paste(header, (0, 0))
    large.paste(left, (0, header.height))
    large.paste(right, (width - right.width, header.height + left.height + GAP))
    return large
