"""Kyo's rules explained for players, one topic per entry, in our own words."""

from __future__ import annotations

from collections.abc import Mapping

HELP_TOPICS: Mapping[str, str] = {
    "overview": (
        "Kyo is a chess-like game for two on a 10x10 board. Gold (upper case, moves first) "
        "and Red each have 20 pawns standing on stacks of chips: dark and light mana in their "
        "colour, and shields that belong to no one. A pawn walks along a road of mana chips, "
        "dropping them or using ones already there, and strikes by stepping onto an enemy "
        "pawn. Take the enemy king, or wipe out every enemy mana chip, to win."
    ),
    "setup": (
        "Rank 1 (Gold) and rank 10 (Red), each stack bottom to top: a DDD heavy, b DDL heavy, "
        "c DLL heavy, d LLL heavy, e SSS king, f DLS queen, g LLL heavy, h DLL heavy, "
        "i DDL heavy, j DDD heavy (D dark mana, L light mana, S shield). Two towers stand on "
        "two shields each on e2 f2 (Gold) and e9 f9 (Red). The eight light pawns stand on "
        "files a-d and g-j: ranks 4 and 7 in 'trench' (the default), 2 and 9 in 'open', 5 and "
        "6 in 'deadlock'. Each side: 8 light pawns, 8 heavies, 2 towers, a queen, a king, 13 "
        "dark and 13 light mana, 8 shields."
    ),
    "stacks": (
        "Every tile holds a stack, read bottom to top; a pawn, if any, is always on top. On your "
        "turn pick one stack whose top is yours (your pawn, or your mana) and act with a slice "
        "lifted off its top. A light pawn lifts only itself; any other pawn lifts itself and "
        "up to 5 chips under it (shields count); a stack with no pawn lifts as many of its top "
        "chips as you like. Nothing at or below an enemy mana chip can ever be lifted. During "
        "the turn the slice may put its lowest chips down and lift more from the tile it is "
        "on, though a pawn lifts at most 5 chips in the whole turn, its first slice included "
        "(ruling of 2026-11-26). Write the slice's chip count after a square: e2:1-e3 moves "
        "the pawn with one chip; with no count the slice is as big as it can be."
    ),
    "direct": (
        "A direct step moves the slice one tile in any of the 8 directions and ends the turn. "
        "It can only be the first step of a turn (a queen may shuffle before it, a tower may "
        "deploy after it). Any step that is not a mana step is a direct step, so "
        "e2-e3 with the whole stack is a direct step."
    ),
    "mana": (
        "A step is a mana step when the tile you leave shows a mana chip on top once your "
        "slice is gone: dark mana lets you step straight (up, down, left, right), light mana "
        "diagonally. Leave one of your chips behind for it, or use one that is already there: "
        "even the enemy's, which you can use but never lift. After a mana step you may keep "
        "going with more mana steps, but not with a direct step. Over chips of one colour in a "
        "row you must keep exactly the same direction; once the colour changes you may turn. "
        "A road may pass over a tile it has already stood on this turn. "
        "Example: c3:2-c4:1-d5:0-e6 on a DLL stack leaves a dark chip to go up, then light "
        "chips to go diagonally twice. Light pawns never use mana."
    ),
    "light-pawn": (
        "The light pawn (P) lifts nothing and never uses mana: it takes one direct step per "
        "turn. It may step onto enemy mana freely (destroying it), but it may strike an enemy "
        "pawn only when it outnumbers it (see 'outnumbering')."
    ),
    "heavy-pawn": (
        "The heavy pawn (H) carries up to 5 chips, walks mana roads and strikes anything it "
        "can step onto. Each starts on three mana chips."
    ),
    "tower": (
        "The tower (T) is the only pawn that can step onto shields (and then lift them). At the "
        "end of its turn, after its steps or without stepping at all, it may deploy shields "
        "from its slice, one at a time, each onto a neighbouring tile that is empty, shows "
        "mana, or already got a shield this turn: e2+e3 puts one shield on e3, e2+e3+e3 two, "
        "e2-e3+e4+d4 steps and then shields two tiles. Once it has deployed it only deploys. "
        "Each tower starts on two shields."
    ),
    "queen": (
        "The queen (Q) may shuffle her lifted chips any number of times during her turn: before "
        "her first step, between mana steps and after the last one. Shuffles are not steps, so "
        "she can also shuffle and then take a direct step. She starts on dark, light and shield."
    ),
    "king": (
        "The king (K) has no special power. Lose him and you lose the game. He starts on three "
        "shields, which he can hand out as a chip move (e1:1>e2) but never take back."
    ),
    "shields": (
        "Shields belong to no one; any pawn may carry them. A pawn other than a tower that "
        "steps onto a shield strikes it instead: the top shield is removed, the pawn stays "
        "where it was and the turn ends, destroying nothing under it. Only towers step onto "
        "shields. A pawn with shields in "
        "its slice may deploy them onto a neighbouring empty or mana-topped tile; for any pawn "
        "but a tower that is a chip move, the whole turn. Shields stop the destruction of mana "
        "under a landing pawn, and tiles with a shield on top count for no one when light "
        "pawns compare numbers."
    ),
    "shuffles": (
        "A shuffle reorders the lifted chips; the pawn stays on top. Write the new order bottom "
        "first: f1=LDS. No shuffle may leave a shield under a mana chip, so shields always go "
        "last. A shuffle is the whole turn, except for a queen (see 'queen'). Chips alone move "
        "the same way: e1:2>e2 moves the two chips under e1's pawn to e2, leaving the pawn; "
        "onto a pawn or a shield they slide in just under its top item."
    ),
    "striking": (
        "Stepping onto an enemy pawn strikes it (written x: e4xe5): the pawn and the unbroken "
        "run of its owner's chips right under it leave the game, your slice lands on what is "
        "left, and the turn ends, even in the middle of a mana road. When your turn ends with "
        "your pawn landed on enemy mana, those enemy chips under your slice are destroyed, down "
        "to the first chip of yours or shield. Enemy mana you only passed over survives."
    ),
    "outnumbering": (
        "A light pawn on A may strike an enemy pawn on T only when more tiles around T show the "
        "attacker's colour on top (pawn or mana, A included) than tiles around A show the "
        "defender's colour (T included). Shield-topped tiles count for no one, and the board "
        "edge counts nothing. Two against two is not enough. Stepping onto enemy mana never "
        "needs outnumbering."
    ),
    "winning": (
        "After each turn, a player with no king on the board, or with no mana chip of their "
        "colour anywhere (under pawns too), has lost. The same position with the same player "
        "to move for the third time is a draw. A player with no legal turn passes."
    ),
    "notation": (
        "A turn is its origin square, then its actions: -e3 a step, xe3 a strike, :2 the "
        "number of chips the slice holds from here on, >e3 chips without the pawn, +e3 a "
        "tower deploying a shield, =LDS a shuffle (new order, bottom first). Examples from "
        "the start: e2-e3, b1:2-b2:1-b3, f1=LDS:2-g2, e2+d3+f3, e1:1>d2. Case and spaces do "
        "not matter."
    ),
}
