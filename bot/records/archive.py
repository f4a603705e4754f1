"""Many records in zip archives, each under a size limit (Discord's upload limit)."""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Sequence

ENTRY_OVERHEAD = 200
"""Bytes a zip spends on one entry beyond its data (headers and the central directory,
with a name up to ~60 characters), rounded up."""


def archives(files: Sequence[tuple[str, str]], limit: int) -> list[bytes]:
    """(name, text) files packed, in order, into as few zips as keep each under `limit`
    bytes. The sizes are estimated from each file compressed alone, which is what a zip
    does; a file too large for any archive alone is a programming error (records are
    small)."""
    groups: list[list[tuple[str, bytes]]] = [[]]
    used = 0
    for name, text in files:
        data = text.encode("utf-8")
        size = len(zlib.compress(data)) + ENTRY_OVERHEAD
        if size > limit:
            raise ValueError(f"{name} alone is larger than {limit} bytes")
        if used + size > limit and groups[-1]:
            groups.append([])
            used = 0
        groups[-1].append((name, data))
        used += size
    return [_zipped(group) for group in groups if group]


def _zipped(group: Sequence[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in group:
            archive.writestr(name, data)
    return buffer.getvalue()
