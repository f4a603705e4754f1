"""Boku's board: 80 hexagons standing on the corner a1, dark and light marbles.

The picture is symmetric about the vertical: columns (letters) run up and to the left from
the lower right edge, rows (numbers) up and to the right from the lower left edge, and the
third line direction is straight up. Every label sits where its line would go on past the
edge: letters at the lower right (and e-j again at the upper left), numbers at the lower
left (and 5-10 again at the upper right), large enough to read at Discord's inline size.
Every cell carries its name, marbles included (written on them in their outline's tone). The
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
    HEADER,
    ICON,
    WIDTH,
    Board,
    Center,
    disc,
    font,
    mark_effects,
    paste_centered,
    render_board,
    seat_word,
    sprite,
    words_font,
)
from renderers.key import Entry, capture_entry
from renderers.themes import CLASSIC, RGB, Ink, Theme
from renderers.words import PLACEHOLDERS, PictureWords
from rules import Highlight
from rules.boku import Boku, BokuState, winning_line
from rules.boku.board import COLUMNS, MARBLE, NAMES, POINTS, SIZE

GAME = Boku()
# Whole pixels, so that every cell is drawn alike and the PNG compresses well.
RADIUS = 40  # centre to side corner of a cell
ACROSS = 3 * RADIUS // 2  # sideways from a cell to its neighbour along its row or column
RISE = round(math.sqrt(3) / 2 * RADIUS)  # upwards to the same neighbour; half a cell's height
MARGIN_Y = 12
NAME_SIZE = 19
LABEL_SIZE = 30
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


def _hexagon(size: int, grow: int, fill: RGB, outline: RGB | None) -> Image.Image:
    """One cell's flat-topped hexagon, `grow` pixels wider all round, centred in a sprite."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        scale = big / size
        wide, high = (RADIUS + grow) * scale, (RISE + grow * RISE / RADIUS) * scale
        half, middle = wide / 2, big / 2
        corners = [
            (wide, 0),
            (half, high),
            (-half, high),
            (-wide, 0),
            (-half, -high),
            (half, -high),
        ]
        points = [(middle + dx, middle + dy) for dx, dy in corners]
        canvas.polygon(points, fill=fill, outline=outline, width=round(2 * scale))

    return sprite(("boku-cell", grow, fill, outline), size, draw)


CELL_SPRITE = 2 * (RADIUS + 6)


@lru_cache(maxsize=3)
def _background(theme: Theme) -> Image.Image:
    """The empty board with its labels: a darker rim under every cell (each cell drawn
    oversized first), then the cells, their names and the lines' labels."""
    image = Image.new("RGB", SIZE_PX, theme.paper)
    rim = _hexagon(CELL_SPRITE, 5, theme.dark_square, None)
    cell = _hexagon(CELL_SPRITE, -1, theme.light_square, theme.line)
    for piece in (rim, cell):
        for point in POINTS:
            paste_centered(image, piece, center(point))
    canvas = ImageDraw.Draw(image)
    for point, name in zip(POINTS, NAMES, strict=True):
        canvas.text(center(point), name, fill=theme.cell_name, font=font(NAME_SIZE), anchor="mm")
    for point, label in LABELS.items():
        canvas.text(center(point), label, fill=theme.label, font=font(LABEL_SIZE), anchor="mm")
    return image


@lru_cache(maxsize=3)
def _board(theme: Theme) -> Board:
    return Board(_background(theme), center, round(2 * RISE))


MARBLE_SIZE = round(2 * RISE * 0.92)


def _marble(seat: int, size: int, theme: Theme) -> Image.Image:
    """Dark marbles are filled, light ones pale: told apart by lightness, not hue."""
    side = theme.dark if seat == 1 else theme.light
    return disc(size, side.fill, theme.dark.fill)


@lru_cache(maxsize=512)
def _named(seat: int, index: int, theme: Theme) -> Image.Image:
    """A marble with its cell's name written on it in its outline's tone, kept for reuse:
    writing 80 names costs more than the rest of a board."""
    marble = _marble(seat, MARBLE_SIZE, theme).copy()
    ink = theme.dark.ink if seat == 1 else theme.light.ink
    middle = (MARBLE_SIZE / 2, MARBLE_SIZE / 2)
    ImageDraw.Draw(marble).text(
        middle, NAMES[index], fill=ink, font=font(NAME_SIZE + 1), anchor="mm"
    )
    return marble


