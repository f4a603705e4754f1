"""Boost's board: points on a lined grid; pawns are circles, knights hexagons, towers squares,
dragons triangles, each with its letter. Every piece also carries its seat number, large, so
the four seat colours (chosen to stay apart for colour-blind eyes) are never the only cue.
The edge ring of points, where no tower can be built, is shaded darker than the inner area."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.canvas import (
    ICON,
    Grid,
    draw_coordinates,
    font,
    paste_centered,
    render_board,
    sprite,
)
from renderers.key import Entry, capture_entry, change_entry, route_entries
from renderers.themes import CLASSIC, Ink, Theme
from renderers.words import PLACEHOLDERS, PictureWords
from rules import Highlight
from rules.boost import Boost, BoostState
from rules.boost.board import DRAGONS, KNIGHT, PAWN, TOWER, bits, slot, slot_kind, slot_seat

GAME = Boost()

# Seat colours (theme.seats) come with the letter colour that reads best on each: one hue
# family per seat (blue, red-orange, green, yellow), Okabe-Ito colours that stay far apart
# under simulated protanopia and deuteranopia.
SHAPES = {PAWN: "circle", KNIGHT: "hexagon", TOWER: "square"}
LETTERS = {PAWN: "P", KNIGHT: "K", TOWER: "T"}


def piece(kind: int, seat: int, size: int, theme: Theme = CLASSIC) -> Image.Image:
    """A player's piece: its shape, a small letter, and its seat number large beneath it, so
    the seat can be read without telling colours apart, even at Discord's inline size."""
    fill, ink = theme.seats[seat - 1].fill, theme.seats[seat - 1].ink
    outline = theme.ink
    shape = SHAPES[kind]

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        pad = big // 12
        width = max(2, big // 24)
        box = (pad, pad, big - pad, big - pad)
        if shape == "circle":
            canvas.ellipse(box, fill=fill, outline=outline, width=width)
        elif shape == "square":
            canvas.rounded_rectangle(box, radius=big // 10, fill=fill, outline=outline, width=width)
        else:
            canvas.regular_polygon(
                (big / 2, big / 2, big / 2 - pad),
                6,
                rotation=30,
                fill=fill,
                outline=outline,
                width=width,
            )
        canvas.text(
            (big / 2, big * 0.29), LETTERS[kind], fill=ink, font=font(int(big * 0.26)), anchor="mm"
        )
        canvas.text(
            (big / 2, big * 0.62), str(seat), fill=ink, font=font(int(big * 0.5)), anchor="mm"
        )

    return sprite(("boost-piece", kind, seat, fill, ink, outline), size, draw)


def dragon(size: int, theme: Theme = CLASSIC) -> Image.Image:
    """Neutral: a dark triangle with a yellow D, unlike any seat's piece."""
    fill, ink, outline = theme.dragon.fill, theme.dragon.ink, theme.dragon.ink

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        pad = big // 14
        canvas.polygon(
            [(big / 2, pad), (big - pad, big - pad * 2), (pad, big - pad * 2)],
            fill=fill,
            outline=outline,
            width=max(2, big // 30),
        )
        canvas.text((big / 2, big * 0.62), "D", fill=ink, font=font(int(big * 0.40)), anchor="mm")

    return sprite(("boost-dragon", fill, ink), size, draw)


@lru_cache(maxsize=24)
def _background(grid: Grid, theme: Theme) -> Image.Image:
    """Lines through the points; the edge ring, where nothing can be built, is shaded."""
    image = Image.new("RGB", grid.size, theme.paper)
    canvas = ImageDraw.Draw(image)
    cell = grid.cell
    left, top = (
        grid.origin(0, grid.ranks - 1) if not grid.flipped else grid.origin(grid.files - 1, 0)
    )
    right, bottom = left + grid.files * cell, top + grid.ranks * cell
    canvas.rectangle((left, top, right - 1, bottom - 1), fill=theme.rim)
    canvas.rectangle(
        (left + cell, top + cell, right - cell - 1, bottom - cell - 1), fill=theme.board
    )
    width = max(2, cell // 40)
    for index in range(grid.files):
        x, _ = grid.center(index, 0)
        canvas.line((x, top + cell / 2, x, bottom - cell / 2), fill=theme.line, width=width)
    for index in range(grid.ranks):
        _, y = grid.center(0, index)
        canvas.line((left + cell / 2, y, right - cell / 2, y), fill=theme.line, width=width)
    middle = grid.files // 2
    cx, cy = grid.center(middle, middle)
    r = max(3, cell // 14)
    canvas.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.label)
    draw_coordinates(image, grid, theme)
    return image


def _flipped(state: BoostState, perspective: int | None) -> bool:
    """Seats that start on the far side see the board turned round (in a four-player game,
    seats 2 and 4, who start at the top)."""
    if perspective is None or perspective == 1:
        return False
    return state.players != 4 or perspective in (2, 4)


def render(
    state: BoostState,
    *,
    last_move: Highlight | None = None,
    perspective: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = CLASSIC,
    words: PictureWords,
) -> Image.Image:
    size = state.size
    grid = Grid(size, size, flipped=_flipped(state, perspective))
    piece_size = int(grid.cell * 0.84)

    def draw_pieces(image: Image.Image) -> None:
        for index, mask in enumerate(state.masks):
            if index == DRAGONS:
                sprite_image = dragon(piece_size, theme)
            else:
                sprite_image = piece(slot_kind(index), slot_seat(index), piece_size, theme)
            for point in bits(mask):
                paste_centered(image, sprite_image, grid.center(*divmod(point, size)))

    defeated = GAME.defeated(state)
    notes = [
        words.board["timed_out"]
        if seat in state.timed_out
        else words.board["resigned"]
        if seat in state.resigned
        else words.board["defeated"]
        if seat in defeated
        else ""
        for seat in range(1, state.players + 1)
    ]
    return render_board(
        GAME,
        state,
        grid.board(_background(grid, theme)),
        draw_pieces,
        icons=icons(theme)[: state.players],
        ground=ground(theme),
        theme=theme,
        words=words,
        last_move=last_move,
        names=names,
        notes=notes,
    )


def ground(theme: Theme) -> Ink:
    """What the legends show the pieces on: the board's own colour, edged in its lines (the
    seats' colours are chosen to stand on it)."""
    return Ink(theme.board, theme.line)


def icons(theme: Theme) -> list[Image.Image]:
    """Each seat's pawn as the header shows it (on a plate of `ground`)."""
    return [piece(PAWN, seat, ICON, theme) for seat in range(1, 5)]


def key(theme: Theme, words: PictureWords) -> list[Entry]:
    """What the board's pieces and marks mean, for the key picture."""
    size = 64
    area = Image.new("RGBA", (size, size), theme.rim)
    ImageDraw.Draw(area).rectangle((size // 2, 0, size, size // 2), fill=theme.board)
    return [
        Entry(piece(PAWN, 1, size, theme), words.key["boost.first_pawn"]),
        Entry(piece(KNIGHT, 1, size, theme), words.key["boost.knight"]),
        Entry(piece(TOWER, 1, size, theme), words.key["boost.tower"]),
        *(
            Entry(piece(PAWN, seat, size, theme), words.say(words.key, "boost.pawn", seat=seat))
            for seat in (2, 3, 4)
        ),
        Entry(dragon(size, theme), words.key["boost.dragon"]),
        Entry(area, words.key["boost.edge"]),
        *route_entries(theme, words),
        capture_entry(theme, words),
        change_entry(theme, words),
    ]


def reference(theme: Theme) -> Image.Image:
    """A busy four-player position with every piece kind and mark, for the palette."""
    rng = random.Random(3)
    state = GAME.new(players=4, seed=3)
    for _ in range(40):
        moves = GAME.legal_moves(state)
        if not moves or GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(moves))
    masks = list(state.masks)
    for seat in range(1, 5):
        for kind, point in ((KNIGHT, seat * 9 + 4), (TOWER, seat * 9 + 5)):
            masks = [mask & ~(1 << point) for mask in masks]
            masks[slot(seat, kind)] |= 1 << point
    shown = BoostState(tuple(masks), players=4, turn=state.turn, resigned=(4,))
    last = Highlight(1, "a1c2", ((0, 0), (0, 1), (1, 1), (2, 1)), ((3, 3),), ((4, 4),))
    return render(
        shown,
        last_move=last,
        names=["Reference", "Palette", "Builder", "Four"],
        theme=theme,
        words=PLACEHOLDERS,
    )
