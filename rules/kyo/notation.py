"""Kyo's notation: turns as tokens, written canonically and read forgivingly.

A turn is its origin square followed by one token per action (docs/notation.md):
`:2` slice of 2 chips, `e3` step, `xe3` strike, `>e3` chips only, `+e3` deploy a shield,
`=LDS` shuffle. Written out, a bare square is preceded by a dash: `e2:2-e3-f4`.
"""

from __future__ import annotations

import re

from rules.core import InvalidMove

FILES = "abcdefghij"
_ORIGIN = re.compile(r"\s*([a-z])(\d{1,2})(?!\d)")
_ACTION = re.compile(
    r"""[\s,;]*(?:
        (?P<size>[:/(\#]\s*(?P<count>\d+)\s*\)?)
      | =\s*(?P<order>[dls]+)(?![\d])
      | (?P<op>-?\s*[x>+]?)\s*(?P<file>[a-z])(?P<rank>\d{1,2})(?!\d)
    )""",
    re.VERBOSE,
)
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "×": "x", "*": "x"})


def join(tokens: tuple[str, ...]) -> str:
    """('e2', ':1', 'e3', 'xf4') -> 'e2:1-e3xf4'."""
    return tokens[0] + "".join(f"-{t}" if t[0] in FILES else t for t in tokens[1:])


def tokenize(text: str) -> tuple[str, ...]:
    """Forgiving reading: any case, spaces, commas, `/n` or `(n)` for `:n`, `-` before a
    strike; returns canonical tokens (a strike typed with `-` stays a plain step token,
    the rules decide what it hits)."""
    cleaned = text.strip().lower().translate(_DASHES)
    match = _ORIGIN.match(cleaned)
    if not match:
        raise InvalidMove(
            f"{text.strip()!r} is not a Kyo turn: start with the square of the stack you "
            "move, like e2-e3 (see /help kyo notation)"
        )
    tokens = [_square(match[1], match[2])]
    at = match.end()
    while at < len(cleaned):
        if not cleaned[at:].strip(" ,;"):
            break
        match = _ACTION.match(cleaned, at)
        if not match:
            raise InvalidMove(
                f"cannot read {cleaned[at:].strip()!r} in {text.strip()!r}: after the origin "
                "write steps (-e3), strikes (xe3), a slice size (:2), chip moves (>e3), "
                "deploys (+e3) or a shuffle (=LDS)"
            )
        at = match.end()
        if match["size"]:
            tokens.append(f":{int(match['count'])}")
        elif match["order"]:
            tokens.append("=" + match["order"].upper())
        else:
            op = match["op"].replace("-", "").strip()
            tokens.append(op + _square(match["file"], match["rank"]))
    return tuple(tokens)


def _square(file: str, rank: str) -> str:
    if file not in FILES or not 1 <= int(rank) <= 10:
        raise InvalidMove(f"{file}{rank} is off the board (squares run from a1 to j10)")
    return f"{file}{int(rank)}"
