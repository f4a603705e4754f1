"""Kyo's board: every stack drawn side-on, chips as bars from the bottom up, the pawn on top.

A stack reads like the real thing: its bottom chip is the lowest bar. Each property has a cue
that does not rely on hue alone, so the picture survives colour blindness and a phone screen:

- side: Gold is light with dark outlines, capital letters and square-ended bars; Red is dark
  with light outlines, small letters, a double outline on its pawns and round-ended bars;
- mana: dark mana is a solid bar, light mana a hollow one (pale inside, thick rim);
- shields: narrower steel-grey bars with a white band, the same for both sides;
- pawns: a shape and a letter per type (P circle, H square, T triangle, Q hexagon, K diamond);
- height: a stack of three chips or more shows its chip count in a corner badge, readable at
  Discord's inline size where the bars are a few pixels each;
- the last turn: its route in blue, its steps numbered when it is long, a struck tile framed
  in vermilion, deployed shields bracketed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.canvas import (
    Center,
    Grid,
    checkerboard,
    disc,
    font,
    mark_effects,
    mark_path,
    number_steps,
    paste_centered,
    render_board,
    sprite,
)
from renderers.key import Entry, change_entry, route_entries, step_entry
from renderers.themes import CLASSIC, KyoSide, Theme
from rules import Highlight
from rules.kyo import Kyo, KyoState
from rules.kyo.board import SHIELD, SIZE, point

GAME = Kyo()

SHAPES = {"P": "circle", "H": "square", "T": "triangle", "Q": "hexagon", "K": "diamond"}
PAWN_SHARE = 0.58  # of a cell, for every pawn but the light pawn
LIGHT_PAWN_SHARE = 0.48
BAR_PITCH = 10  # pixels per chip when there is room
MIN_PITCH = 6  # below this, only the top chips are drawn
COUNTED = 3  # stacks of this many chips or more show their count


def _side(item: str, theme: Theme) -> KyoSide:
    return theme.gold if item.isupper() else theme.red


def _pawn(item: str, size: int, theme: Theme) -> Image.Image:
    """Gold: a capital letter on a light shape. Red: a small letter on a dark shape with a
    double outline."""
    kind = item.upper()
    pawn = _side(item, theme).pawn
    gold = item.isupper()
    letter = kind if gold else kind.lower()
    return disc(
        size,
        pawn.fill,
        pawn.ink,
        letter=letter,
        letter_fill=pawn.ink,
        shape=SHAPES[kind],
        double=not gold,
    )


def _bar(
    canvas: ImageDraw.ImageDraw, item: str, box: tuple[int, int, int, int], theme: Theme
) -> None:
    """One chip as a bar: solid for dark mana, hollow for light, banded steel for a shield."""
    left, top, right, bottom = box
    height = bottom - top
    if item == SHIELD:
        inset = (right - left) // 8
        canvas.rectangle(
            (left + inset, top, right - inset, bottom),
            fill=theme.shield.fill,
            outline=theme.shield.ink,
        )
        middle = (top + bottom) // 2
        if height >= 5:
            canvas.line((left + inset + 3, middle, right - inset - 3, middle), fill=theme.paper)
        return
    side = _side(item, theme)
    radius = 0 if item.isupper() else max(1, height // 2)
    if item in "Dd":
        fill, outline, width = side.dark_mana, side.outline, 1
    else:
        fill, outline, width = side.light_mana, side.rim, max(1, min(3, height // 3))
    canvas.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def _draw_stack(
    image: Image.Image, stack: str, origin: tuple[int, int], cell: int, theme: Theme
) -> None:
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
        shown = chips[-int(room // MIN_PITCH) :]
        pitch = MIN_PITCH
    left, right = x + pad + cell // 12, x + cell - pad - cell // 12
    bottom = y + cell - pad
    for number, item in enumerate(shown):
        low = bottom - number * pitch
        _bar(canvas, item, (left, round(low - pitch + 1), right, round(low)), theme)
    top = bottom - len(shown) * pitch
    if pawn:
        centre = (x + cell / 2, min(y + cell / 2, top - pawn_size / 2 + pad))
        paste_centered(image, _pawn(pawn, pawn_size, theme), centre)
    if len(chips) >= COUNTED:
        _count_badge(canvas, len(chips), (x, y), cell, theme)


def _count_badge(
    canvas: ImageDraw.ImageDraw, count: int, origin: tuple[int, int], cell: int, theme: Theme
) -> None:
    """The number of chips in a stack, large, in the tile's top left corner."""
    x, y = origin
    size = cell * 3 // 10
    width = size if count < 10 else size * 3 // 2
    canvas.rounded_rectangle(
        (x + 1, y + 1, x + 1 + width, y + 1 + size), radius=4, fill=theme.paper, outline=theme.ink
    )
    canvas.text(
        (x + 1 + width / 2, y + 1 + size / 2),
        str(count),
        fill=theme.ink,
        font=font(size - 2),
        anchor="mm",
    )


