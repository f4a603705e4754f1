"""Kyo's notation: turns as tokens, written canonically and read forgivingly.

A turn is its origin square followed by one token per action (docs/notation.md):
`:2` slice of 2 chips, `e3` step, `xe3` strike, `>e3` chips only, `+e3` deploy a shield,
`=LDS` shuffle. Written out, a bare square is preceded by a dash: `e2:2-e3-f4`.
"""

from __future__ import annotations

import re

from rules.errors import InvalidMove
from rules.notation import squeezed

FILES = "abcdefghij"
MOST_CHIPS = 99  # no stack comes near it; a longer number is refused before it is converted
_ORIGIN = re.compile(r"\s*+([a-z])(\d{1,2})(?!\d)")
# Possessive quantifiers (*+, ?+) never give back what they took: a long run of spaces
# followed by a typo fails at once instead of trying every way to split the run.
_ACTION = re.compile(
    r"""[\s,;]*+(?:
        (?P<size>[:/(\#]\s*+(?P<count>\d++)\s*+\)?+)
      | =\s*+(?P<order>[dls]++)(?![\d])
      | (?P<op>-?+\s*+[x>+]?+)\s*+(?P<file>[a-z])(?P<rank>\d{1,2})(?!\d)
    )""",
    re.VERBOSE,
)
_REST = re.compile(r"[\s,;]*")
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "×": "x", "*": "x"})


def _quoted(text: str) -> str:
    """A player's text echoed in a message, cut short if it is long."""
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:40] + "...")


def join(tokens: tuple[str, ...]) -> str:
    """('e2', ':1', 'e3', 'xf4') -> 'e2:1-e3xf4'."""
    return tokens[0] + "".join(f"-{t}" if t[0] in FILES else t for t in tokens[1:])


def tokenize(text: str) -> tuple[str, ...]:
    """Forgiving reading: any case, spaces, commas, `/n` or `(n)` for `:n`, `-` before a
    strike; returns canonical tokens (a strike typed with `-` stays a plain step token,
    the rules decide what it hits). Linear in the length of the text; raises InvalidMove."""
    cleaned = text.strip().lower().translate(_DASHES)
    match = _ORIGIN.match(cleaned)
    if not match:
        raise InvalidMove("rules.kyo.unreadable", text=_quoted(text))
    tokens = [_square(match[1], match[2])]
    at = match.end()
    while at < len(cleaned):
        if _REST.fullmatch(cleaned, at):
            break
        match = _ACTION.match(cleaned, at)
        if not match:
            raise InvalidMove(
                "rules.kyo.cannot_read", rest=_quoted(cleaned[at:]), text=_quoted(text)
            )
        at = match.end()
        if match["size"]:
            tokens.append(f":{_count(match['count'])}")
        elif match["order"]:
            tokens.append("=" + match["order"].upper())
        else:
            op = match["op"].replace("-", "").strip()
            tokens.append(op + _square(match["file"], match["rank"]))
    return tuple(tokens)


def _count(digits: str) -> int:
    """A slice size, refused while still text if it is absurdly long."""
    if len(digits) > len(str(MOST_CHIPS)):
        raise InvalidMove("rules.kyo.huge_slice", digits=digits[:6])
    return int(digits)


def _square(file: str, rank: str) -> str:
    if file not in FILES or not 1 <= int(rank) <= 10:
        raise InvalidMove("rules.square.off_board", square=f"{file}{rank}", last="j10")
    return f"{file}{int(rank)}"


def normalize(text: str) -> str:
    """Typed text as turns are compared: its canonical tokens joined, strikes unmarked."""
    try:
        return "".join(tokenize(text)).replace("x", "")
    except InvalidMove:
        return squeezed(text)
