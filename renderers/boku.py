"""Boku's board: 80 hexagons standing on the corner a1, dark and light marbles.

The picture is symmetric about the vertical: columns (letters) run up and to the left from
the lower right edge, rows (numbers) up and to the right from the lower left edge, and the
third line direction is straight up. Every label sits where its line would go on past the
edge: letters at the lower right (and e-j again at the upper left), numbers at the lower
left (and 5-10 again at the upper right). Every empty cell carries its name, faintly. The
blocked cell is grey with a no-entry sign, the last placement a paper-edged ring on its
marble (seen on dark and light alike), the captured marble an X, and a winning line of five
is joined by a green bar.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.canvas import (
    DARK_SQUARE,
    GREEN,
    HEADER,
    INK,
    LABEL,
    LIGHT_SQUARE,
    LINE,
    PAPER,
    PATH_COLOUR,
    WIDTH,
    Board,
    Center,
    disc,
    font,
    mark_effects,
    paste_centered,
    render_board,
    sprite,
)
from rules import Highlight
from rules.boku import COLUMNS, MARBLE, NAMES, POINTS, SIZE, Boku, BokuState, winning_line

GAME = Boku()
# Whole pixels, so that every cell is drawn alike and the PNG compresses well.
RADIUS = 40  # centre to side corner of a cell
ACROSS = 3 * RADIUS // 2  # sideways from a cell to its neighbour along its row or column
RISE = round(math.sqrt(3) / 2 * RADIUS)  # upwards to the same neighbour; half a cell's height
SUPER = 3  # the background is drawn this many times larger, then shrunk, for smooth edges
MARGIN_Y = 12
BLOCKED_FILL = (128, 128, 132)
NAME_FILL = (172, 146, 108)
Spot = tuple[int, int]

# Labels sit on the cell each line would reach next if the board went on. Where a column's
# end and a row's end would share a spot, the spot is left out on one side.
_COLUMNS = {q: [r for p, r in POINTS if p == q] for q in range(SIZE)}
_ROWS = {r: [q for q, p in POINTS if p == r] for r in range(SIZE)}
_STARTS = {(q, min(rs) - 1): COLUMNS[q] for q, rs in _COLUMNS.items()}
_ROW_STARTS = {(min(qs) - 1, r): str(r + 1) for r, qs in _ROWS.items()}
LABELS: dict[Spot, str] = {
    **_STARTS,
    **_ROW_STARTS,
    **{
        (q, max(rs) + 1): COLUMNS[q]
        for q, rs in _COLUMNS.items()
        if (q, max(rs) + 1) not in _ROW_STARTS
    },
    **{(max(qs) + 1, r): str(r + 1) for r, qs in _ROWS.items() if (max(qs) + 1, r) not in _STARTS},
}


def _offset(point: Spot) -> tuple[int, int]:
    """Pixels right of and above a1's centre."""
    q, r = point
    return (q - r) * ACROSS, (q + r) * RISE


_OFFSETS = [_offset(p) for p in (*POINTS, *LABELS)]
_LEFT = min(x for x, _ in _OFFSETS) - RADIUS
_RIGHT = max(x for x, _ in _OFFSETS) + RADIUS
_TOP = max(y for _, y in _OFFSETS) + RISE
_BOTTOM = min(y for _, y in _OFFSETS) - RISE
ORIGIN_X = (WIDTH - (_RIGHT - _LEFT)) // 2 - _LEFT
ORIGIN_Y = HEADER + MARGIN_Y + _TOP
SIZE_PX = (WIDTH, round(HEADER + 2 * MARGIN_Y + _TOP - _BOTTOM))


def center(point: Spot) -> tuple[float, float]:
    """Pixel centre of cell (q, r)."""
    x, y = _offset(point)
    return ORIGIN_X + x, ORIGIN_Y - y