def _placed_mark(size: int, theme: Theme) -> Image.Image:
    """The last placement, drawn on its marble: a path-coloured ring edged in paper on both
    sides, so it stands out on a dark marble as well as on a light one, laid over the
    marble's rim so that its middle still shows whose marble it is (20 px across on a
    phone)."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        edge, width = big // 32, big // 8
        outer = big * 0.03
        canvas.ellipse((outer, outer, big - outer, big - outer), outline=theme.paper, width=width)
        inner = outer + edge
        box = (inner, inner, big - inner, big - inner)
        canvas.ellipse(box, outline=theme.path, width=width - 2 * edge)

    return sprite(("boku-placed", theme.paper, theme.path), size, draw)


def _mark_placement(
    image: Image.Image, last: Highlight | None, center: Center, cell: int, theme: Theme
) -> None:
    """Over the marbles: the placed marble's ring, then the capture's X."""
    if last is not None and last.path:
        paste_centered(image, _placed_mark(MARBLE_SIZE, theme), center(last.path[-1]))
    mark_effects(image, last, center, cell, theme)


def _blocked_mark(size: int, theme: Theme) -> Image.Image:
    """A grey cell edged in its ink with a no-entry sign: a ring crossed by a bar."""
    fill, ink = theme.blocked.fill, theme.blocked.ink

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        half = big / 2
        hexagon = [
            (half + half * math.cos(math.pi / 3 * k), half + half * math.sin(math.pi / 3 * k))
            for k in range(6)
        ]
        canvas.polygon(hexagon, fill=fill, outline=ink, width=big // 32)
        ring, width = big * 0.26, big // 16
        canvas.ellipse(
            (half - ring, half - ring, half + ring, half + ring), outline=ink, width=width
        )
        bar = ring * math.sqrt(0.5)
        canvas.line((half - bar, half + bar, half + bar, half - bar), fill=ink, width=width)

    return sprite(("boku-blocked", fill, ink), size, draw)


def render(
    state: BokuState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
    words: PictureWords,
) -> Image.Image:
    """The board is the same from both sides (each player's edges are the lower ones), so
    `perspective` changes nothing."""

    def draw_marbles(image: Image.Image) -> None:
        canvas = ImageDraw.Draw(image)
        if state.blocked is not None:
            paste_centered(
                image, _blocked_mark(2 * RADIUS - 4, theme), center(POINTS[state.blocked])
            )
            _blocked_note(image, state, theme, words)
        line = winning_line(state)
        if line:
            canvas.line([center(line[0]), center(line[-1])], fill=theme.win, width=14)
        for index, mark in enumerate(state.board):
            if mark in (MARBLE[1], MARBLE[2]):
                seat = 1 if mark == MARBLE[1] else 2
                paste_centered(image, _named(seat, index, theme), center(POINTS[index]))

    return render_board(
        GAME,
        state,
        _board(theme),
        draw_marbles,
        icons=icons(theme),
        ground=ground(theme),
        theme=theme,
        words=words,
        last_move=last_move,
        names=names,
        over=_mark_placement,
    )


def _blocked_note(image: Image.Image, state: BokuState, theme: Theme, words: PictureWords) -> None:
    """Spelled out in the empty lower left corner, for whoever has not met the rule yet."""
    assert state.blocked is not None
    x, y = 18, SIZE_PX[1] - MARGIN_Y - 50
    paste_centered(image, _blocked_mark(32, theme), (x + 16, y + 23))
    canvas = ImageDraw.Draw(image)
    blocked = words.say(words.board, "blocked", cell=NAMES[state.blocked])
    who = words.say(words.board, "blocked_for", player=seat_word(GAME, state.turn, words))
    canvas.text((x + 40, y), blocked, fill=theme.ink, font=words_font(20))
    canvas.text((x + 40, y + 26), who, fill=theme.label, font=words_font(18))


def ground(theme: Theme) -> Ink:
    """What the legends show the marbles on: the light marbles' tone, on which the dark
    marbles are filled discs and the light ones rings."""
    return theme.light


def icons(theme: Theme) -> list[Image.Image]:
    """Each seat's marble as the header shows it (on a plate of `ground`)."""
    return [_marble(1, ICON, theme), _marble(2, ICON, theme)]


def key(theme: Theme, words: PictureWords) -> list[Entry]:
    """What the board's marbles and marks mean, for the key picture."""
    size = 64
    e5 = NAMES.index("e5")
    dark, light = _named(1, e5, theme), _named(2, e5, theme)
    placed = light.copy()
    paste_centered(placed, _placed_mark(size, theme), (size / 2, size / 2))
    line = Image.new("RGBA", (size, size), theme.light_square)
    ImageDraw.Draw(line).line((0, size / 2, size, size / 2), fill=theme.win, width=12)
    return [
        Entry(dark, words.key["boku.dark"]),
        Entry(light, words.key["boku.light"]),
        Entry(placed, words.key["boku.placed"]),
        capture_entry(theme, words),
        Entry(_blocked_mark(size, theme), words.key["boku.blocked"]),
        Entry(line, words.key["boku.line"]),
    ]


def reference(theme: Theme) -> Image.Image:
    """A busy position with every kind of mark, to build the palette from."""
    rng = random.Random(1)
    state = GAME.new()
    while state.blocked is None or state.ply < 40:
        if GAME.outcome(state) is not None:
            state = GAME.new()
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    names = ["Reference Dark", "Reference Light"]
    image = render(state, names=names, theme=theme, words=PLACEHOLDERS)
    # A position with a blocked cell has no winning line, so its colour is added by hand.
    ImageDraw.Draw(image).line([center((0, 0)), center((4, 4))], fill=theme.win, width=14)
    return image
