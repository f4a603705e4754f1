"""Animated replays: a frame per turn that matches the still picture, the final position held
longest, a length bounded whatever the game's, a size limit kept by shrinking the frames, and
a worker-process entry point taking only picklable arguments."""

from __future__ import annotations

import io
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from PIL import GifImagePlugin, Image, ImageSequence

from bot.posts.pictures import picture_words
from renderers import quorum, record_gif, render_replay
from renderers.canvas import quantize
from renderers.replay import (
    FINAL_MS,
    KEPT_TURNS,
    MAX_BYTES,
    MIN_TURN_MS,
    TOTAL_MS,
    TURN_MS,
    schedule,
)
from renderers.themes import CLASSIC, DARK
from rules import GAMES, get_game
from rules.playout import random_states, random_turns
from rules.records import Record

WORDS = picture_words("en")


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
    frames = frames_of(render_replay(game_name, states, words=WORDS))
    assert len(frames) == len(states)
    assert [frame.info["duration"] for frame in frames] == [TURN_MS] * (len(states) - 1) + [
        FINAL_MS
    ]
    assert FINAL_MS > TURN_MS


def test_each_frame_is_the_still_picture_of_its_turn_with_its_marks() -> None:
    """Frames are stored as changed rectangles with transparent holes; decoded, each must
    equal the whole picture of its position."""
    states = states_of("quorum", 8)
    frames = frames_of(
        render_replay("quorum", states, names=["ann", "bo"], perspective=2, words=WORDS)
    )
    for state, frame in zip(states, frames, strict=True):
        still = quorum.render(state, perspective=2, names=["ann", "bo"], words=WORDS)
        expected = quantize(still, "quorum", CLASSIC)
        assert frame.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    assert states[-1].last is not None  # so the last frame did show a last move


@pytest.mark.parametrize("count", [1, 2, 30, 52, 53, 60, 100, 200, 445, 2000])
def test_any_game_plays_within_45_seconds_and_ends_on_its_last_turns(count: int) -> None:
    frames = schedule(count)
    times = [ms for _, ms in frames]
    shown = [index for index, _ in frames]
    assert sum(times) <= TOTAL_MS == 45_000
    assert frames[-1] == (count - 1, FINAL_MS)
    assert min(times) >= MIN_TURN_MS and all(ms % 10 == 0 for ms in times)
    assert shown == sorted(set(shown)) and shown[0] == 0
    if count - 1 <= KEPT_TURNS:
        assert shown == list(range(count))
    else:
        last_turns = frames[-KEPT_TURNS - 1 : -1]
        assert [index for index, _ in last_turns] == list(range(count - 1 - KEPT_TURNS, count - 1))
        assert all(ms == TURN_MS for _, ms in last_turns)


def test_a_short_game_shows_every_turn_at_full_length() -> None:
    assert schedule(40) == [(index, TURN_MS) for index in range(39)] + [(39, FINAL_MS)]


def test_a_long_game_is_quicker_early_and_stays_under_the_limit() -> None:
    states = states_of("boost", 400)
    assert len(states) == 401
    data = render_replay("boost", states, words=WORDS)
    assert len(data) <= MAX_BYTES == 4_000_000
    frames = frames_of(data)
    assert len(frames) == len(schedule(401)) < 401
    assert sum(frame.info["duration"] for frame in frames) <= TOTAL_MS


def test_the_worker_entry_point_takes_a_record_and_draws_what_render_replay_draws() -> None:
    game = get_game("kyo")
    start = game.new(seed=5)
    turns = random_turns(game, random.Random(1), start, bound=6)
    record = Record("kyo", start.variant, 2, 5, tuple(game.format_move(s, m) for s, m, _ in turns))
    states = list(record.positions(game))
    assert len(states) == 7
    pickle.dumps((record, ["ann", "bo"], 2, "dark", WORDS))  # what a process pool sends
    with ProcessPoolExecutor(max_workers=1) as pool:
        work = pool.submit(
            record_gif, record, names=["ann", "bo"], perspective=2, theme="dark", words=WORDS
        )
        gif = work.result()
    assert gif == render_replay(
        "kyo", states, names=["ann", "bo"], perspective=2, theme=DARK, words=WORDS
    )


def test_frames_shrink_when_the_game_would_not_fit() -> None:
    states = states_of("boost", 60)
    full = render_replay("boost", states, words=WORDS)
    limit = len(full) // 3
    small = render_replay("boost", states, max_bytes=limit, words=WORDS)
    assert len(small) <= limit
    assert opened(small).n_frames == len(states)
    assert opened(small).width < opened(full).width


def test_a_replay_needs_a_position() -> None:
    with pytest.raises(ValueError, match="at least one position"):
        render_replay("boku", [], words=WORDS)
