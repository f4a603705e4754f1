"""The pictures of a computer analysis: each seat's win chance over a game, and a blunder's
board beside the board the better move would have left.

The graph has one line per seat (up to four), in Okabe-Ito colours and each with its own
dash pattern so the lines differ without colour; the marked moves are dots on the line of the
seat that played them, their shape saying the mark (a ring, a diamond, a disc) as the key
below explains. Turn numbers run along the bottom, 0-100% up the side. The words (names,
title, captions, axis and marks) come from the caller, which also writes the alt text.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.canvas import HEADER, words_font
from renderers.themes import BLUE, GREEN, INK, PAPER, PURPLE, RGB, VERMILION, Theme, get_theme
from renderers.words import PictureWords

# Okabe-Ito, chosen for lines on paper: the four that stay apart in every common colour
# blindness and in grey.
SEAT_COLOURS: tuple[RGB, ...] = (BLUE, VERMILION, GREEN, PURPLE)
# On and off lengths of each seat's line, in pixels of the final picture (solid first).
DASHES: tuple[tuple[int, ...], ...] = ((), (14, 7), (4, 6), (16, 6, 4, 6))
MARK_SHAPES = {"inaccuracy": "ring", "mistake": "diamond", "blunder": "disc"}
MARK_SIZES = {"inaccuracy": 9, "mistake": 10, "blunder": 11}

GRAPH_WIDTH, GRAPH_HEIGHT = 1000, 520
SCALE = 3  # drawn this much larger, then shrunk, for smooth lines
TOP, BOTTOM, LEFT, RIGHT = 64, 96, 64, 24
GRID: RGB = (214, 210, 200)
GRAPH_COLOURS = 64
AXIS_TEXT: RGB = (80, 80, 86)
BOARD_SCALE = 0.6  # each board of a comparison, of its usual width
CAPTION = 56

Place = Callable[[float, float], tuple[float, float]]
"""Pixel of (turn, chance) on the big canvas."""


@dataclass(frozen=True)
class Dot:
    """A marked move: drawn at `turn` (the position it led to) on `seat`'s line."""

    turn: int
    seat: int
    mark: str  # "inaccuracy", "mistake" or "blunder"


def render_graph(
    chances: Sequence[Sequence[float]],
    *,
    names: Sequence[str],
    words: PictureWords,
    dots: Sequence[Dot] = (),
    title: str = "",
) -> Image.Image:
    """`chances[i]` holds each seat's win chance (0-1) after `i` turns, the setup first."""
    if len(chances) < 2:
        raise ValueError("A graph needs at least two positions.")
    seats = len(chances[0])
    if not 1 <= seats <= len(SEAT_COLOURS):
        raise ValueError(f"A graph shows 1 to {len(SEAT_COLOURS)} seats, not {seats}.")
    big = Image.new("RGB", (GRAPH_WIDTH * SCALE, GRAPH_HEIGHT * SCALE), PAPER)
    canvas = ImageDraw.Draw(big)
    turns = len(chances) - 1
    left, right = LEFT * SCALE, (GRAPH_WIDTH - RIGHT) * SCALE
    top, bottom = TOP * SCALE, (GRAPH_HEIGHT - BOTTOM) * SCALE

    def point(turn: float, chance: float) -> tuple[float, float]:
        return left + (right - left) * turn / turns, bottom - (bottom - top) * chance

    _axes(canvas, turns, point)
    for seat in range(seats):
        line = [point(turn, row[seat]) for turn, row in enumerate(chances)]
        _dashed(canvas, line, SEAT_COLOURS[seat], DASHES[seat], 3 * SCALE)
    for dot in dots:
        _mark(canvas, point(dot.turn, chances[dot.turn][dot.seat - 1]), dot.mark, dot.seat)
    image = big.resize((GRAPH_WIDTH, GRAPH_HEIGHT), Image.Resampling.LANCZOS)
    _labels(image, turns, names, title, words)
    return image


def graph_png(
    chances: Sequence[Sequence[float]],
    *,
    names: Sequence[str],
    words: PictureWords,
    dots: Sequence[Dot] = (),
    title: str = "",
) -> bytes:
    """A palette PNG: the graph has few colours besides the anti-aliasing between them."""
    image = render_graph(chances, names=names, words=words, dots=dots, title=title)
    buffer = io.BytesIO()
    image.quantize(GRAPH_COLOURS, method=Image.Quantize.MEDIANCUT).save(
        buffer, "PNG", compress_level=3
    )
    return buffer.getvalue()


