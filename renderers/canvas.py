"""The shared drawing kit: fonts, cached sprites and backgrounds, header, marks, PNG encoding.

Rendering cost is dominated by anti-aliasing and PNG encoding, so everything that does not
change between turns (board background, piece sprites drawn at 4x and shrunk) is drawn once
and cached; a render only copies the background, pastes sprites and encodes with the game's
palette for its theme, which is data (renderers/palettes.py). Colours come from a `Theme`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from PIL import _imaging as pillow_core

from renderers.palettes import palette_image
from renderers.themes import RGB, Ink, Theme, contrast
from renderers.words import PictureWords
from rules.game import Game
from rules.notation import Point
from rules.state import Highlight

# Keep a few freed image buffers for reuse: every render copies a ~3 MB background, and
# fresh memory from the system costs more page faults than the drawing itself (measured
# 9.0 -> 5.3 ms per Boost board). Same as PILLOW_BLOCKS_MAX=8.
pillow_core.set_blocks_max(8)

SUPERSAMPLE = 4
WIDTH = 840
HEADER = 124
MARGIN = 36


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font, for the marks on pieces and boards (letters, figures,
    coordinates): it has ASCII and a few signs only, so words use `words_font`."""
    return ImageFont.load_default(size=size)


WORDS_FONT = files("ttf_opensans").joinpath("ttf", "OpenSans-Regular.ttf")
"""Open Sans, shipped as a Python package (ttf-opensans), so no system font is needed: it has
every letter of the languages the bot speaks (ä ß é ç ã ...) and of most players' names."""


@lru_cache(maxsize=32)
def words_font(size: int) -> ImageFont.FreeTypeFont:
    """The font of everything read as words on a picture: headers, names, keys, graphs."""
    return ImageFont.truetype(str(WORDS_FONT), size)


_SPRITES: dict[tuple[Hashable, int], Image.Image] = {}


def sprite(
    key: Hashable,
    size: int,
    draw: Callable[[ImageDraw.ImageDraw, int], None],
    width: int | None = None,
) -> Image.Image:
    """An anti-aliased RGBA picture drawn once at 4x by `draw(canvas, big_size)` and shrunk:
    `size` px square, or `width` px wide and `size` high.

    Cached by (key, size): `key` must identify everything `draw` depends on, `width` too.
    """
    cached = _SPRITES.get((key, size))
    if cached is None:
        big = size * SUPERSAMPLE
        image = Image.new("RGBA", ((width or size) * SUPERSAMPLE, big), (0, 0, 0, 0))
        draw(ImageDraw.Draw(image), big)
        cached = image.reduce(SUPERSAMPLE)
        _SPRITES[(key, size)] = cached
    return cached


