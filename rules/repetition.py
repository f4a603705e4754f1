"""Positions seen so far, for repetition rules, at O(1) per turn.

States are immutable, and a state must carry what its repetition rule needs from the past.
Copying a growing tuple of earlier positions into every new state, and counting in it, made
each turn cost more than the last. A `History` is instead a view of the first `length`
entries of a log shared by every state along one line of play:

- playing on from the newest state of a line appends to the shared log in place;
- playing on from an older state (a search trying its second move) first copies that
  state's entries into a log of its own, so the cost of branching is paid once per branch;
- a dict from each position's key to the log indices where it occurs (increasing) answers
  "how often did this position occur before" without a scan: the entries beyond a view's
  `length` belong to other lines and are never counted.

A History compares, hashes, pickles and iterates as the tuple of its entries, so dumps and
state equality are what they were with tuples. Appending takes a lock, so threads may share
states.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Container, Hashable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

E = TypeVar("E", bound=Hashable)

# One lock for every log: held only for the few operations of an append.
_APPENDING = threading.Lock()


class _Log(Generic[E]):
    """The entries of one line of play, their keys, and where each key occurs."""

    __slots__ = ("entries", "keys", "where")

    def __init__(
        self, entries: list[E], keys: list[Hashable], where: dict[Hashable, list[int]]
    ) -> None:
        self.entries = entries
        self.keys = keys
        self.where = where


class History(Sequence[E]):
    """The positions of a game so far (the current one last), each with a key to count by:
    the entry itself (a position's text) or a number derived from it (a Zobrist key)."""

    __slots__ = ("_log", "_length")

    def __init__(self, log: _Log[E], length: int) -> None:
        self._log = log
        self._length = length

    @classmethod
    def of(cls, entries: Iterable[E], keys: Iterable[Hashable] | None = None) -> History[E]:
        """A history of `entries`, counted by `keys` (by default the entries themselves)."""
        listed = list(entries)
        keyed = list(listed if keys is None else keys)
        if len(keyed) != len(listed):
            raise ValueError("a history needs one key per entry")
        where: dict[Hashable, list[int]] = {}
        for index, key in enumerate(keyed):
            where.setdefault(key, []).append(index)
        return cls(_Log(listed, keyed, where), len(listed))

    @classmethod
    def start(cls, entry: E, key: Hashable | None = None) -> History[E]:
        """A history of one position; the same as `of((entry,))`, made for the games that
        start afresh on most turns (Boku), without the general loop."""
        key = entry if key is None else key
        return cls(_Log([entry], [key], {key: [0]}), 1)

    def then(self, entry: E, key: Hashable | None = None) -> History[E]:
        """This history with `entry` added: in place at the tip of the shared log, or in a
        copy of this history's entries when another line already went on from here."""
        key = entry if key is None else key
        log, length = self._log, self._length
        with _APPENDING:
            if len(log.entries) == length:
                log.entries.append(entry)
                log.keys.append(key)
                log.where.setdefault(key, []).append(length)
                return History(log, length + 1)
        return History.of([*log.entries[:length], entry], [*log.keys[:length], key])

    def occurrences(self, key: Hashable) -> int:
        """How many entries have this key."""
        indices = self._log.where.get(key)
        if not indices:
            return 0
        if indices[-1] < self._length:
            return len(indices)
        return bisect_left(indices, self._length)

    def seen_keys(self) -> Container[Hashable]:
        """The keys of the entries, for many membership tests in a row (Boost's move filter):
        the shared dict itself when this history is the newest of its log, else a set made
        once. A thread appending meanwhile may add a key of another line: a false alarm that
        an exact check (`holds`) then clears."""
        log = self._log
        if len(log.entries) == self._length:
            return log.where
        return frozenset(log.keys[: self._length])

    def holds(self, entry: E, key: Hashable) -> bool:
        """Whether `entry`, whose key is `key`, is one of the entries: exact, for keys that may
        collide."""
        entries = self._log.entries
        for index in self._log.where.get(key, ()):
            if index >= self._length:
                break
            if entries[index] == entry:
                return True
        return False

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[E, ...]: ...

    def __getitem__(self, index: int | slice) -> E | tuple[E, ...]:
        return tuple(self)[index] if isinstance(index, slice) else self._entry(index)

    def _entry(self, index: int) -> E:
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._log.entries[index]

    def __iter__(self) -> Iterator[E]:
        return iter(self._log.entries[: self._length])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._length == other._length and tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its own entries and keys: the shared log and other lines stay behind."""
        return History.of, (tuple(self), tuple(self._log.keys[: self._length]))
