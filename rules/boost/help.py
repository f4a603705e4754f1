"""Boost's rules explained to players, one entry per help topic, in our own words."""

from __future__ import annotations

from collections.abc import Mapping

HELP_TOPICS: Mapping[str, str] = {
    "overview": (
        "Boost is played on a 9x9 grid of points by two to four players. You have pawns, and "
        "during the game you build towers and turn pawns into knights. Seven neutral dragons "
        "wander the board; anyone whose pieces touch a dragon may move it. You win by trapping "
        "four dragons around one of your towers, or by being the last player not defeated. "
        "Each turn you do exactly one thing: move a piece or dragon, build a tower, or promote "
        "a pawn."
    ),
    "setup": (
        "Two players start with eight pawns each on their back rank (ranks 1 and 9), leaving "
        "the e-file empty. In the standard game seven dragons are added: one in the centre "
        "(e5) and three pairs, each pair placed opposite each other through the centre, the "
        "first of each pair picked at random in ranks 6 to 8. The match's seed fixes the "
        "draw, so a replay shows the same dragons. Player 1 moves first."
    ),
    "moving": (
        "Pieces move in steps to an orthogonal neighbour (north, south, east or west), never "
        "diagonally. A pawn, knight or dragon takes exactly one step plus one extra step, a "
        "boost, for every piece touching its starting point orthogonally, whoever owns it. "
        "So a lone pawn moves one step, a pawn with two neighbours exactly three. All steps "
        "must be used, every step goes onto an empty point, and the route may not come back "
        "to a point it has already visited, the start included. Only the start and the end "
        "matter: write a move as the two points, like c3e4. Towers never move."
    ),
    "building": (
        "If an empty point has your pieces (of any kind) on all four sides, you may spend "
        "your turn building a tower there. Points on the edge of the board lack a neighbour, "
        "so they can never be built on: in the board picture they form the darker outer "
        "ring, and towers go only in the lighter inner area (b2 to h8 on the 9x9 board, b2 "
        "to f6 on the 7x7 mini board). You may own at most two towers at a time. Write the "
        "point, like e5."
    ),
    "promotion": (
        "A pawn touching one of your towers may become a knight, using your turn, as long as "
        "you have fewer knights than towers. Since you own at most two towers you will rarely "
        "have more than two knights, but knights are never demoted, so losing a tower can "
        "leave you with more knights than towers. Write the pawn's point, like d2."
    ),
    "capturing": (
        "Knights capture by ending their move on an enemy pawn, knight or tower, which is "
        "removed; the steps before the last still need empty points. Pawns capture by "
        "flanking: after your pawn moves, every enemy piece right next to where it stopped "
        "that has one of your pieces or a dragon directly behind it is removed, in all four "
        "directions at once. A pawn that merely stands still never captures, and the board's "
        "edge does not count as a flanking piece. Dragons can never be captured."
    ),
    "dragons": (
        "Dragons belong to nobody. On your turn you may move any dragon that touches one of "
        "your pieces orthogonally. It moves like a pawn, boosts included, and captures like "
        "a pawn: an enemy piece next to where it stops, with your piece or another dragon "
        "behind it, is removed. Dragons also help your pawns flank and are the key to the "
        "tower victory."
    ),
    "passing": (
        "If you cannot move any piece or dragon, build or promote, you are immobilized and "
        "your turn is skipped; the bot plays the pass for you and says so. You may never pass "
        "while you have something to do. If nobody still in the game can act, the game is a "
        "draw."
    ),
    "repetition": (
        "A move may not recreate an arrangement of pieces that already stood on the board "
        "earlier in the game (the starting position included), whoever was to move then. "
        "Only if every move you have would do so are you free to repeat."
    ),
    "defeat": (
        "You are defeated when you have no tower and fewer than four pieces (too few to ever "
        "build one), when all your remaining pieces are towers, or when you resign. A "
        "defeated player's pieces stay on the board, but their turns are skipped from then "
        "on."
    ),
    "winning": (
        "Tower victory: the moment one of your towers has a dragon on each of its four sides, "
        "you win. Capture victory: when every other player is defeated, you win. Both are "
        "checked after every move, once its captures are done. If every player ends up "
        "defeated, the game is drawn."
    ),
    "variants": (
        "standard: 9x9, seven dragons placed from the match seed, two to four players. "
        "dragonless: the same without dragons, so only a capture victory is possible. mini: "
        "a 7x7 board for two players with four pawns each (a1-d1 and d7-g7) and seven "
        "dragons around d4. quickstart: 9x9 for two players who each start with two "
        "finished towers ringed by eight pawns (towers c2 and g2, mirrored on rank 8), and "
        "seven dragons."
    ),
    "multiplayer": (
        "With three players: player 1 holds a1-d1 and f1-i1, player 2 the east side (f9-i9 "
        "and i4-i7), player 3 the west side (a9-d9 and a4-a7). With four players each has "
        "six pawns in a corner: player 1 a1-d1 a3 a4, player 2 a9-d9 a6 a7, player 3 f1-i1 "
        "i3 i4, player 4 f9-i9 i6 i7. Turns go 1, 2, 3(, 4) and round again, skipping "
        "defeated players. Only your own pieces and dragons flank for you: a third player's "
        "piece never helps you capture. A resigning player is defeated and the rest play on; "
        "the last one standing wins."
    ),
}
