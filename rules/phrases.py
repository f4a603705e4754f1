"""Words not yet worded: what the rules say is a catalogue key and its named values.

The rules import only the standard library, so they never hold a sentence: a refusal, a
move's description or a position's summary is a `Phrase` (or an error with the same `key` and
`values`), and the bot's catalogue (`bot/texts`, English in `en.toml`) words it in the
reader's language. A value is a plain string when it is a name or notation shown as it is
(a player's display name, `e5xf6`), a number, or itself a Phrase (a colour, a piece, a list),
worded in the same language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Phrase:
    """A key of the catalogue (`rules.quorum.no_stone`) and its named values (`square="c3"`)."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)


Words = str | Phrase
"""What the rules say: a plain name or notation, or a Phrase to word."""


def phrase(key: str, /, **values: Any) -> Phrase:
    return Phrase(key, values)


def listed(items: Sequence[Words]) -> Words:
    """`a3`, `a3 and b4`, `a3, b4 and c5`: a list the way a sentence names it."""
    return _listed(items, "rules.list.pair")


def clauses(items: Sequence[Words]) -> Words:
    """Like `listed`, with a comma before the last 'and' when a clause holds a list of its
    own, so that the lists stay apart: `taking a3 and b4, and turning c5`."""
    serial = len(items) > 1 and any(_has_list(item) for item in items)
    return _listed(items, "rules.list.serial" if serial else "rules.list.pair")


def alternatives(items: Sequence[Words]) -> Words:
    """`e5xf6 or e5xe6`: choices the way a sentence offers them, each with its own 'or'."""
    return chained(items, "rules.list.or")


def chained(items: Sequence[Words], key: str) -> Words:
    """Every two neighbours joined by the key's `{first} ... {last}`: `a and b and c`."""
    if not items:
        return ""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = phrase(key, first=item, last=joined)
    return joined


def counted(number: int, some: str, none: str) -> Phrase:
    """`3 stones` (the key `some`, by its plural forms) or, for zero, `no stones` (`none`)."""
    return phrase(some, count=number) if number else phrase(none)


def placed(some: str, none: str, squares: Sequence[str]) -> Phrase:
    """`stones on a1 and b2` (the key `some`, by its plural forms) or, with no squares,
    `no stones` (`none`): where a seat's pieces of one kind stand, for alt text."""
    return phrase(some, squares=listed(squares), count=len(squares)) if squares else phrase(none)


def owned(key: str, owner: Words, squares: Sequence[str]) -> Phrase:
    """Whose pieces, and where: `bob's stone on a3`, `bob's stones on a3 and b4` (the key's
    plural forms, by the number of squares)."""
    return phrase(key, owner=owner, squares=listed(squares), count=len(squares))


def _listed(items: Sequence[Words], last_pair: str) -> Words:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return phrase(last_pair, first=items[0], last=items[1])
    return phrase("rules.list.more", first=items[0], rest=_listed(items[1:], last_pair))


def _has_list(words: Words) -> bool:
    if isinstance(words, str):
        return False
    if words.key in ("rules.list.pair", "rules.list.serial", "rules.list.more"):
        return True
    return any(isinstance(value, Phrase) and _has_list(value) for value in words.values.values())