def _strike_mark(size: int, theme: Theme) -> Image.Image:
    """A struck tile: a capture-coloured frame round the whole tile with a stroke into each
    corner, the X of a capture kept clear of the stack that now stands there."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        width = big // 14
        canvas.rectangle((0, 0, big - 1, big - 1), outline=theme.capture, width=width)
        reach = big * 0.15
        for x, y in ((0, 0), (big, 0), (0, big), (big, big)):
            inward_x = reach if x == 0 else big - reach
            inward_y = reach if y == 0 else big - reach
            canvas.line((x, y, inward_x, inward_y), fill=theme.capture, width=width * 3 // 2)

    return sprite(("kyo-strike", theme.capture), size, draw)


def _mark_route(
    image: Image.Image, last: Highlight | None, center: Center, cell: int, theme: Theme
) -> None:
    """Under the stacks: the route, and a frame on each struck tile."""
    mark_path(image, last, center, cell, theme)
    for struck in last.captured if last is not None else ():
        paste_centered(image, _strike_mark(cell, theme), center(struck))


def _mark_over(
    image: Image.Image, last: Highlight | None, center: Center, cell: int, theme: Theme
) -> None:
    """Over the stacks: a long route's step numbers, brackets on tiles that received a shield
    (strikes are framed below)."""
    if last is not None:
        number_steps(image, last.path, center, cell, theme)
        mark_effects(image, Highlight(last.seat, "", changed=last.changed), center, cell, theme)


def render(
    state: KyoState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
) -> Image.Image:
    """Red (seat 2) sees the board turned round."""
    grid = Grid(SIZE, SIZE, flipped=perspective == 2)

    def draw_stacks(image: Image.Image) -> None:
        for index, stack in enumerate(state.board):
            if stack:
                _draw_stack(image, stack, grid.origin(*point(index)), grid.cell, theme)

    return render_board(
        GAME,
        state,
        grid.board(checkerboard(grid, theme)),
        draw_stacks,
        icons=icons(theme),
        theme=theme,
        last_move=last_move,
        names=names,
        under=_mark_route,
        over=_mark_over,
    )


def icons(theme: Theme) -> list[Image.Image]:
    """Each side's king as the header shows it."""
    return [_pawn("K", 34, theme), _pawn("k", 34, theme)]


def _tile_of(stack: str, theme: Theme, size: int = 64) -> Image.Image:
    image = Image.new("RGBA", (size, size), theme.light_square)
    _draw_stack(image, stack, (0, 0), size, theme)
    return image


def key(theme: Theme) -> list[Entry]:
    """What the stacks and marks mean, for the key picture."""
    struck = Image.new("RGBA", (64, 64), theme.light_square)
    paste_centered(struck, _strike_mark(64, theme), (32, 32))
    names = {"P": "light pawn", "H": "heavy pawn", "T": "tower", "Q": "queen", "K": "king"}
    return [
        *(Entry(_pawn(kind, 64, theme), f"Gold {name} ({kind})") for kind, name in names.items()),
        Entry(_pawn("k", 64, theme), "Red pawns: small letter, double outline"),
        Entry(_tile_of("DH", theme), "Gold dark mana: a solid bar, square ends"),
        Entry(_tile_of("LH", theme), "Gold light mana: a hollow bar"),
        Entry(_tile_of("dh", theme), "Red dark mana: a solid bar, round ends"),
        Entry(_tile_of("lh", theme), "Red light mana: a hollow bar, round ends"),
        Entry(_tile_of("SH", theme), "Shield: a banded steel bar"),
        Entry(_tile_of("DLDH", theme), "Stack of 3 chips or more: its count"),
        *route_entries(theme),
        step_entry(theme),
        Entry(struck, "Tile struck by the last turn"),
        change_entry(theme, "Shield deployed by the last turn"),
    ]


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


def reference(theme: Theme) -> Image.Image:
    """A mid-game position with every item and mark, to build the palette from (by
    renderers/make_palettes.py only)."""
    state = dataclasses.replace(GAME.parse_diagram(REFERENCE), ply=24)
    last = Highlight(
        1,
        "c3:2-c4:1-d5",
        ((2, 2), (2, 3), (3, 4), (4, 4), (5, 4)),
        ((4, 4),),
        ((5, 5),),
    )
    return render(state, last_move=last, names=["Reference Gold", "Reference Red"], theme=theme)