def tick_step(turns: int) -> int:
    """A round step that puts at most ten turn numbers on the axis."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if turns / step <= 10:
            return step
    return turns


def _axes(canvas: ImageDraw.ImageDraw, turns: int, point: Place) -> None:
    width = SCALE
    for chance in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = point(0, chance)[1]
        canvas.line((point(0, chance)[0], y, point(turns, chance)[0], y), GRID, width)
    step = tick_step(turns)
    for turn in range(0, turns + 1, step):
        x = point(turn, 0)[0]
        canvas.line((x, point(0, 1)[1], x, point(0, 0)[1]), GRID, width)
    x0, y0 = point(0, 0)
    canvas.line((x0, point(0, 1)[1], x0, y0, point(turns, 0)[0], y0), INK, 2 * width)


def _labels(
    image: Image.Image, turns: int, names: Sequence[str], title: str, words: PictureWords
) -> None:
    """Text drawn at final size (sharper than shrunk): title, axis numbers, the key."""
    canvas = ImageDraw.Draw(image)
    small = words_font(16)
    right, bottom = GRAPH_WIDTH - RIGHT, GRAPH_HEIGHT - BOTTOM
    canvas.text((LEFT, 16), title, fill=INK, font=words_font(24))
    for chance in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = bottom - (bottom - TOP) * chance
        share = words.say(words.graph, "percent", percent=round(chance * 100))
        canvas.text((LEFT - 8, y), share, fill=AXIS_TEXT, font=small, anchor="rm")
    for turn in range(0, turns + 1, tick_step(turns)):
        x = LEFT + (right - LEFT) * turn / turns
        canvas.text((x, bottom + 8), str(turn), fill=AXIS_TEXT, font=small, anchor="ma")
    turn_word = words.graph["turn"]
    canvas.text((right, bottom + 8 + 20), turn_word, fill=AXIS_TEXT, font=small, anchor="ra")
    y = GRAPH_HEIGHT - 30
    x = LEFT
    for seat, name in enumerate(names[: len(SEAT_COLOURS)]):
        sample = [(x, y), (x + 40, y)]
        _dashed(canvas, sample, SEAT_COLOURS[seat], DASHES[seat], 3)
        canvas.text((x + 48, y), name, fill=INK, font=small, anchor="lm")
        x += 48 + int(small.getlength(name)) + 28
    for mark, shape in MARK_SHAPES.items():
        _shape(canvas, (x + 8, y), shape, MARK_SIZES[mark], INK)
        named = words.graph[mark]
        canvas.text((x + 22, y), named, fill=INK, font=small, anchor="lm")
        x += 22 + int(small.getlength(named)) + 22


def _dashed(
    canvas: ImageDraw.ImageDraw,
    points: Sequence[tuple[float, float]],
    colour: RGB,
    dashes: tuple[int, ...],
    width: int,
) -> None:
    """A polyline; with `dashes`, its on/off pattern carries on from segment to segment."""
    if not dashes:
        canvas.line(list(points), fill=colour, width=width, joint="curve")
        return
    scale = width / 3
    pattern = [length * scale for length in dashes]
    index, left, on = 0, pattern[0], True
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        done = 0.0
        while done < length:
            step = min(left, length - done)
            if on:
                a, b = done / length, (done + step) / length
                canvas.line(
                    (
                        x0 + (x1 - x0) * a,
                        y0 + (y1 - y0) * a,
                        x0 + (x1 - x0) * b,
                        y0 + (y1 - y0) * b,
                    ),
                    fill=colour,
                    width=width,
                )
            done += step
            left -= step
            if left <= 0:
                index = (index + 1) % len(pattern)
                left, on = pattern[index], not on


def _mark(canvas: ImageDraw.ImageDraw, at: tuple[float, float], mark: str, seat: int) -> None:
    _shape(canvas, at, MARK_SHAPES[mark], MARK_SIZES[mark] * SCALE, SEAT_COLOURS[seat - 1])


def _shape(
    canvas: ImageDraw.ImageDraw, at: tuple[float, float], shape: str, radius: int, colour: RGB
) -> None:
    """A mark's dot: outlined in ink so it stands out from its own line."""
    x, y = at
    outline = max(2, radius // 4)
    box = (x - radius, y - radius, x + radius, y + radius)
    if shape == "ring":
        canvas.ellipse(box, fill=PAPER, outline=colour, width=outline)
    elif shape == "diamond":
        corners = [(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)]
        canvas.polygon(corners, fill=colour, outline=INK, width=max(1, outline // 2))
    else:
        canvas.ellipse(box, fill=colour, outline=INK, width=max(1, outline // 2))


def side_by_side(
    boards: Sequence[Image.Image],
    *,
    title: str,
    captions: Sequence[str],
    theme: Theme | str | None = None,
) -> Image.Image:
    """Boards drawn by a game's renderer, their headers cut off, shrunk and set side by side
    under one title strip, each with its caption: the move played beside the better one."""
    shrunk = []
    for board in boards:
        body = board.crop((0, HEADER, board.width, board.height))
        size = (round(body.width * BOARD_SCALE), round(body.height * BOARD_SCALE))
        shrunk.append(body.resize(size, Image.Resampling.LANCZOS))
    gap = 16
    width = sum(b.width for b in shrunk) + gap * (len(shrunk) - 1)
    height = CAPTION * 2 + max(b.height for b in shrunk)
    chosen = get_theme(theme)
    image = Image.new("RGB", (width, height), chosen.paper)
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, width, 2 * CAPTION), fill=chosen.header)
    canvas.text(
        (16, CAPTION // 2), title, fill=chosen.header_text, font=words_font(22), anchor="lm"
    )
    x = 0
    for board, caption in zip(shrunk, captions, strict=True):
        canvas.text(
            (x + 16, CAPTION * 3 // 2),
            caption,
            fill=chosen.header_dim,
            font=words_font(18),
            anchor="lm",
        )
        image.paste(board, (x, 2 * CAPTION))
        x += board.width + gap
    return image
