"""The comparison with the original Boost program shows it our positions in its own board
format (the program itself is not needed here)."""

from __future__ import annotations

from fixtures.boost_original import board_text
from rules import get_game


def test_the_opening_in_the_originals_format() -> None:
    rows = board_text(get_game("boost").new(seed=3)).splitlines()
    assert len(rows) == 9
    assert rows[0] == "P2 P2 P2 P2 .  P2 P2 P2 P2 "
    assert rows[-1] == "P1 P1 P1 P1 .  P1 P1 P1 P1 "
    assert rows[4].split()[4] == "D0", "the centre dragon on e5"
    assert sum(row.count("D0") for row in rows) == 7
