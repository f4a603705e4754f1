"""Boards read on a phone, where Discord shows the 840-px picture about 400 px wide.

Each game's densest positions are drawn in every theme, then every occupied point is given
every other thing that could stand there (another side's piece, another kind, nothing; in
Kyo every other chip at each place a chip is drawn, another pawn, a chip more or less), and
both pictures are shrunk to 400 px and seen in grey. The two must differ, at that size and
without colour, by more than `LEVELS` grey levels on at least `AREA` pixels: what a mark
`SIDE` px square would change (the themes' test asks the same of the seats' icons at 34 px).
A change of a shape (a piece, a chip's bar, its break, a badge), unlike one of a letter or a
number, must moreover change one whole `SIDE`x`SIDE` block: the mark is at least `SIDE` px
in its smallest dimension.

Every check is made of the normal picture and of the large one (renderers/large.py), where
each mark is found in the half of the board that shows it whole.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter

from bot.posts.pictures import picture_words
from fixtures.positions import diagram
from renderers import THEMES, render
from renderers import boku as boku_picture
from renderers import kyo as kyo_picture
from renderers.canvas import HEADER, WIDTH, Grid
from renderers.large import cut, enlarge
from renderers.themes import Theme
from rules import get_game
from rules.boku.board import POINTS
from rules.boost.board import DRAGONS, bits
from rules.boost.state import BoostState
from rules.kyo.board import point
from rules.playout import random_states

WORDS = picture_words("en")

PHONE = 400  # pixels across, as a phone shows the board
LEVELS = 60
SIDE = 4
AREA = SIDE * SIDE
Box = tuple[float, float, float, float]
Placer = Callable[[Box], Box]


@dataclass(frozen=True)
class Mark:
    """Where (in the 840-px picture) a mark changed, whether it was a shape, what it was, and
    how many pixels must show the change: a count's figure changed into a like one (5 and 6)
    differs in a stroke, so for figures it is their size that is measured (see below)."""

    box: Box
    solid: bool
    what: str
    least: int = AREA


@dataclass(frozen=True)
class Change:
    """A position in which some marks differ from the one drawn."""

    state: Any
    marks: tuple[Mark, ...]


def phone(image: Image.Image) -> Image.Image:
    """The picture as a phone shows it, in grey."""
    height = round(image.height * PHONE / image.width)
    return image.convert("RGB").resize((PHONE, height), Image.Resampling.BOX).convert("L")


def shrunk(box: Box, width: int = WIDTH) -> tuple[int, int, int, int]:
    left, top, right, bottom = (round(edge * PHONE / width) for edge in box)
    return left, top, right, bottom


def picture(game: str, state: Any, theme: Theme, large: bool) -> tuple[Image.Image, Placer]:
    """The picture as drawn for a member who chose `large` or not, and where a box of the
    normal picture's board lies in it: in the large one, in the left half if it fits there
    whole, else in the right half."""
    image = render(game, state, theme=theme, words=WORDS)
    if not large:
        return image, lambda box: box
    bigger = enlarge(image, game, state, theme)
    left_end, right_start = cut(game, state)
    top = round(HEADER * bigger.width / WIDTH)

    def place(box: Box) -> Box:
        x0, y0, x1, y1 = box
        if x1 <= left_end:
            dx, dy = 0, top - HEADER
        else:
            assert x0 >= right_start, box
            dx, dy = bigger.width - WIDTH, bigger.height - image.height
        placed = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        same = image.crop(box) == bigger.crop(placed)
        assert same, f"{box} is not at {placed} in the large picture"
        return placed

    return bigger, place


# Counts, in each 4x4 window, the pixels a mask marks (each worth 15, so that 16 fit in a byte).
WINDOW = ImageFilter.Kernel((5, 5), [1, 1, 1, 1, 0] * 4 + [0] * 5, scale=1)
FILLED = 13  # of a window's 16 pixels: blurred edges and a letter inside may take a few


def has_block(mask: Image.Image) -> bool:
    """Whether some `SIDE`x`SIDE` window of the mask is all but filled."""
    counts = mask.point(lambda value: 15 if value else 0).filter(WINDOW)
    return any(counts.histogram()[FILLED * 15 :])


def unreadable(
    game: str, before: Image.Image, change: Change, theme: Theme, large: bool
) -> list[str]:
    """The marks whose change does not show at phone size, described."""
    drawn, place = picture(game, change.state, theme, large)
    after = phone(drawn)
    mask = ImageChops.difference(before, after).point(lambda v: 255 if v > LEVELS else 0)
    failures = []
    for mark in change.marks:
        tile = mask.crop(shrunk(place(mark.box), drawn.width))
        count = tile.histogram()[255]
        if count < mark.least or (mark.solid and not has_block(tile)):
            failures.append(f"{mark.what} at {shrunk(place(mark.box), drawn.width)}: {count} px")
    return failures


# --- the positions -----------------------------------------------------------------------------


def densest(game_name: str, seed: int, count: Callable[[Any], int]) -> Any:
    """The position with the most pieces in a few seeded random games."""
    game = get_game(game_name)
    rng = random.Random(seed)
    return max((s for _ in range(3) for s in random_states(game, rng, bound=200)), key=count)


def named(game_name: str, name: str) -> Any:
    return get_game(game_name).parse_diagram(diagram(game_name, name))


def occupied(state: Any) -> int:
    return sum(code not in ".·" for code in state.board)


# Every kind of stack the picture draws, tall ones included (more chips than a tile shows).
KYO_STACKS = """
    a          b     c        d     e        f     g     h        i     j
