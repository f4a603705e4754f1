"""Kyo's board: every stack drawn side-on, chips as bars from the bottom up, the pawn on top.

A stack reads like the real thing: its bottom chip is the lowest bar, on a dark column that
shows between the chips. Each property has a cue that does not rely on hue alone, so the
picture survives colour blindness and a phone screen (the board about 400 px wide):

- side: Gold's pawns are light with capital letters, its chips whole bars; Red's pawns are
  dark with small letters and a double outline, its chips bars broken in the middle;
- mana: dark mana is a deep bar, light mana a pale one;
- shields: short steel-grey bars, the same for both sides;
- pawns: a shape and a letter per type (P circle, H square, T triangle, Q hexagon, K diamond);
- height: every chip is a bar tall enough to read on a phone; a tile shows the top chips it
  has room for, and a stack of three chips or more its count in the top left corner;
- the last turn: its route in blue, its steps numbered when it is long (in the top right
  corner), a struck tile framed in vermilion, deployed shields bracketed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.canvas import (
    ICON,
    Center,
    Grid,
    checkerboard,
    disc,
    font,
    mark_effects,
    number_steps,
    paste_centered,
    render_board,
    sprite,
)
from renderers.key import Entry, change_entry, route_entries, step_entry
from renderers.themes import CLASSIC, Ink, KyoSide, Theme
from renderers.words import PLACEHOLDERS, PictureWords
from rules import Highlight
from rules.kyo import Kyo, KyoState
from rules.kyo.board import SHIELD, SIZE, point

GAME = Kyo()

SHAPES = {"P": "circle", "H": "square", "T": "triangle", "Q": "hexagon", "K": "diamond"}
# Sizes are shares of a cell (76 px on the board), chosen for a phone, where the 840-px board
# is shown about 400 px wide: a chip's bar is 10 px (4.8 px there), the gap in Red's chips
# 14 px (6.7 px), so that each reads on its own (tests/renderers/test_phone.py measures it).
PAWN_SHARE = 0.56
LIGHT_PAWN_SHARE = 0.46
BAR_SHARE = 0.13  # a chip's height
BAR_WIDTH_SHARE = 0.68
GAP_SHARE = 0.18  # the break in the middle of Red's chips
SHIELD_SHARE = 0.34  # a shield's width
SPACING = 2  # pixels of the column between two chips and round them
COUNTED = 3  # stacks of this many chips or more show their count
COUNT_SHARE = 0.4  # the count's badge, square


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


def _pawn_size(pawn: str, cell: int) -> int:
    return round(cell * (LIGHT_PAWN_SHARE if pawn in "Pp" else PAWN_SHARE)) if pawn else 0


def shown_chips(stack: str, cell: int) -> int:
    """How many of a stack's chips, counted from the top, its tile has room to draw at the
    readable bar height (a taller stack shows its count as well)."""
    pawn = stack[-1] if stack[-1].upper() in SHAPES else ""
    chips = len(stack) - (1 if pawn else 0)
    pitch = round(cell * BAR_SHARE) + SPACING
    room = cell - _pad(cell) - SPACING - _visible(_pawn_size(pawn, cell))
    return min(chips, room // pitch)


def _visible(pawn_size: int) -> int:
    """A pawn's height without the transparent tenth its sprite has all round."""
    return round(pawn_size * 0.8)