def _corners(point: Spot, grow: float) -> list[tuple[float, float]]:
    """The cell's flat-topped hexagon, `grow` pixels wider all round, in background pixels."""
    x, y = center(point)
    wide, half, high = RADIUS + grow, (RADIUS + grow) / 2, RISE + grow * RISE / RADIUS
    corners = [(wide, 0), (half, high), (-half, high), (-wide, 0), (-half, -high), (half, -high)]
    return [((x + dx) * SUPER, (y + dy) * SUPER) for dx, dy in corners]


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The empty board with its labels, drawn large once and shrunk for smooth edges."""
    big = Image.new("RGB", (SIZE_PX[0] * SUPER, SIZE_PX[1] * SUPER), PAPER)
    canvas = ImageDraw.Draw(big)
    for point in POINTS:  # a darker rim: every cell drawn oversized first
        canvas.polygon(_corners(point, 5), fill=DARK_SQUARE)
    for point, name in zip(POINTS, NAMES, strict=True):
        canvas.polygon(_corners(point, -1), fill=LIGHT_SQUARE, outline=LINE, width=2 * SUPER)
        x, y = center(point)
        canvas.text(
            (x * SUPER, y * SUPER), name, fill=NAME_FILL, font=font(14 * SUPER), anchor="mm"
        )
    for point, label in LABELS.items():
        x, y = center(point)
        canvas.text((x * SUPER, y * SUPER), label, fill=LABEL, font=font(22 * SUPER), anchor="mm")
    return big.resize(SIZE_PX, Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def _board() -> Board:
    return Board(_background(), center, round(2 * RISE))


MARBLE_SIZE = round(2 * RISE * 0.92)


def _marble(seat: int, size: int) -> Image.Image:
    """Dark marbles are filled, light ones hollow: told apart by lightness, not hue."""
    return disc(size, INK, INK) if seat == 1 else disc(size, PAPER, INK)


def _placed_mark(size: int) -> Image.Image:
    """The last placement, drawn on its marble: a path-coloured ring edged in paper on both
    sides, so it stands out on a dark marble as well as on a light one."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        edge, width = big // 24, big // 6
        outer = big * 0.2
        canvas.ellipse((outer, outer, big - outer, big - outer), outline=PAPER, width=width)
        inner = outer + edge
        box = (inner, inner, big - inner, big - inner)
        canvas.ellipse(box, outline=PATH_COLOUR, width=width - 2 * edge)

    return sprite(("boku-placed",), size, draw)


def _mark_placement(image: Image.Image, last: Highlight | None, center: Center, cell: int) -> None:
    """Over the marbles: the placed marble's ring, then the capture's X."""
    if last is not None and last.path:
        paste_centered(image, _placed_mark(MARBLE_SIZE), center(last.path[-1]))
    mark_effects(image, last, center, cell)


def _blocked_mark(size: int) -> Image.Image:
    """A grey cell with a no-entry sign: a ring crossed by a bar."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        half = big / 2
        hexagon = [
            (half + half * math.cos(math.pi / 3 * k), half + half * math.sin(math.pi / 3 * k))
            for k in range(6)
        ]
        canvas.polygon(hexagon, fill=BLOCKED_FILL)
        ring, width = big * 0.26, big // 16
        canvas.ellipse(
            (half - ring, half - ring, half + ring, half + ring), outline=PAPER, width=width
        )
        bar = ring * math.sqrt(0.5)
        canvas.line((half - bar, half + bar, half + bar, half - bar), fill=PAPER, width=width)

    return sprite(("boku-blocked",), size, draw)


def render(
    state: BokuState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The board has no sides to face, so `perspective` changes nothing."""

    def draw_marbles(image: Image.Image) -> None:
        if state.blocked is not None:
            paste_centered(image, _blocked_mark(2 * RADIUS - 4), center(POINTS[state.blocked]))
            _blocked_note(image, state)
        line = winning_line(state)
        if line:
            ImageDraw.Draw(image).line([center(line[0]), center(line[-1])], fill=GREEN, width=14)
        for index, mark in enumerate(state.board):
            if mark in (MARBLE[1], MARBLE[2]):
                seat = 1 if mark == MARBLE[1] else 2
                paste_centered(image, _marble(seat, MARBLE_SIZE), center(POINTS[index]))

    return render_board(
        GAME,
        state,
        _board(),
        draw_marbles,
        icons=[_marble(1, 34), _marble(2, 34)],
        last_move=last_move,
        names=names,
        over=_mark_placement,
    )


def _blocked_note(image: Image.Image, state: BokuState) -> None:
    """Spelled out in the empty lower left corner, for whoever has not met the rule yet."""
    assert state.blocked is not None
    x, y = 18, SIZE_PX[1] - MARGIN_Y - 46
    paste_centered(image, _blocked_mark(32), (x + 16, y + 21))
    canvas = ImageDraw.Draw(image)
    who = GAME.seat_name(state.turn)
    canvas.text((x + 40, y), f"{NAMES[state.blocked]} is blocked", fill=INK, font=font(18))
    canvas.text((x + 40, y + 24), f"for {who} this turn", fill=LABEL, font=font(16))


def reference() -> Image.Image:
    """A busy position with every kind of mark, to build the palette from."""
    rng = random.Random(1)
    state = GAME.new()
    while state.blocked is None or state.ply < 40:
        if GAME.outcome(state) is not None:
            state = GAME.new()
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    image = render(state, names=["Reference Dark", "Reference Light"])
    # A position with a blocked cell has no winning line, so its green is added by hand.
    ImageDraw.Draw(image).line([center((0, 0)), center((4, 4))], fill=GREEN, width=14)
    return image
