"""Quorum's rules explained to players, one entry per help topic, in our own words."""

from __future__ import annotations

from collections.abc import Mapping

HELP_TOPICS: Mapping[str, str] = {
    "overview": (
        "Quorum is a two-player race for the centre of an 8x8 board. White (hollow stones) "
        "and Black (filled stones) take turns. Each turn you either jump one of your stones "
        "over another of yours, or refill your home corner. Jumps can smother and flip enemy "
        "stones. You win the moment you hold all four centre squares d4, d5, e4 and e5."
    ),
    "setup": (
        "Each side starts with ten stones packed into its own corner: White in the a1 "
        "corner (a1-d1, a2-c2, a3-b3, a4), Black in the h8 corner (e8-h8, f7-h7, g6-h6, "
        "h5). Your home is the 2x2 block in your corner: a1 a2 b1 b2 for White, g7 g8 h7 "
        "h8 for Black. White moves first."
    ),
    "moving": (
        "Pick two of your stones: the one that moves (active) and the one it uses as a "
        "pivot (center). The center may be up to two files and two ranks away, in any "
        "direction, touching or not. The active stone lands as far beyond the center as it "
        "started before it: target = center + (center - active). The target must be on the "
        "board and empty; nothing in between matters. Write the move as the two squares, "
        "for example a1e3 (a1 jumps over c2 to e3)."
    ),
    "suffocation": (
        "After a jump, every enemy stone touching the landing square (sideways or "
        "diagonally) that has no empty square around it is removed, all at the same time. "
        "The square you just left counts as empty; the board edge does not. Your own stones "
        "are never removed."
    ),
    "conversion": (
        "After suffocation, look from the landing square in all eight directions: an enemy "
        "stone right next to it with one of your stones directly behind it is flipped to "
        "your colour. All flips happen at once, and only the stone immediately between the "
        "two counts."
    ),
    "placement": (
        "Instead of jumping you may place: if at least one of your home squares is empty, "
        "put a new stone on every empty home square. Placing smothers and flips nothing. "
        "Type 'place' (or '++')."
    ),
    "winning": (
        "You win as soon as d4, d5, e4 and e5 all hold your stones after your turn. If you "
        "cannot jump and cannot place, you pass. The same position with the same player to "
        "move occurring a third time is a draw."
    ),
}
