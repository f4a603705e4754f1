"""Animated replays: a whole game as a looping GIF which Discord plays inline. GIF, not
animated WebP: Pillow encodes it several times faster. A turn changes only a few cells and the
header, so each frame stores the rectangle around the changes, its unchanged pixels
transparent (they compress to almost nothing), and frames are written as they are drawn
instead of kept in memory. Frames use the game's fixed palette (renderers/palettes.py, one
colour short of 256), whose free index marks "unchanged".

A replay is watched, not scrubbed, so its length is bounded whatever the game's: `schedule`
picks the frames and their times."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence

from PIL import GifImagePlugin, Image, ImageChops

from renderers.palettes import COLOURS

MAX_BYTES = 4_000_000  # under 4 MB however a megabyte is counted
UNCHANGED = COLOURS  # the palette's free index: "as in the frame before"
TURN_MS = 800
MIN_TURN_MS = 150  # quicker than this and a turn cannot be followed
FINAL_MS = 4000  # the final position stays up longer before the loop starts again
TOTAL_MS = 45_000  # the longest a replay plays, final position included
KEPT_TURNS = 20  # the game's last turns, always shown one by one at full length

Frame = tuple[int, int]
"""(index of the position shown, milliseconds it stays up)"""


def schedule(count: int) -> list[Frame]:
    """Which of `count` positions a replay shows and for how long. Every turn gets `TURN_MS`
    while the whole fits in `TOTAL_MS`; beyond that the last `KEPT_TURNS` turns keep it and
    the earlier ones share what is left, no quicker than `MIN_TURN_MS` each, every k-th
    position shown when there are too many for that."""
    if count < 1:
        raise ValueError("A replay needs at least one position.")
    turns = list(range(count - 1))
    final = [(count - 1, FINAL_MS)]
    budget = TOTAL_MS - FINAL_MS
    if len(turns) * TURN_MS <= budget:
        return [(index, TURN_MS) for index in turns] + final
    early, late = turns[:-KEPT_TURNS], turns[-KEPT_TURNS:]
    left = budget - len(late) * TURN_MS
    stride = math.ceil(len(early) * MIN_TURN_MS / left)
    shown = early[::stride]
    pause = min(TURN_MS, left // len(shown) // 10 * 10)  # GIF times are in centiseconds
    return [(index, pause) for index in shown] + [(index, TURN_MS) for index in late] + final


def animate(
    frames: Callable[[], Iterable[Image.Image]],
    durations: Sequence[int],
    to_palette: Callable[[Image.Image], Image.Image],
    *,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """A GIF of the pictures `frames()` yields, one per entry of `durations` (milliseconds),
    each mapped by `to_palette` onto a fixed palette of at most `COLOURS` colours. When the
    result would outgrow `max_bytes`, the frames are drawn again at a fraction of their size,
    the fraction estimated from the bytes written so far."""
    shrink = 1
    while True:
        data, estimate = _encode(frames(), durations, to_palette, shrink, max_bytes)
        if data is not None:
            return data
        needed = math.ceil(shrink * math.sqrt(estimate * 1.1 / max_bytes))
        shrink = max(shrink + 1, needed)


_UNCHANGED_MASK = [255] + [0] * 255  # no channel changed: paste "unchanged" there


def _encode(
    frames: Iterable[Image.Image],
    durations: Sequence[int],
    to_palette: Callable[[Image.Image], Image.Image],
    shrink: int,
    max_bytes: int,
) -> tuple[bytes | None, float]:
    """The GIF at 1/`shrink` size, or None and the size the whole would have reached once
    `max_bytes` is passed."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    count = len(durations)
    for index, (image, duration) in enumerate(zip(frames, durations, strict=True)):
        picture = image.convert("RGB") if image.mode != "RGB" else image
        if shrink > 1:
            picture = picture.reduce(shrink)
        if previous is None:
            first = to_palette(picture)
            header, _ = GifImagePlugin.getheader(first, info={"loop": 0, "duration": duration})
            out.write(b"".join(header))
            out.write(b"".join(GifImagePlugin.getdata(first, (0, 0), duration=duration)))
        else:
            difference = ImageChops.difference(previous, picture)
            # An unchanged frame still carries its pause, as one repainted pixel.
            box = difference.getbbox() or (0, 0, 1, 1)
            part = to_palette(picture.crop(box))
            red, green, blue = difference.crop(box).split()
            largest = ImageChops.lighter(red, ImageChops.lighter(green, blue))
            part.paste(UNCHANGED, mask=largest.point(_UNCHANGED_MASK))
            chunks = GifImagePlugin.getdata(
                part, box[:2], duration=duration, transparency=UNCHANGED
            )
            out.write(b"".join(chunks))
        previous = picture
        if out.tell() + 1 > max_bytes:
            return None, out.tell() * count / (index + 1)
    out.write(b";")  # the GIF trailer
    return out.getvalue(), out.tell()
