"""The analysis pictures: the win-chance graph and a blunder beside the better move."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.posts.pictures import picture_words
from renderers import render_comparison, render_png
from renderers.graph import (
    BOARD_SCALE,
    DASHES,
    SEAT_COLOURS,
    Dot,
    graph_png,
    render_graph,
    tick_step,
)
from rules import get_game

WORDS = picture_words("en")


def swinging(turns: int, seats: int) -> list[tuple[float, ...]]:
    """Seat 1 drifts from 20% to 80%; the others share the rest."""
    rows = []
    for turn in range(turns + 1):
        first = 0.2 + 0.6 * turn / turns
        rows.append((first, *((1 - first) / (seats - 1),) * (seats - 1)))
    return rows


def test_the_graph_is_a_wide_palette_png() -> None:
    data = graph_png(swinging(40, 2), names=["alice", "bob"], title="Boku #1", words=WORDS)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P"
    assert image.width >= 800 and image.width > image.height


@pytest.mark.parametrize("mark", ["inaccuracy", "mistake", "blunder"])
def test_a_marked_move_is_a_dot_on_its_seats_line(mark: str) -> None:
    rows = swinging(10, 2)
    plain = render_graph(rows, names=["alice", "bob"], words=WORDS)
    marked = render_graph(rows, names=["alice", "bob"], dots=[Dot(5, 2, mark)], words=WORDS)
    difference = [
        (x, y)
        for x in range(plain.width)
        for y in range(plain.height - 60)  # above the key
        if plain.getpixel((x, y)) != marked.getpixel((x, y))
    ]
    assert difference
    colours = {marked.getpixel(p) for p in difference}
    assert SEAT_COLOURS[1] in colours  # drawn in bob's colour, on his line at turn 5
    xs = [x for x, _ in difference]
    assert abs((min(xs) + max(xs)) / 2 - (64 + (1000 - 24 - 64) * 5 / 10)) <= 2


def test_four_seats_have_four_colours_and_four_dash_patterns() -> None:
    assert len(set(SEAT_COLOURS)) == len(set(DASHES)) == 4
    image = render_graph(swinging(20, 4), names=["a", "b", "c", "d"], words=WORDS)
    pixels = {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
    assert all(colour in pixels for colour in SEAT_COLOURS)
    with pytest.raises(ValueError, match="1 to 4 seats"):
        render_graph(swinging(20, 5), names=["a", "b", "c", "d", "e"], words=WORDS)
    with pytest.raises(ValueError, match="two positions"):
        render_graph([(0.5, 0.5)], names=["a", "b"], words=WORDS)


def test_turn_numbers_are_round_and_at_most_ten() -> None:
    assert [tick_step(n) for n in (5, 10, 11, 40, 96, 250, 1800)] == [1, 1, 2, 5, 10, 25, 200]


def test_the_comparison_shows_both_positions_side_by_side() -> None:
    game = get_game("boku")
    state = game.new()
    played = game.apply(state, game.parse_move(state, "a1"))
    better = game.apply(state, game.parse_move(state, "e5"))
    data = render_comparison(
        "boku", played, better, title="Move 1", captions=("Played a1", "Better e5"), words=WORDS
    )
    image = Image.open(io.BytesIO(data))
    board = Image.open(io.BytesIO(render_png("boku", played, words=WORDS)))
    assert image.mode == "P"
    assert image.width > board.width * 2 * BOARD_SCALE
    left = image.crop((0, image.height // 2, image.width // 2, image.height)).convert("RGB")
    right = image.crop((image.width - left.width, image.height // 2, image.width, image.height))
    assert left.tobytes() != right.convert("RGB").tobytes()