10  DLDLDLDLdk .     dddlllS  lh    SSSk     d     l     dll      dh    dh
 9  .          d     .        .     Sllt     S     l     dd       d     lSq
 8  DLSDLSDL   p     .        S     .        t     h     l        lh    .
 7  p          p     .        p     S        .     p     p        p     p
 6  .          .     .        .     .        .     .     .        .     .
 5  ldLD       .     .        .     .        .     .     P        .     .
 4  P          P     P        P     .        .     .     P        P     P
 3  .          .     S        T     SQ       .     .     .        .     H
 2  .          L     S        .     D        S     T     DLLDDDS  L     .
 1  DDDH       DDLH  DLH      H     SSSLLLK  L     LLLH  H        .     DDH
to move: gold
"""

POSITIONS: dict[str, Callable[[], list[Any]]] = {
    "quorum": lambda: [named("quorum", "mid-game, ply 20"), densest("quorum", 1, occupied)],
    "boku": lambda: [named("boku", "mid-game, ply 60"), densest("boku", 1, occupied)],
    "razzle": lambda: [
        named("razzle", "mid-game, ply 20"),
        named("razzle", "seed: ineligible receivers"),
    ],
    "boost": lambda: [
        named("boost", "four players, seat 3 to move"),
        densest("boost", 1, lambda s: sum(bin(mask).count("1") for mask in s.masks)),
    ],
    "kyo": lambda: [
        named("kyo", "queen field"),
        named("kyo", "tower road"),
        get_game("kyo").parse_diagram(kyo_picture.REFERENCE),
        get_game("kyo").parse_diagram(KYO_STACKS),
    ],
}


# --- what else may stand on a point, game by game ----------------------------------------------


def cycled(codes: str, shift: int) -> dict[str, str]:
    """Each code replaced by the one `shift` places on in `codes`."""
    return {code: codes[(i + shift) % len(codes)] for i, code in enumerate(codes)}


def grid_box(grid: Grid, file: int, rank: int) -> Box:
    x, y = grid.origin(file, rank)
    return x, y, x + grid.cell, y + grid.cell


def lettered(state: Any, codes: str, box: Callable[[int], Box], **derived: Any) -> Iterator[Change]:
    """For a board kept as one code per point (the last of `codes` is an empty point), every
    occupied point given each other code in turn. Renderers read `board` only, so the other
    fields derived from it are just reset (`derived`)."""
    board: str = state.board
    points = [i for i, code in enumerate(board) if code in codes[:-1]]
    for shift in range(1, len(codes)):
        mapping = cycled(codes, shift)
        changed = "".join(mapping.get(code, code) for code in board)
        marks = tuple(
            Mark(box(i), mapping[board[i]] != codes[-1], f"{board[i]} as {mapping[board[i]]}")
            for i in points
        )
        yield Change(dataclasses.replace(state, board=changed, **derived), marks)


def quorum_changes(state: Any) -> Iterator[Change]:
    grid = Grid(8, 8)
    yield from lettered(state, "wb.", lambda i: grid_box(grid, i % 8, i // 8), stones=(0, 0, 0))


def boku_changes(state: Any) -> Iterator[Change]:
    half = boku_picture.MARBLE_SIZE / 2

    def box(index: int) -> Box:
        x, y = boku_picture.center(POINTS[index])
        return x - half, y - half, x + half, y + half

    yield from lettered(state, "12.", box)


def razzle_changes(state: Any) -> Iterator[Change]:
    grid = Grid(7, 8)

    def box(index: int) -> Box:
        return grid_box(grid, index % 7, index // 7)

    yield from lettered(state, "xXoO.", box, occupied=-1)
    pieces = frozenset(i for i, code in enumerate(state.board) if code != ".")
    yield Change(
        dataclasses.replace(state, ineligible=pieces - state.ineligible),
        tuple(Mark(box(i), True, "ineligible badge") for i in sorted(pieces)),
    )


def boost_changes(state: BoostState) -> Iterator[Change]:
    """Every piece as each other seat's or kind, a dragon, or nothing. A seat's piece turned
    into another seat's or kind differs by its number, letter or shape; into nothing or a
    dragon (or a dragon into anything), by its whole shape."""
    grid = Grid(state.size, state.size)
    slots = len(state.masks)
    nothing = slots
    for shift in range(1, slots + 1):
        masks = [0] * slots
        marks = []
        for index, mask in enumerate(state.masks):
            target = (index + shift) % (slots + 1)
            if target != nothing:
                masks[target] = mask
            solid = DRAGONS in (index, target) and target != nothing
            for p in bits(mask):
                marks.append(
                    Mark(grid_box(grid, *divmod(p, state.size)), solid, f"slot {index} as {target}")
                )
        shown = BoostState(tuple(masks), players=state.players, turn=state.turn)
        yield Change(shown, tuple(marks))


PAWNS = "PHTQKphtqk"
CHIPS = "DLdlS"


def kyo_changes(state: Any) -> Iterator[Change]:
    """Each chip drawn as each other chip, each pawn as each other pawn or none, a chip more
    and a chip less (shown by a bar or by the count)."""
    grid = Grid(10, 10)
    board: tuple[str, ...] = state.board

    def box(index: int) -> Box:
        return grid_box(grid, *point(index))

    def held(stack: str) -> int:
        return len(stack) - (stack[-1] in PAWNS)

    def changed(new: list[str], marks: list[Mark]) -> Change:
        return Change(dataclasses.replace(state, board=tuple(new)), tuple(marks))

    shown = [kyo_picture.shown_chips(s, grid.cell) if s else 0 for s in board]
    for stack, count in zip(board, shown, strict=True):
        assert count >= min(held(stack), 3) if stack else True, stack
    for depth in range(max(shown)):  # the depth-th chip from the top
        for shift in range(1, len(CHIPS)):
            mapping = cycled(CHIPS, shift)
            new, marks = list(board), []
            for index, stack in enumerate(board):
                if depth < shown[index]:
                    at = held(stack) - 1 - depth
                    new[index] = stack[:at] + mapping[stack[at]] + stack[at + 1 :]
                    marks.append(
                        Mark(box(index), True, f"{stack}: {stack[at]} as {mapping[stack[at]]}")
                    )
            yield changed(new, marks)
    pawned = [i for i, stack in enumerate(board) if stack and stack[-1] in PAWNS]
    for shift in range(1, len(PAWNS)):
        mapping = cycled(PAWNS, shift)
        new, marks = list(board), []
        for index in pawned:
            pawn = board[index][-1]
            new[index] = board[index][:-1] + mapping[pawn]
            marks.append(Mark(box(index), False, f"{board[index]}: {pawn} as {mapping[pawn]}"))
        yield changed(new, marks)
    new = [stack[:-1] if i in pawned else stack for i, stack in enumerate(board)]
    yield changed(new, [Mark(box(i), False, f"{board[i]} without its pawn") for i in pawned])
    chipped = [i for i, stack in enumerate(board) if stack and held(stack)]
    for what, more in (("a chip more", True), ("a chip less", False)):
        new = [
            ("D" + stack if more else stack[1:]) if i in chipped else stack
            for i, stack in enumerate(board)
        ]
        yield changed(new, [Mark(box(i), False, f"{board[i]} with {what}", SIDE) for i in chipped])


CHANGES: dict[str, Callable[[Any], Iterator[Change]]] = {
    "quorum": quorum_changes,
    "boku": boku_changes,
    "razzle": razzle_changes,
    "boost": boost_changes,
    "kyo": kyo_changes,
}


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("theme", list(THEMES.values()), ids=lambda theme: theme.name)
@pytest.mark.parametrize("game", sorted(CHANGES))
def test_every_mark_reads_at_phone_size_in_grey(game: str, theme: Theme, large: bool) -> None:
    failures = []
    for state in POSITIONS[game]():
        before = phone(picture(game, state, theme, large)[0])
        for change in CHANGES[game](state):
            failures.extend(unreadable(game, before, change, theme, large))
    assert failures == []


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("theme", list(THEMES.values()), ids=lambda theme: theme.name)
def test_kyo_counts_are_figures_a_phone_shows_8_px_high(theme: Theme, large: bool) -> None:
    """The figures of every count from 3 to 12, found in their badge (inside its edge) as the
    pixels more than `LEVELS` from the badge's ground, are 2 x `SIDE` px high or more."""
    grid = Grid(10, 10)
    stacks = ["D" * count + "H" for count in range(3, 13)]
    state = dataclasses.replace(get_game("kyo").new(), board=tuple(stacks + [""] * 90))
    drawn, place = picture("kyo", state, theme, large)
    seen = phone(drawn)
    size = grid.cell * kyo_picture.COUNT_SHARE
    heights = {}
    for index, stack in enumerate(stacks):
        x, y = grid.origin(*point(index))
        wide = size * 3 / 2 if len(stack) > 10 else size
        spot = place((x + 1, y + 1, x + 1 + wide, y + 1 + size))
        left, top, right, bottom = shrunk(spot, drawn.width)
        badge = seen.crop((left + 1, top + 1, right - 1, bottom - 1))
        ground = max(range(256), key=badge.histogram().__getitem__)
        figures = badge.point(
            lambda value, ground=ground: 255 if abs(value - ground) > LEVELS else 0
        )
        box = figures.getbbox()
        heights[len(stack) - 1] = 0 if box is None else box[3] - box[1]
    assert min(heights.values()) >= 2 * SIDE, heights
