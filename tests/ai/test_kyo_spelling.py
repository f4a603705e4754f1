"""The computer plays each Kyo turn its shortest way (issue 41): a route that drops and lifts
chips round a loop only when no shorter turn does as much.

Turns that leave the same position but for where the mover's own mana lies do as much: the
evaluation counts mana, not where it stands, so the search cannot tell them apart, and it
used to play whichever it met first after shuffling, often a loop. These positions come from
seeded games of the computer against itself, where it played the turn named, though a turn
of a few tokens left the same position up to its own mana."""

from __future__ import annotations

import pytest

import ai
from ai.kyo import Alike
from rules import get_game
from rules.kyo import Turn
from rules.kyo.board import SIDES

KYO = get_game("kyo")

# name: (diagram, the turn the computer played there)
LOOPED = {
    "seed 2, ply 7 (the issue's)": (
        """
            a    b    c    d    e    f    g    h    i    j
        10  dddh ddlh d    lllh SSSk dlSq l    d    ddlh dddh
         9  .    .    l    .    SSt  SSt  .    ll   .    .
         8  .    .    .    l    .    .    l    .    lh   .
         7  p    p    p    p    h    h    p    p    p    p
         6  .    .    .    .    .    .    .    .    .    .
         5  .    .    .    .    .    .    .    .    .    .
         4  P    P    P    P    H    H    P    P    P    P
         3  .    .    .    LH   .    .    L    .    SQ   .
         2  .    .    L    .    SST  SST  D    L    .    .
         1  DDDH DDL  D    LLLH SSSK L    LLLH D    DDLH DDDH
        to move: red
        """,
        "i10:2-h10-g10-h9:1-i9:0-h10-h9:2-i10-h10-g10:1-h9:0-i9-h10-h9:1-g8",
    ),
    "seed 1, ply 9": (
        """
            a    b    c    d    e    f    g    h    i    j
        10  dddh ddlh d    lllh SSSk l    lllh dl   d    dddh
         9  .    .    l    .    SSt  SSt  d    l    .    .
         8  .    .    .    l    .    .    ld   h    Sq   .
         7  p    p    p    p    h    h    p    p    p    p
         6  .    .    .    .    .    .    .    .    .    .
         5  .    .    .    .    .    .    .    .    .    .
         4  P    P    P    P    H    H    P    P    P    P
         3  .    .    .    LH   .    .    LSQ  .    .    DH
         2  .    .    L    .    SST  SST  D    L    L    .
         1  DDDH DDL  D    LLLH SSSK L    LLLH D    D    DDDH
        to move: red
        """,
        "j10:2-i10-h10-i9:0-h9-i10-h10-g9-g8:1-h9:0-h10-g9-g8",
    ),
    "seed 4, ply 10": (
        """
            a    b    c    d    e    f    g    h    i    j
        10  dddh ddlh d    lllh SSSk l    l    d    d    dddh
         9  .    .    l    .    SSt  SSt  d    l    l    .
         8  .    .    .    l    .    .    l    ldh  lh   Sq
         7  p    p    p    p    h    h    p    p    p    p
         6  .    .    .    .    .    .    .    .    .    .
         5  .    .    .    .    .    .    .    .    .    .
         4  P    P    P    P    H    H    P    P    P    P
         3  .    .    .    LH   .    .    LSQ  .    .    DH
         2  .    .    L    .    SST  SST  D    L    .    D
         1  DDDH DDL  D    LLLH SSSK L    LLLH D    DDLH D
        to move: gold
        """,
        "i1:1-i2:0-h1-h2-i1:1-i2-h1:0-h2-i1-i2-h3",
    ),
    "seed 4, ply 39, a strike": (
        """
            a    b    c    d    e    f    g    h    i    j
        10  d    d    d    l    SSSk l    l    d    d    d
         9  l    ld   l    .    SSt  SSt  dd   l    l    .
         8  p    l    ddh  lh   .    .    ldh  ldh  lh   Sq
         7  .    .    h    p    h    .    p    p    .    p
         6  T    .    p    .    .    .    .    .    p    .
         5  H    L    .    .    SQ   H    P    .    .    .
         4  P    P    L    P    .    L    S    P    P    P
         3  .    H    D    L    .    H    L    H    H    DH
         2  .    DL   L    DS   L    SST  D    L    L    D
         1  D    D    D    L    SSSK L    LD   D    D    D
        to move: red
        """,
        "c8:1-c9-b10-b9:2-c8-b8-a7:0xa6",
    ),
}


def kind(board: tuple[str, ...], seat: int) -> tuple[str, ...]:
    """The position with the mover's own mana taken out."""
    mana = str.maketrans("", "", SIDES[seat].mana)
    return tuple(stack.translate(mana) for stack in board)


def revisits(state: object, move: Turn) -> bool:
    """Whether the turn's route comes back to a tile it has left."""
    last = KYO.last(KYO.apply(state, move))
    assert last is not None
    return len(set(last.path)) < len(last.path)


@pytest.mark.parametrize("name", list(LOOPED))
def test_the_computer_plays_no_loop_a_shorter_turn_matches(name: str) -> None:
    """No turn with fewer tokens leaves the same position, or the same up to the mover's
    own mana, as the computer's turn; in these positions it no longer plays the loop."""
    diagram, looped = LOOPED[name]
    state = KYO.parse_diagram(diagram)
    played = KYO.parse_move(state, looped)
    assert isinstance(played, Turn) and revisits(state, played)
    move = ai.choose_move("kyo", state, level=2, seed=1, nodes=400)
    assert isinstance(move, Turn)
    wanted = kind(move.board, state.turn)
    shorter = [
        str(turn)
        for turn in KYO.move_tree(state).moves(breadth_first=True)
        if isinstance(turn, Turn)
        and len(turn.tokens) < len(move.tokens)
        and kind(turn.board, state.turn) == wanted
    ]
    assert shorter == [], str(move)
    assert not revisits(state, move), str(move)


def test_of_each_kind_the_first_listed_turn_stands_for_all() -> None:
    """The listing gives the fewest tokens first: its first turn of each kind is kept."""
    state = KYO.parse_diagram(LOOPED["seed 2, ply 7 (the issue's)"][0])
    listed = [turn for turn in KYO.move_tree(state).moves(breadth_first=True)]
    kinds = Alike(state.board, SIDES[state.turn]).shortest(listed)
    assert len(kinds) < len(listed)
    for turn in listed:
        assert isinstance(turn, Turn)
        first = kinds[kind(turn.board, state.turn)]
        assert len(first.tokens) <= len(turn.tokens)
        assert listed.index(first) <= listed.index(turn)
