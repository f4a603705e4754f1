"""Razzle Dazzle's board: round light pieces against square dark ones, the ball on its holder,
no-entry badges on ineligible pieces, and the last turn drawn as arrows."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import pairwise

from PIL import Image, ImageDraw

from renderers.canvas import (
    ICON,
    Center,
    Grid,
    checkerboard,
    disc,
    dot_mark,
    paste_centered,
    render_board,
    ring_mark,
    sprite,
)
from renderers.key import Entry
from renderers.themes import CLASSIC, RGB, Ink, Theme
from renderers.words import PLACEHOLDERS, PictureWords
from rules import Highlight
from rules.notation import Point
from rules.razzle import Chain, RazzleDazzle, RazzleState
from rules.razzle.board import BALL, HEIGHT, PIECE, WIDTH

GAME = RazzleDazzle()
PIECE_SCALE = 0.86
# A sprite's shape fills all but a tenth of its box on each side.
VISIBLE_RADIUS = PIECE_SCALE * 0.4
ARROW_SUPERSAMPLE = 3


def _piece(seat: int, size: int, theme: Theme) -> Image.Image:
    if seat == 1:
        return disc(size, theme.light.fill, theme.light.ink)
    return disc(size, theme.dark.fill, theme.dark.ink, shape="square")


def _ball(size: int, theme: Theme) -> Image.Image:
    """A yellow ball with seams, readable on light and dark pieces alike."""
    colour, ink = theme.ball, theme.light.ink

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        pad = big // 12
        width = max(2, big // 14)
        canvas.ellipse((pad, pad, big - pad, big - pad), fill=colour, outline=ink, width=width)
        seam = big // 3
        canvas.arc((-seam, pad, big // 2, big - pad), -60, 60, fill=ink, width=width)
        canvas.arc((big // 2, pad, big + seam, big - pad), 120, 240, fill=ink, width=width)

    return sprite(("razzle-ball", colour, ink), size, draw)


def _no_entry(size: int, theme: Theme) -> Image.Image:
    """The badge of an ineligible piece: it cannot receive the ball until it moves."""
    fill, ink = theme.badge.fill, theme.badge.ink

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        pad = big // 12
        canvas.ellipse((pad, pad, big - pad, big - pad), fill=fill, outline=ink, width=big // 12)
        bar = big // 9
        canvas.rectangle((big // 4, big // 2 - bar, big - big // 4, big // 2 + bar), fill=ink)

    return sprite(("razzle-no-entry", fill, ink), size, draw)


def _is_knight_jump(path: Sequence[Point]) -> bool:
    if len(path) != 2:
        return False
    (af, ar), (bf, br) = path
    return {abs(af - bf), abs(ar - br)} == {1, 2}


Arrow = tuple[tuple[float, float], tuple[float, float], float, float]


def _draw_arrows(image: Image.Image, arrows: Sequence[Arrow], cell: int, colour: RGB) -> None:
    """Anti-aliased arrows (start, end, gap at the start, gap at the end), drawn at 3x on a
    mask covering only their bounding box, then shrunk and filled with the path colour."""
    pad = cell // 4
    xs = [x for start, end, _, _ in arrows for x in (start[0], end[0])]
    ys = [y for start, end, _, _ in arrows for y in (start[1], end[1])]
    left, top = max(0, int(min(xs)) - pad), max(0, int(min(ys)) - pad)
    right = min(image.width, int(max(xs)) + pad)
    bottom = min(image.height, int(max(ys)) + pad)
    scale = ARROW_SUPERSAMPLE
    mask = Image.new("L", ((right - left) * scale, (bottom - top) * scale), 0)
    canvas = ImageDraw.Draw(mask)
    for (sx, sy), (ex, ey), start_gap, end_gap in arrows:
        start = ((sx - left) * scale, (sy - top) * scale)
        end = ((ex - left) * scale, (ey - top) * scale)
        _arrow(canvas, start, end, start_gap * scale, end_gap * scale, cell * scale)
    small = mask.reduce(scale)
    image.paste(colour, (left, top, left + small.width, top + small.height), small)


def _arrow(
    canvas: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    start_gap: float,
    end_gap: float,
    cell: float,
) -> None:
    """One arrow on a mask, its tip `end_gap` short of `end`."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length

    def at(distance: float, side: float = 0.0) -> tuple[float, float]:
        return start[0] + ux * distance - uy * side, start[1] + uy * distance + ux * side

    tip = length - end_gap
    head = min(cell * 0.22, (tip - start_gap) * 0.7)  # short passes get a smaller head
    base = tip - head
    half = head * 0.64
    canvas.line([at(start_gap), at(base + cell * 0.02)], fill=255, width=max(3, int(cell / 13)))
    canvas.polygon([at(tip), at(base, half), at(base, -half)], fill=255)


