"""Boku's rules explained to players, one entry per help topic, in our own words."""

from __future__ import annotations

from collections.abc import Mapping

HELP_TOPICS: Mapping[str, str] = {
    "overview": (
        "Boku is a two-player game of placing marbles on a hexagonal board of 80 cells. "
        "Dark moves first, then the players alternate, one marble per turn; there is no "
        "limit on marbles and nothing ever moves. Line up five of your own to win. Along the "
        "way, a placement that shuts two enemy marbles in between two of yours takes one of "
        "them off the board."
    ),
    "board": (
        "Cells are named by a column letter and a number: a1-a6, b1-b7, c1-c8, d1-d9, "
        "e1-e10, f1-f10, g2-g10, h3-h10, i4-i10 and j5-j10, 80 in all. The picture stands "
        "the board on its corner a1: each lettered column runs up and to the left from the "
        "lower right edge, where its letter is written, and each numbered row runs up and "
        "to the right from the lower left edge, where its number is written. Empty cells "
        "also show their names. A cell touches the next cells along its column and its "
        "row, and the cells straight above and below it: e5 touches e4, e6, d5, f5, d4 and "
        "f6. Lines (for five in a row and for captures) run in these three directions. The "
        "six corners touch three cells, the other edge cells four."
    ),
    "placing": (
        "On your turn put one marble on any empty cell, except the one cell that may be "
        "blocked for you (see 'blocked'). Type the cell, for example e5. If your placement "
        "captures, also name the marble you take: e5xf6. Capital letters and spaces do not "
        "matter (E5 x F6 works too)."
    ),
    "winning": (
        "You win at once when the marble you just placed is part of an unbroken line of five "
        "or more of your marbles along one of the three directions. Longer lines count too. "
        "The win comes before any capture: a placement that both completes five and encloses "
        "a pair just wins, and nothing is removed."
    ),
    "capturing": (
        "When your new marble closes a line of exactly two enemy marbles with another of "
        "your marbles at the far end (yours, theirs, theirs, yours), you must remove one of "
        "those two. One enemy marble, or three in a row, between yours is safe, and placing "
        "your marble between enemy marbles never puts it in danger. If one placement closes "
        "several such pairs at once, you still remove only one marble, chosen from all of "
        "them. Write the removal after an x: e5xf6. A capturing placement must say what it "
        "removes; a placement that captures nothing must not."
    ),
    "blocked": (
        "The cell a captured marble leaves empty is blocked for the captured player's very "
        "next placement only, so they cannot simply put the marble straight back. After "
        "that turn it is free again for both players. The picture marks the blocked cell."
    ),
    "draws": (
        "The game is drawn when the board fills up without a line of five, or when the same "
        "position (the marbles, the blocked cell and the player to move) comes up for the "
        "third time, which only endless capturing back and forth can cause. If the only "
        "empty cell is the one blocked for you, you pass and your opponent plays again."
    ),
}
