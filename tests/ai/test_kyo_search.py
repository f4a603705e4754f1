"""Kyo's search weighs the takes a turn allows (ai/kyo.py): it keeps its queen out of reach
where the one-ply reference player, which looks no further than its own turn, loses her."""

from __future__ import annotations

import ai
from ai.kyo import Alike
from rules import get_game
from rules.kyo import Turn
from rules.kyo.board import BY_NAME, SIDES
from rules.kyo.turns import TakeFinder
from tests.rules.test_kyo import position

KYO = get_game("kyo")
# Gold's queen on d4 can take the heavy pawn on e5, which the heavy pawn on f6 would retake;
# left where she is, she would be struck by the one on e5.
QUEEN_IN_REACH = position(d4="Q", e5="h", f6="h")


def queen_struck_next(board: tuple[str, ...]) -> bool:
    """Whether one of Red's takes in `board` removes Gold's queen."""
    return any("Q" not in "".join(after) for _, after in TakeFinder(board, SIDES[2]).takes(board))


def test_the_reference_takes_the_pawn_and_loses_its_queen() -> None:
    state = KYO.parse_diagram(QUEEN_IN_REACH)
    move = ai.reference("kyo", state, seed=1).move
    assert isinstance(move, Turn) and str(move) == "d4xe5"
    assert queen_struck_next(move.board)


def test_every_level_keeps_its_queen_out_of_reach() -> None:
    state = KYO.parse_diagram(QUEEN_IN_REACH)
    for level in (2, 3):
        move = ai.choose_move("kyo", state, level=level, seed=1, nodes=2000)
        assert isinstance(move, Turn)
        assert not queen_struck_next(move.board), (level, str(move))
        assert "Q" in "".join(move.board) and move.board[BY_NAME["d4"]] == ""


# From a random game: the takes' walk spells some of Gold's takes with a detour.
DETOURS = """
    a    b    c    d    e    f    g    h    i    j
10  dh   .    dd   h    SSk  .    h    dld  h    .
 9  .    dl   d    lS   dS   lllS lp   l    .    dd
 8  ll   h    h    SlS  q    t    .    l    .    dh
 7  p    p    lp   d    .    .    .    p    h    p
 6  .    P    .    .    P    .    t    d    .    p
 5  P    .    p    .    P    .    LP   P    .    D
 4  P    T    .    .    .    .    D    D    L    P
 3  DH   DDH  .    H    .    .    D    L    L    H
 2  .    SS   L    .    S    LSQ  T    LSLK H    D
 1  D    DDL  H    LL   SSLL .    .    D    H    DSH
to move: gold
"""


def test_a_take_the_walk_spelled_is_played_in_its_shortest_notation() -> None:
    """The takes' walk goes breadth first, so it spells a take with the fewest steps; a take
    spelled with a detour (not among the turns listed in time) is played the shortest way,
    like every listed turn."""
    state = KYO.parse_diagram(DETOURS)
    takes = TakeFinder(state.board, SIDES[1]).takes(state.board)
    walked = next(Turn(tokens, after) for tokens, after in takes if tokens[0] == "f2")
    assert str(walked) == "f2:1-g3-h3-i4-j5xj6"
    detour = KYO.parse_move(state, "f2:1-g3-h3-g4-h4-i4-j5xj6")
    assert isinstance(detour, Turn) and detour.board == walked.board
    assert str(Alike(state.board, SIDES[1]).spelled(detour, {})) == "f2:1-g3-h3-i4-j5xj6"


def test_level_3_forks_two_pawns_the_opponent_cannot_both_save() -> None:
    """Gold's heavy pawn carries two dark chips: a step to c4 puts the pawns on c6 and e4
    two mana steps away, out of their own reach, and Red can move only one of them."""
    state = KYO.parse_diagram(position(b4="DDH", c6="h", e4="h"))
    gold = SIDES[1]
    assert TakeFinder(state.board, gold).takes(state.board) == []
    move = ai.choose_move("kyo", state, level=3, seed=1, nodes=5000)
    assert isinstance(move, Turn)
    threats = TakeFinder(move.board, gold).takes(move.board)
    assert len({tokens[-1] for tokens, _ in threats}) >= 2, str(move)