def disc(
    size: int,
    fill: RGB,
    outline: RGB,
    *,
    letter: str = "",
    letter_fill: RGB | None = None,
    ring: RGB | None = None,
    shape: str = "circle",
    double: bool = False,
) -> Image.Image:
    """A piece: a filled shape with an outline, optionally a letter, an inner ring, and a
    second outline just inside the first (`double`), a mark that needs no colour."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        outline_shape(canvas, big, big // 10, shape, fill, outline)
        if double:
            outline_shape(canvas, big, big // 10 + big // 9, shape, None, outline)
        width = max(2, big // 22)
        if ring is not None:
            inner = big // 4
            canvas.ellipse((inner, inner, big - inner, big - inner), outline=ring, width=width)
        if letter:
            canvas.text(
                (big / 2, big / 2),
                letter,
                fill=letter_fill or outline,
                font=font(int(big * 0.42)),
                anchor="mm",
            )

    return sprite(("disc", fill, outline, letter, letter_fill, ring, shape, double), size, draw)


def outline_shape(
    canvas: ImageDraw.ImageDraw, big: int, pad: int, shape: str, fill: RGB | None, outline: RGB
) -> None:
    """One of the pieces' shapes, `pad` pixels inside a `big`-pixel square."""
    box = (pad, pad, big - pad, big - pad)
    width = max(2, big // 22)
    if shape == "circle":
        canvas.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        canvas.rounded_rectangle(box, radius=big // 8, fill=fill, outline=outline, width=width)
    elif shape == "diamond":
        mid = big // 2
        points = [(mid, pad), (big - pad, mid), (mid, big - pad), (pad, mid)]
        canvas.polygon(points, fill=fill, outline=outline, width=width)
    elif shape == "hexagon":
        canvas.regular_polygon(
            (big / 2, big / 2, big / 2 - pad), 6, fill=fill, outline=outline, width=width
        )
    elif shape == "triangle":
        canvas.regular_polygon(
            (big / 2, big / 2 + big / 20, big / 2 - pad), 3, fill=fill, outline=outline, width=width
        )
    else:
        raise ValueError(f"unknown shape {shape!r}")


LEGEND = 40  # a seat's swatch in the header: its piece, `ICON` px, on a plate
ICON = 34


def plate(size: int, ground: Ink) -> Image.Image:
    """What a legend's picture stands on (a seat's piece in the header, an entry of a key):
    the ground the game's pieces are shown on, edged in its ink, so that no swatch meets a
    background of its own colour (a black marble on a black header, a light tile on paper)."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        canvas.rounded_rectangle(
            (0, 0, big - 1, big - 1),
            radius=big // 6,
            fill=ground.fill,
            outline=ground.ink,
            width=2 * SUPERSAMPLE,
        )

    return sprite(("plate", ground), size, draw)


def swatch(piece: Image.Image, ground: Ink, size: int = LEGEND) -> Image.Image:
    """A piece on its `plate`, as a legend shows it."""
    image = plate(size, ground).copy()
    image.alpha_composite(piece, ((size - piece.width) // 2, (size - piece.height) // 2))
    return image


def ring_mark(size: int, colour: RGB) -> Image.Image:
    """Surrounds the point a piece landed on."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        width = big // 12
        canvas.ellipse((width, width, big - width, big - width), outline=colour, width=width)

    return sprite(("ring", colour), size, draw)


def dot_mark(size: int, colour: RGB) -> Image.Image:
    """Marks where a move started: a small filled dot."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        r = big // 6
        canvas.ellipse((big / 2 - r, big / 2 - r, big / 2 + r, big / 2 + r), fill=colour)

    return sprite(("dot", colour), size, draw)


def cross_mark(size: int, colour: RGB) -> Image.Image:
    """Marks a captured point: an X, readable without seeing colour."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        pad, width = big // 4, big // 9
        canvas.line((pad, pad, big - pad, big - pad), fill=colour, width=width)
        canvas.line((pad, big - pad, big - pad, pad), fill=colour, width=width)

    return sprite(("cross", colour), size, draw)


def corner_mark(size: int, colour: RGB) -> Image.Image:
    """Marks a point changed in place (a flip, a placement): four corner brackets."""

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        width, arm, pad = big // 14, big // 4, big // 14
        for x, dx in ((pad, 1), (big - pad, -1)):
            for y, dy in ((pad, 1), (big - pad, -1)):
                canvas.line((x, y, x + dx * arm, y), fill=colour, width=width)
                canvas.line((x, y, x, y + dy * arm), fill=colour, width=width)

    return sprite(("corner", colour), size, draw)


def step_mark(size: int, label: str, theme: Theme) -> Image.Image:
    """The numbers of the steps of a long route that reached one point ('3', or '2,5' for a
    point reached twice): a disc `size` high, stretched into a pill for a longer label."""
    ink = max(((0, 0, 0), (255, 255, 255)), key=lambda colour: contrast(colour, theme.path))
    wide = max(size, round(font(size // 2).getlength(label)) + size // 3)

    def draw(canvas: ImageDraw.ImageDraw, big: int) -> None:
        right = wide * SUPERSAMPLE - 1
        canvas.rounded_rectangle(
            (0, 0, right, big - 1),
            radius=big // 2,
            fill=theme.path,
            outline=theme.paper,
            width=big // 10,
        )
        canvas.text((right / 2, big / 2), label, fill=ink, font=font(big // 2), anchor="mm")

    return sprite(("step", label, theme.path, theme.paper), size, draw, wide)


def paste_centered(image: Image.Image, piece: Image.Image, center: tuple[float, float]) -> None:
    x = round(center[0] - piece.width / 2)
    y = round(center[1] - piece.height / 2)
    image.paste(piece, (x, y), piece)


def draw_path(
    image: Image.Image, points: Sequence[tuple[float, float]], width: int, colour: RGB
) -> None:
    """The route of the last move: a line through the given pixel centres."""
    if len(points) < 2:
        return
    canvas = ImageDraw.Draw(image)
    canvas.line([tuple(p) for p in points], fill=colour, width=width, joint="curve")


@dataclass(frozen=True)
class SeatInfo:
    """One player in the header: their piece, name, and whether it is their turn."""

    name: str
    piece: Image.Image
    to_move: bool = False
    note: str = ""


def seat_slot(seats: int, width: int = WIDTH) -> int:
    """The header's width for each player."""
    return (width - 32) // max(seats, 2)


def seat_spot(index: int, seats: int, width: int = WIDTH) -> tuple[int, int]:
    """Where the header puts the `index`-th of `seats` players: the top left of the place
    whose swatch is centred 16 px right of and 17 px below it."""
    return 16 + index * seat_slot(seats, width), 78


def draw_header(
    image: Image.Image,
    *,
    title: str,
    seats: Sequence[SeatInfo],
    status: str,
    detail: str,
    theme: Theme,
    ground: Ink,
) -> None:
    """The strip above the board: game and turn, players (the one to move boxed), each
    player's piece on a plate of `ground`. A detail too long for the strip ends in an
    ellipsis."""
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, image.width, HEADER), fill=theme.header)
    canvas.text((16, 10), title, fill=theme.header_text, font=words_font(24))
    canvas.text(
        (image.width - 16, 12),
        fit(status, image.width - 48 - int(words_font(24).getlength(title)), 22),
        fill=theme.header_text,
        font=words_font(22),
        anchor="ra",
    )
    canvas.text(
        (16, 44), fit(detail, image.width - 32, 20), fill=theme.header_dim, font=words_font(20)
    )
    slot = seat_slot(len(seats), image.width)
    for index, seat in enumerate(seats):
        left, top = seat_spot(index, len(seats), image.width)
        if seat.to_move:
            canvas.rounded_rectangle(
                (left - 7, top - 6, left + slot - 12, top + 40),
                radius=6,
                outline=theme.to_move,
                width=3,
            )
        paste_centered(image, swatch(seat.piece, ground), (left + 16, top + 17))
        label = f"{seat.name} ({seat.note})" if seat.note else seat.name
        canvas.text(
            (left + 38, top + 17),
            fit(label, slot - 60, 18),
            fill=theme.header_text,
            font=words_font(18),
            anchor="lm",
        )


def seat_word(game: Game[Any, Any], seat: int, words: PictureWords) -> str:
    """A seat's colour on a picture: `White`."""
    return words.seats[game.seat_keys[seat - 1]]


def turn_line(ply: int, who: str | None, notation: str, words: PictureWords) -> str:
    """The header's account of the last turn. Turns are numbered as in a game's record: turn N
    is the N-th move of any player (a pass or a whole Kyo route counts as one)."""
    if who is None:
        if ply == 0:
            return words.say(words.board, "no_turns")
        return words.say(words.board, "after_turn", turn=ply)
    return words.say(words.board, "turn", turn=ply, player=who, move=notation)


def game_header(
    image: Image.Image,
    game: Game[Any, Any],
    state: Any,
    pieces: Sequence[Image.Image],
    theme: Theme,
    ground: Ink,
    words: PictureWords,
    names: Sequence[str] | None = None,
    notes: Sequence[str] | None = None,
    last: Highlight | None = None,
) -> None:
    """The usual header: title, the last turn and its number, result or whose turn it is."""
    outcome = game.outcome(state)
    seats = game.players(state)
    labels = [
        names[seat - 1] if names and seat <= len(names) else seat_word(game, seat, words)
        for seat in range(1, seats + 1)
    ]
    if outcome is None:
        status = words.say(words.board, "to_move", player=labels[game.to_move(state) - 1])
    else:
        reason = words.reasons[outcome.reason]
        if outcome.is_draw:
            status = words.say(words.board, "draw", reason=reason)
        else:
            winners = labels[outcome.winners[-1] - 1]
            for seat in reversed(outcome.winners[:-1]):
                winners = words.say(words.board, "together", first=labels[seat - 1], last=winners)
            status = words.say(words.board, "won", winners=winners, reason=reason)
    shown = last or game.last(state)
    if shown is None:
        detail = turn_line(game.ply(state), None, "", words)
    else:
        detail = turn_line(game.ply(state), labels[shown.seat - 1], shown.notation, words)
    draw_header(
        image,
        title=game.title,
        status=status,
        detail=detail,
        theme=theme,
        ground=ground,
        seats=[
            SeatInfo(
                labels[seat - 1],
                pieces[seat - 1],
                to_move=outcome is None and seat == game.to_move(state),
                note=notes[seat - 1] if notes else "",
            )
            for seat in range(1, seats + 1)
        ],
    )


Center = Callable[[Point], tuple[float, float]]
"""Pixel centre of a board point."""
Marker = Callable[[Image.Image, Highlight | None, Center, int, Theme], None]
"""Draws (part of) the last move's marks: (image, highlight, center, cell size, theme)."""

LONG_ROUTE = 4  # points from which a route's steps are numbered


def mark_path(
    image: Image.Image,
    highlight: Highlight | None,
    center: Center,
    cell: int,
    theme: Theme,
) -> None:
    """Drawn under the pieces: the route, a dot where it started, a ring where it ended."""
    if highlight is None:
        return
    pixels = [center(p) for p in highlight.path]
    draw_path(image, pixels, max(3, cell // 14), theme.path)
    if len(pixels) > 1:
        paste_centered(image, dot_mark(cell, theme.path), pixels[0])
    if pixels:
        paste_centered(image, ring_mark(cell, theme.path), pixels[-1])


def number_steps(
    image: Image.Image,
    route: Sequence[Point],
    center: Center,
    cell: int,
    theme: Theme,
    room: int,
) -> None:
    """Over the pieces, for routes of `LONG_ROUTE` points or more: in the top right corner of
    each point the route reached, the numbers of the steps that reached it, in one badge at
    most `room` px wide (a point reached twice shows '2,5'; more than fit, '2,5,…')."""
    if len(route) < LONG_ROUTE:
        return
    reached: dict[Point, list[str]] = {}
    for number, point in enumerate(route[1:], start=1):
        reached.setdefault(point, []).append(str(number))
    size = max(18, cell * 2 // 5)
    face = font(size // 2)
    for point, numbers in reached.items():
        shown = len(numbers)
        label = ",".join(numbers)
        while shown > 1 and face.getlength(label) > room - size // 3:
            shown -= 1
            label = ",".join(numbers[:shown]) + ",…"
        mark = step_mark(size, label, theme)
        x, y = center(point)
        paste_centered(
            image, mark, (x + cell / 2 - mark.width / 2 - 1, y - cell / 2 + size / 2 + 1)
        )


def mark_effects(
    image: Image.Image,
    highlight: Highlight | None,
    center: Center,
    cell: int,
    theme: Theme,
) -> None:
    """Drawn over the pieces: brackets on changed points, an X on captured ones."""
    if highlight is None:
        return
    for point in highlight.changed:
        paste_centered(image, corner_mark(cell, theme.change), center(point))
    for point in highlight.captured:
        paste_centered(image, cross_mark(cell, theme.capture), center(point))


@dataclass(frozen=True)
class Board:
    """Where a game's points lie in its picture: the cached empty board, the pixel centre of
    each point, and the size of one cell (which scales the last-move marks)."""

    background: Image.Image
    center: Center
    cell: int


def render_board(
    game: Game[Any, Any],
    state: Any,
    board: Board,
    draw_pieces: Callable[[Image.Image], None],
    *,
    icons: Sequence[Image.Image],
    ground: Ink,
    theme: Theme,
    words: PictureWords,
    last_move: Highlight | None = None,
    names: Sequence[str] | None = None,
    notes: Sequence[str] | None = None,
    under: Marker = mark_path,
    over: Marker = mark_effects,
) -> Image.Image:
    """The picture every game draws the same way: a copy of the cached board, the last move's
    route under the pieces, `draw_pieces(image)`, its effects over them, then the header with
    one `icons` entry per seat, each on a plate of `ground`, in `words`. `last_move` overrides
    the state's own last turn."""
    image = board.background.copy()
    last = last_move or game.last(state)
    under(image, last, board.center, board.cell, theme)
    draw_pieces(image)
    over(image, last, board.center, board.cell, theme)
    game_header(image, game, state, icons, theme, ground, words, names, notes, last=last)
    return image


def fit(text: str, width: float, size: int) -> str:
    """The text, or as much of it as fits in `width` pixels followed by an ellipsis."""
    face = words_font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


@dataclass(frozen=True)
class Grid:
    """A rectangular board laid out under the header; cells are (file, rank), rank 0 at bottom.
    `flipped` turns it round (the far side's view)."""

    files: int
    ranks: int
    flipped: bool = False

    @property
    def cell(self) -> int:
        return (WIDTH - 2 * MARGIN) // self.files

    @property
    def size(self) -> tuple[int, int]:
        return WIDTH, HEADER + 2 * MARGIN + self.ranks * self.cell

    def origin(self, file: int, rank: int) -> tuple[int, int]:
        """Top-left pixel of a cell."""
        column = self.files - 1 - file if self.flipped else file
        row = rank if self.flipped else self.ranks - 1 - rank
        left = (WIDTH - self.files * self.cell) // 2
        return left + column * self.cell, HEADER + MARGIN + row * self.cell

    def center(self, file: int, rank: int) -> tuple[float, float]:
        x, y = self.origin(file, rank)
        return x + self.cell / 2, y + self.cell / 2

    def board(self, background: Image.Image) -> Board:
        """This grid as a `Board` drawn on `background`."""
        return Board(background, lambda point: self.center(*point), self.cell)


@lru_cache(maxsize=32)
def checkerboard(grid: Grid, theme: Theme) -> Image.Image:
    """Squares with file letters and rank numbers on all four sides."""
    image = Image.new("RGB", grid.size, theme.paper)
    canvas = ImageDraw.Draw(image)
    cell = grid.cell
    for file in range(grid.files):
        for rank in range(grid.ranks):
            x, y = grid.origin(file, rank)
            colour = theme.dark_square if (file + rank) % 2 == 0 else theme.light_square
            canvas.rectangle((x, y, x + cell - 1, y + cell - 1), fill=colour)
    draw_coordinates(image, grid, theme)
    return image


def draw_coordinates(image: Image.Image, grid: Grid, theme: Theme) -> None:
    canvas = ImageDraw.Draw(image)
    label_font = font(22)
    half = MARGIN // 2
    for file in range(grid.files):
        x, top = grid.center(file, grid.ranks - 1 if not grid.flipped else 0)
        _, bottom = grid.center(file, 0 if not grid.flipped else grid.ranks - 1)
        letter = "abcdefghijklmnopqrstuvwxyz"[file]
        for y in (top - grid.cell / 2 - half, bottom + grid.cell / 2 + half):
            canvas.text((x, y), letter, fill=theme.label, font=label_font, anchor="mm")
    for rank in range(grid.ranks):
        left, y = grid.center(0 if not grid.flipped else grid.files - 1, rank)
        right, _ = grid.center(grid.files - 1 if not grid.flipped else 0, rank)
        for x in (left - grid.cell / 2 - half, right + grid.cell / 2 + half):
            canvas.text((x, y), str(rank + 1), fill=theme.label, font=label_font, anchor="mm")


def quantize(image: Image.Image, key: str, theme: Theme) -> Image.Image:
    """The picture mapped, undithered, onto the fixed palette of game `key` in `theme` (see
    renderers/palettes.py). The same colour always maps to the same index, so a crop maps as
    the whole picture does."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    return rgb.quantize(palette=palette_image(key, theme), dither=Image.Dither.NONE)


def encode_png(image: Image.Image, key: str, theme: Theme) -> bytes:
    """Palette PNG (see `quantize`). zlib level 3 encodes about 2.5x faster than the default
    for some 20% more bytes."""
    buffer = io.BytesIO()
    quantize(image, key, theme).save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
