"""Animated replays: a whole game as a looping GIF, one frame per turn, which Discord plays
inline. GIF, not animated WebP: Pillow encodes it several times faster. A turn changes only
a few cells and the header, so each frame stores the rectangle around the changes, its
unchanged pixels transparent (they compress to almost nothing), and frames are written as
they are drawn instead of kept in memory. Frames use the game's fixed palette less one
colour, whose index marks "unchanged"."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable

from PIL import GifImagePlugin, Image, ImageChops

MAX_BYTES = 8 * 1024 * 1024  # what a replay may weigh; Discord takes 10 MiB per file
COLOURS = 255  # the 256th palette index means "as in the frame before"
UNCHANGED = COLOURS
TURN_MS = 800
FINAL_MS = 4000  # the final position stays up longer before the loop starts again


def animate(
    frames: Callable[[], Iterable[Image.Image]],
    count: int,
    to_palette: Callable[[Image.Image], Image.Image],
    *,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """A GIF of the `count` pictures `frames()` yields, each mapped by `to_palette` onto a
    fixed palette of at most `COLOURS` colours. When the
    result would outgrow `max_bytes`, the frames are drawn again at a fraction of their size,
    the fraction estimated from the bytes written so far."""
    shrink = 1
    while True:
        data, estimate = _encode(frames(), count, to_palette, shrink, max_bytes)
        if data is not None:
            return data
        needed = math.ceil(shrink * math.sqrt(estimate * 1.1 / max_bytes))
        shrink = max(shrink + 1, needed)


_UNCHANGED_MASK = [255] + [0] * 255  # no channel changed: paste "unchanged" there


def _encode(
    frames: Iterable[Image.Image],
    count: int,
    to_palette: Callable[[Image.Image], Image.Image],
    shrink: int,
    max_bytes: int,
) -> tuple[bytes | None, float]:
    """The GIF at 1/`shrink` size, or None and the size the whole would have reached once
    `max_bytes` is passed."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    for index, image in enumerate(frames):
        picture = image.convert("RGB") if image.mode != "RGB" else image
        if shrink > 1:
            picture = picture.reduce(shrink)
        duration = FINAL_MS if index == count - 1 else TURN_MS
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
