"""Kyo's board: every stack drawn side-on, chips as bars from the bottom up, the pawn on top.

A stack reads like the real thing: its bottom chip is the lowest bar. Each property has a cue
that does not rely on hue alone, so the picture survives colour blindness and a phone screen:

- side: Gold is light with dark outlines and square-ended bars; Red is dark with white
  outlines and round-ended bars;
- mana: dark mana is a solid bar, light mana a hollow one (pale inside, thick rim);
- shields: narrower steel-grey bars with a white band, the same for both sides;
- pawns: a shape and a letter per type (P circle, H square, T triangle, Q hexagon, K diamond);
- the last turn: its route in blue, a struck tile framed in vermilion, deployed shields
  bracketed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.canvas import (
    CAPTURE_COLOUR,
    INK,
    PAPER,
    RGB,
    Center,
    Grid,
    checkerboard,
    disc,
    font,
    mark_effects,
    mark_path,
    paste_centered,
    render_board,
    sprite,
)
from rules import Highlight
from rules.kyo import Kyo, KyoState
from rules.kyo.board import SHIELD, SIZE, point

GAME = Kyo()

GOLD: RGB = (240, 192, 60)  # pawns
GOLD_DARK: RGB = (206, 142, 14)  # dark mana
GOLD_DEEP: RGB = (150, 98, 4)  # rims
GOLD_PALE: RGB = (255, 247, 220)  # inside light mana
RED: RGB = (172, 28, 48)
RED_DARK: RGB = (150, 18, 38)
RED_DEEP: RGB = (110, 10, 26)
RED_PALE: RGB = (252, 222, 226)
STEEL: RGB = (128, 144, 162)
STEEL_EDGE: RGB = (58, 68, 82)

SHAPES = {"P": "circle", "H": "square", "T": "triangle", "Q": "hexagon", "K": "diamond"}
PAWN_SHARE = 0.52  # of a cell, for every pawn but the light pawn
LIGHT_PAWN_SHARE = 0.42
BAR_PITCH = 10  # pixels per chip when there is room
MIN_PITCH = 6  # below this, only the top chips are drawn, under the stack's height


def _pawn(item: str, size: int) -> Image.Image:
    kind = item.upper()
    if item.isupper():
        return disc(size, GOLD, INK, letter=kind, letter_fill=INK, shape=SHAPES[kind])
    return disc(size, RED, PAPER, letter=kind, letter_fill=PAPER, shape=SHAPES[kind])


def _bar(canvas: ImageDraw.ImageDraw, item: str, box: tuple[int, int, int, int]) -> None:
    """One chip as a bar: solid for dark mana, hollow for light, banded steel for a shield."""
    left, top, right, bottom = box
    height = bottom - top
    if item == SHIELD:
        inset = (right - left) // 8
        canvas.rectangle((left + inset, top, right - inset, bottom), fill=STEEL, outline=STEEL_EDGE)
        middle = (top + bottom) // 2
        if height >= 5:
            canvas.line((left + inset + 3, middle, right - inset - 3, middle), fill=PAPER)
        return
    gold = item.isupper()
    radius = 0 if gold else max(1, height // 2)
    deep = GOLD_DEEP if gold else RED_DEEP
    if item in "Dd":
        fill, outline, width = (GOLD_DARK if gold else RED_DARK), (INK if gold else PAPER), 1
    else:
        fill, outline, width = (GOLD_PALE if gold else RED_PALE), deep, max(1, min(3, height // 3))
    canvas.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def _draw_stack(image: Image.Image, stack: str, origin: tuple[int, int], cell: int) -> None:
    x, y = origin
    canvas = ImageDraw.Draw(image)
    pawn = stack[-1] if stack[-1].upper() in SHAPES else ""
    chips = stack[:-1] if pawn else stack
    share = LIGHT_PAWN_SHARE if pawn in ("P", "p") else PAWN_SHARE
    pawn_size = int(cell * share) if pawn else 0
    pad = max(2, cell // 16)
    room = cell - 2 * pad - (pawn_size - pad if pawn else 0)
    pitch = min(BAR_PITCH, room / len(chips)) if chips else BAR_PITCH
    shown = chips
    if pitch < MIN_PITCH:
        badge = cell // 4
        shown = chips[-int((room - (0 if pawn else badge)) // MIN_PITCH) :]
        pitch = MIN_PITCH
        canvas.rounded_rectangle((x + 2, y + 2, x + badge * 2, y + badge), radius=4, fill=PAPER)
        label = str(len(chips))
        canvas.text((x + 4, y + 2), label, fill=INK, font=font(badge - 2))
    left, right = x + pad + cell // 12, x + cell - pad - cell // 12
    bottom = y + cell - pad
    for number, item in enumerate(shown):
        low = bottom - number * pitch
        _bar(canvas, item, (left, round(low - pitch + 1), right, round(low)))
    top = bottom - len(shown) * pitch
    if pawn:
        centre = (x + cell / 2, min(y + cell / 2, top - pawn_size / 2 + pad))
        paste_centered(image, _pawn(pawn, pawn_size), centre)


def _strike_mark(size: int) -> Image.Image:
    """A struck tile: a capture-coloured frame round the whole tile with a stroke into each
    corner, the X of a capture kept clear of the stack that now stands there."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        width = big // 14
        canvas.rectangle((0, 0, big - 1, big - 1), outline=CAPTURE_COLOUR, width=width)
        reach = big * 0.15
        for x, y in ((0, 0), (big, 0), (0, big), (big, big)):
            inward_x = reach if x == 0 else big - reach
            inward_y = reach if y == 0 else big - reach
            canvas.line((x, y, inward_x, inward_y), fill=CAPTURE_COLOUR, width=width * 3 // 2)

    return sprite(("kyo-strike",), size, draw)


def _mark_route(image: Image.Image, last: Highlight | None, center: Center, cell: int) -> None:
    """Under the stacks, so a tall stack's height badge stays readable: the route, and a
    frame on each struck tile."""
    mark_path(image, last, center, cell)
    for struck in last.captured if last is not None else ():
        paste_centered(image, _strike_mark(cell), center(struck))


def _mark_deploys(image: Image.Image, last: Highlight | None, center: Center, cell: int) -> None:
    """Over the stacks: brackets on tiles that received a shield (strikes are framed below)."""
    if last is not None:
        mark_effects(image, Highlight(last.seat, "", changed=last.changed), center, cell)


@lru_cache(maxsize=4)
def _background(grid: Grid) -> Image.Image:
    return checkerboard(grid)


def render(
    state: KyoState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    grid = Grid(SIZE, SIZE, flipped=perspective == 2)

    def draw_stacks(image: Image.Image) -> None:
        for index, stack in enumerate(state.board):
            if stack:
                _draw_stack(image, stack, grid.origin(*point(index)), grid.cell)

    icons = [_pawn("K", 34), _pawn("k", 34)]
    board = grid.board(_background(grid))
    return render_board(
        GAME,
        state,
        board,
        draw_stacks,
        icons=icons,
        last_move=last_move,
        names=names,
        under=_mark_route,
        over=_mark_deploys,
    )


# Where 24 random turns (random.Random(3)) lead: written out, as listing Kyo's turns to replay
# them took seconds of CPU at the first board a process drew.
REFERENCE = """
    a       b       c       d       e       f       g       h       i       j
10  ddh     ddlh    dllh    lh      SSSk    d       l       dll     dh      dh
 9  .       d       .       .       Sllt    S       l       dd      d       lSq
 8  .       p       .       S       .       t       h       l       lh      .
 7  p       p       .       p       S       .       p       p       p       p
 6  .       .       .       .       .       .       .       .       .       .
 5  .       .       .       .       .       .       .       P       .       .
 4  P       P       P       P       .       .       .       P       P       P
 3  .       .       S       T       SQ      .       .       .       .       H
 2  .       L       S       .       D       S       T       DLLDDDS L       .
 1  DDDH    DDLH    DLH     H       SSSLLLK L       LLLH    H       .       DDH
to move: gold
"""


def reference() -> Image.Image:
    """A mid-game position with every item and mark, to build the palette from."""
    state = dataclasses.replace(GAME.parse_diagram(REFERENCE), ply=24)
    last = Highlight(1, "c3:2-c4:1-d5", ((2, 2), (2, 3), (3, 4)), ((4, 4),), ((5, 5),))
    return render(state, last_move=last, names=["Reference Gold", "Reference Red"])
