"""Animated replays: a frame per turn that matches the still picture, the final position held
longest, and a size limit kept by shrinking the frames."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import GifImagePlugin, Image, ImageSequence

from renderers import quorum, render_replay
from renderers.canvas import quantize
from renderers.replay import COLOURS, FINAL_MS, MAX_BYTES, TURN_MS
from rules import GAMES, get_game
from rules.playout import random_states


def states_of(game_name: str, turns: int, seed: int = 1) -> list[Any]:
    return list(random_states(get_game(game_name), random.Random(seed), bound=turns))


def opened(data: bytes) -> GifImagePlugin.GifImageFile:
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImagePlugin.GifImageFile)
    assert image.format == "GIF" and image.info["loop"] == 0
    return image


def frames_of(data: bytes) -> list[Image.Image]:
    return [frame.copy() for frame in ImageSequence.Iterator(opened(data))]


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_one_frame_per_state_and_the_final_position_held_longest(game_name: str) -> None:
    states = states_of(game_name, 12)
    frames = frames_of(render_replay(game_name, states))
    assert len(frames) == len(states)
    assert [frame.info["duration"] for frame in frames] == [TURN_MS] * (len(states) - 1) + [
        FINAL_MS
    ]
    assert FINAL_MS > TURN_MS


def test_each_frame_is_the_still_picture_of_its_turn_with_its_marks() -> None:
    """Frames are stored as changed rectangles with transparent holes; decoded, each must
    equal the whole picture of its position."""
    states = states_of("quorum", 8)
    frames = frames_of(render_replay("quorum", states, names=["ann", "bo"], perspective=2))
    for state, frame in zip(states, frames, strict=True):
        still = quorum.render(state, perspective=2, names=["ann", "bo"])
        expected = quantize(still, "renderers.quorum", quorum.reference, COLOURS)
        assert frame.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    assert states[-1].last is not None  # so the last frame did show a last move


def test_a_long_game_stays_under_the_limit() -> None:
    states = states_of("boost", 400)
    assert len(states) == 401
    data = render_replay("boost", states)
    assert len(data) <= MAX_BYTES
    assert opened(data).n_frames == 401


def test_frames_shrink_when_the_game_would_not_fit() -> None:
    states = states_of("boost", 60)
    full = render_replay("boost", states)
    limit = len(full) // 3
    small = render_replay("boost", states, max_bytes=limit)
    assert len(small) <= limit
    assert opened(small).n_frames == len(states)
    assert opened(small).width < opened(full).width


def test_a_replay_needs_a_position() -> None:
    with pytest.raises(ValueError, match="at least one position"):
        render_replay("boku", [])
