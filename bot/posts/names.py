"""The one way the bot shows a member's display name. A name is chosen by its member and
shown in posts everyone reads, so it must show as typed and do nothing: no markdown (bold,
spoilers, headings, block quotes), no link, no mention or role pill, and no invisible
character that reorders or hides the text around it (U+202E, the right-to-left override,
turns the rest of a line backwards).
"""

from __future__ import annotations

import re
import unicodedata

# Unicode categories that draw nothing: controls (Cc), formats (Cf: bidi overrides and
# isolates, zero-width spaces and joiners, the BOM), line and paragraph separators.
INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})
MARKDOWN = re.compile(r"([\\*_~|`>\[\]<]|:(?=//))")  # markdown, link and pill characters
LINE_START = re.compile(r"^(#{1,3} |-# |[-+*] |[0-9]+\. )")  # headings, subtext, lists
MENTION = re.compile(r"@(everyone|here)")
BLANK = "?"  # a name of nothing but invisible characters


def safe_name(name: str, *, markdown: bool = True) -> str:
    """`name` as the bot shows it: invisible characters gone and runs of spaces made one;
    with `markdown` (a message or an embed), every character markdown, links or mentions
    act on escaped, so it reads as typed. Without it (alt text, a name drawn in a picture),
    only the invisible characters go."""
    visible = "".join(c for c in name if unicodedata.category(c) not in INVISIBLE)
    text = " ".join(visible.split()) or BLANK
    if not markdown:
        return text
    text = MARKDOWN.sub(r"\\\1", text)
    text = LINE_START.sub(_line_start, text)
    return MENTION.sub("@\u200b\\1", text)


def _line_start(found: re.Match[str]) -> str:
    """A heading, subtext or list marker escaped: `\\# `, `\\-# `, `\\- `, `1\\. `."""
    marker = found[0]
    if marker[0].isdigit():
        return marker.replace(".", "\\.", 1)
    return "\\" + marker
