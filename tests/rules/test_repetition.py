"""The shared position history: counts only its own line, branches without disturbing others,
and behaves as the tuple of its entries."""

from __future__ import annotations

import pickle

from rules.repetition import History


def test_playing_on_from_the_newest_position_shares_the_log() -> None:
    start = History.of(("a",))
    line = start.then("b").then("a")
    assert line == ("a", "b", "a")
    assert line.occurrences("a") == 2 and line.occurrences("b") == 1
    assert start.occurrences("a") == 1 and start.occurrences("b") == 0
    assert line._log is start._log


def test_a_second_line_from_an_older_position_counts_only_its_own_entries() -> None:
    start = History.of(("a",))
    first = start.then("b").then("b")
    second = start.then("c")
    assert second == ("a", "c") and second._log is not start._log
    assert second.occurrences("b") == 0 and second.occurrences("c") == 1
    assert "b" not in start.seen_keys() and "b" in first.seen_keys()
    assert first.occurrences("b") == 2 and first.occurrences("c") == 0
    assert start.then("b") == ("a", "b") and start.then("b").occurrences("b") == 1


def test_entries_are_counted_by_their_keys_and_found_by_them() -> None:
    history = History.of([(1, 2)], keys=[7]).then((3, 4), key=7).then((5, 6), key=8)
    assert history.occurrences(7) == 2
    assert history.holds((3, 4), 7) and not history.holds((3, 4), 8)
    assert 7 in history.seen_keys() and 9 not in history.seen_keys()
    older = history[:2]  # a tuple
    assert older == ((1, 2), (3, 4))
    assert list(history[:1].__iter__()) == [(1, 2)] and history[-1] == (5, 6)


def test_a_history_pickles_and_hashes_as_its_own_entries() -> None:
    start = History.of(("a",))
    start.then("x")  # another line, left behind
    mine = start.then("b")
    copy = pickle.loads(pickle.dumps(mine))
    assert copy == mine == ("a", "b") and hash(copy) == hash(("a", "b"))
    assert copy.occurrences("x") == 0 and len(copy._log.entries) == 2