def _edge(seat: int, start: tuple[float, float], end: tuple[float, float], cell: int) -> float:
    """How far from its centre an arrow along start->end leaves a piece of `seat`: a disc's
    radius, or for a square piece the distance to its side (less the rounded corner)."""
    half = cell * VISIBLE_RADIUS
    if seat == 2:
        dx, dy = abs(end[0] - start[0]), abs(end[1] - start[1])
        length = math.hypot(dx, dy)
        half = min(half * length / max(dx, dy), half * 1.3)
    return half + cell * 0.03


def _mark_last(
    image: Image.Image, last: Highlight | None, center: Center, cell: int, theme: Theme
) -> None:
    """The last turn, under the pieces: one arrow for a knight jump, one per pass."""
    if last is None or len(last.path) < 2:
        return
    centers = [center(p) for p in last.path]
    paste_centered(image, ring_mark(cell, theme.path), centers[-1])
    arrows = [
        (a, b, _edge(last.seat, a, b, cell), _edge(last.seat, b, a, cell))
        for a, b in pairwise(centers)
    ]
    if _is_knight_jump(last.path):
        paste_centered(image, dot_mark(cell, theme.path), centers[0])
        arrows = [(centers[0], centers[1], cell * 0.12, arrows[0][3])]
    _draw_arrows(image, arrows, cell, theme.path)


def render(
    state: RazzleState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
    words: PictureWords,
) -> Image.Image:
    """Seat 2, who starts at the top, sees the board turned round."""
    grid = Grid(WIDTH, HEIGHT, flipped=perspective == 2)
    cell = grid.cell
    piece_size = int(cell * PIECE_SCALE)
    ball = _ball(int(cell * 0.42), theme)
    badge = _no_entry(int(cell * 0.34), theme)
    badge_offset = piece_size * 0.34

    def draw_pieces(image: Image.Image) -> None:
        for index, cell_text in enumerate(state.board):
            if cell_text == ".":
                continue
            seat = 1 if cell_text in (PIECE[1], BALL[1]) else 2
            center = grid.center(index % WIDTH, index // WIDTH)
            paste_centered(image, _piece(seat, piece_size, theme), center)
            if cell_text == BALL[seat]:
                paste_centered(image, ball, center)
            if index in state.ineligible:
                paste_centered(image, badge, (center[0] + badge_offset, center[1] - badge_offset))

    notes = ["", ""]
    if state.result is None and state.forced:
        if any(isinstance(m, Chain) for m in GAME.legal_moves(state)):
            notes[state.turn - 1] = words.board["must_throw"]
    return render_board(
        GAME,
        state,
        grid.board(checkerboard(grid, theme)),
        draw_pieces,
        icons=icons(theme),
        ground=ground(theme),
        theme=theme,
        words=words,
        last_move=last_move,
        names=names,
        notes=notes,
        under=_mark_last,
    )


def ground(theme: Theme) -> Ink:
    """What the legends show the pieces on: the light pieces' tone."""
    return theme.light


def icons(theme: Theme) -> list[Image.Image]:
    """Each seat's piece as the header shows it (on a plate of `ground`)."""
    return [_piece(1, ICON, theme), _piece(2, ICON, theme)]


def key(theme: Theme, words: PictureWords) -> list[Entry]:
    """What the board's pieces and marks mean, for the key picture."""
    size = 64
    holder = _piece(1, size, theme).copy()
    paste_centered(holder, _ball(size // 2, theme), (size / 2, size / 2))
    badged = _piece(2, size, theme).copy()
    paste_centered(badged, _no_entry(size * 2 // 5, theme), (size * 0.72, size * 0.28))
    arrow = Image.new("RGBA", (size, size), theme.light_square)
    _draw_arrows(arrow, [((4.0, size / 2), (size - 4.0, size / 2), 0.0, 0.0)], size, theme.path)
    landed = Image.new("RGBA", (size, size), theme.light_square)
    paste_centered(landed, ring_mark(size, theme.path), (size / 2, size / 2))
    return [
        Entry(_piece(1, size, theme), words.key["razzle.first"]),
        Entry(_piece(2, size, theme), words.key["razzle.second"]),
        Entry(holder, words.key["razzle.ball"]),
        Entry(badged, words.key["razzle.ineligible"]),
        Entry(arrow, words.key["razzle.last_turn"]),
        Entry(landed, words.key["razzle.landed"]),
    ]


def reference(theme: Theme) -> Image.Image:
    """A mid-game position with balls, badges and a pass chain, to build the palette from."""
    rng = random.Random(1)
    state = GAME.new()
    for _ in range(24):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))
    last = Highlight(1, "d1-e1-e5", ((3, 0), (4, 0), (4, 4)))
    names = ["Reference One", "Reference Two"]
    return render(state, last_move=last, names=names, theme=theme, words=PLACEHOLDERS)