def _pad(cell: int) -> int:
    return max(2, cell // 25)


def _bar(
    canvas: ImageDraw.ImageDraw, item: str, box: tuple[int, int, int, int], theme: Theme
) -> None:
    """One chip on the dark column: a deep bar for dark mana, a pale one for light mana,
    broken in the middle for Red; a shield is a short steel bar."""
    left, top, right, bottom = box
    width = right - left
    if item == SHIELD:
        inset = (width - round(width * SHIELD_SHARE / BAR_WIDTH_SHARE)) // 2
        canvas.rectangle((left + inset, top, right - inset, bottom), fill=theme.shield.fill)
        return
    side = _side(item, theme)
    fill = side.dark_mana if item in "Dd" else side.light_mana
    if item.isupper():
        canvas.rectangle(box, fill=fill)
        return
    gap = round(width * GAP_SHARE / BAR_WIDTH_SHARE)
    half = (width - gap) // 2
    canvas.rectangle((left, top, left + half, bottom), fill=fill)
    canvas.rectangle((right - half, top, right, bottom), fill=fill)


def _draw_stack(
    image: Image.Image, stack: str, origin: tuple[int, int], cell: int, theme: Theme
) -> None:
    """The chips the tile has room for, from the top down, on a dark column; the pawn on top;
    the count in the corner for a stack of `COUNTED` chips or more, the pawn beside it."""
    x, y = origin
    canvas = ImageDraw.Draw(image)
    pawn = stack[-1] if stack[-1].upper() in SHAPES else ""
    chips = stack[:-1] if pawn else stack
    shown = chips[len(chips) - shown_chips(stack, cell) :]
    pawn_size = _pawn_size(pawn, cell)
    bar, pad = round(cell * BAR_SHARE), _pad(cell)
    width = round(cell * BAR_WIDTH_SHARE)
    left = x + (cell - width) // 2
    bottom = y + cell - pad
    top = bottom
    if shown:
        top = bottom - len(shown) * (bar + SPACING) - SPACING
        canvas.rectangle(
            (left - SPACING, top, left + width + SPACING - 1, bottom - 1), fill=theme.stack
        )
        for number, item in enumerate(shown):
            low = bottom - SPACING - number * (bar + SPACING)
            _bar(canvas, item, (left, low - bar, left + width - 1, low - 1), theme)
    counted = len(chips) >= COUNTED  # every tile has room for 3 chips, so none is hidden
    if pawn:
        # Beside the count, the pawn moves right as far as the column reaches.
        across = left + width - _visible(pawn_size) / 2 if counted else x + cell / 2
        centre = (across, min(y + cell / 2, top - _visible(pawn_size) / 2))
        paste_centered(image, _pawn(pawn, pawn_size, theme), centre)
    if counted:
        _count_badge(canvas, len(chips), (x, y), cell, theme)


def _count_badge(
    canvas: ImageDraw.ImageDraw, count: int, origin: tuple[int, int], cell: int, theme: Theme
) -> None:
    """The number of chips in a stack in the tile's top left corner, in bold figures that a
    phone shows 8 px high or more."""
    x, y = origin
    size = round(cell * COUNT_SHARE)
    width = size if count < 10 else size * 3 // 2
    canvas.rounded_rectangle(
        (x + 1, y + 1, x + 1 + width, y + 1 + size), radius=4, fill=theme.paper, outline=theme.ink
    )
    canvas.text(
        (x + 1 + width / 2, y + 1 + size / 2),
        str(count),
        fill=theme.ink,
        font=font(size - 3),
        anchor="mm",
        stroke_width=1,
        stroke_fill=theme.ink,
    )


def _strike_mark(size: int, theme: Theme) -> Image.Image:
    """A struck tile: a capture-coloured frame round the whole tile with a short stroke into
    each corner, the X of a capture kept clear of the stack that now stands there."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        width = big // 14
        canvas.rectangle((0, 0, big - 1, big - 1), outline=theme.capture, width=width)
        reach = big * 0.12
        for x, y in ((0, 0), (big, 0), (0, big), (big, big)):
            inward_x = reach if x == 0 else big - reach
            inward_y = reach if y == 0 else big - reach
            canvas.line((x, y, inward_x, inward_y), fill=theme.capture, width=width * 3 // 2)

    return sprite(("kyo-strike", theme.capture), size, draw)


def _mark_over(
    image: Image.Image, last: Highlight | None, center: Center, cell: int, theme: Theme
) -> None:
    """Over the stacks (the route is drawn under them): a frame on each struck tile, a long
    route's step numbers, brackets on tiles that received a shield."""
    if last is not None:
        for struck in last.captured:
            paste_centered(image, _strike_mark(cell, theme), center(struck))
        room = cell - round(cell * COUNT_SHARE) - 4  # beside a stack's count
        number_steps(image, last.path, center, cell, theme, room)
        mark_effects(image, Highlight(last.seat, "", changed=last.changed), center, cell, theme)


def render(
    state: KyoState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
    words: PictureWords,
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
        ground=ground(theme),
        theme=theme,
        words=words,
        last_move=last_move,
        names=names,
        over=_mark_over,
    )


def ground(theme: Theme) -> Ink:
    """What the legends show the pawns and tiles on: a light tone, on which Gold's pawns are
    light with dark letters and Red's dark with light ones."""
    return theme.light


def icons(theme: Theme) -> list[Image.Image]:
    """Each side's king as the header shows it (on a plate of `ground`)."""
    return [_pawn("K", ICON, theme), _pawn("k", ICON, theme)]


def _tile_of(stack: str, theme: Theme, size: int = 64) -> Image.Image:
    image = Image.new("RGBA", (size, size), theme.light_square)
    _draw_stack(image, stack, (0, 0), size, theme)
    return image


def key(theme: Theme, words: PictureWords) -> list[Entry]:
    """What the stacks and marks mean, for the key picture."""
    struck = Image.new("RGBA", (64, 64), theme.light_square)
    paste_centered(struck, _strike_mark(64, theme), (32, 32))
    return [
        *(Entry(_pawn(kind, 64, theme), words.key[f"kyo.pawn_{kind}"]) for kind in "PHTQK"),
        Entry(_pawn("k", 64, theme), words.key["kyo.red_pawns"]),
        Entry(_tile_of("DH", theme), words.key["kyo.gold_dark_mana"]),
        Entry(_tile_of("LH", theme), words.key["kyo.gold_light_mana"]),
        Entry(_tile_of("dh", theme), words.key["kyo.red_dark_mana"]),
        Entry(_tile_of("lh", theme), words.key["kyo.red_light_mana"]),
        Entry(_tile_of("SH", theme), words.key["kyo.shield"]),
        Entry(_tile_of("DLDH", theme), words.key["kyo.stack"]),
        *route_entries(theme, words),
        step_entry(theme, words),
        Entry(struck, words.key["kyo.struck"]),
        change_entry(theme, words, "kyo.deployed"),
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
    names = ["Reference Gold", "Reference Red"]
    return render(state, last_move=last, names=names, theme=theme, words=PLACEHOLDERS)
