"""Kyo: one diagram test per numbered rule of rules/kyo.md and per example of the seed, then
notation, the picker, persistence and random playouts (its frozen move counts are checked
with the other games' in test_perft.py)."""

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.texts import say, t
from fixtures.positions import diagram
from rules import (
    PASS,
    Game,
    Highlight,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidState,
    Outcome,
    RulesError,
    UnknownVariant,
    get_game,
)
from rules.kyo import KyoMove, KyoState, Turn
from rules.kyo.board import SIDES
from rules.kyo.notation import join, tokenize
from rules.kyo.replay import simulate
from rules.kyo.turns import legal_turns
from rules.phrases import Phrase, phrase
from rules.records import Record
from tests.rules.refusals import refused as refused_as

GAME: Game[KyoState, KyoMove] = get_game("kyo")

# Both kings and some mana of each side stay on the board, so a test turn ends no game.
EMPTY = """
    a  b  c  d  e  f  g  h  i  j
10  .  .  .  .  .  .  .  .  .  dk
 9  .  .  .  .  .  .  .  .  .  .
 8  .  .  .  .  .  .  .  .  .  .
 7  .  .  .  .  .  .  .  .  .  .
 6  .  .  .  .  .  .  .  .  .  .
 5  .  .  .  .  .  .  .  .  .  .
 4  .  .  .  .  .  .  .  .  .  .
 3  .  .  .  .  .  .  .  .  .  .
 2  .  .  .  .  .  .  .  .  .  .
 1  DK .  .  .  .  .  .  .  .  .
"""


def position(**stacks: str) -> str:
    """The EMPTY diagram with some squares filled (`c3="DLLH"`) and `to_move="red"`."""
    turn = stacks.pop("to_move", "gold")
    state = GAME.parse_diagram(EMPTY)
    board = list(state.board)
    for name, stack in stacks.items():
        file, rank = ord(name[0]) - ord("a"), int(name[1:]) - 1
        board[rank * 10 + file] = "" if stack == "." else stack
    text = GAME.format_diagram(KyoState(board=tuple(board)))
    return text.replace("to move: gold", f"to move: {turn}")


def play(diagram: str, move: str) -> KyoState:
    state = GAME.parse_diagram(diagram)
    return GAME.apply(state, GAME.parse_move(state, move))


def last_turn(state: KyoState) -> Highlight:
    """The highlight of the turn that made `state`, which every played position has."""
    highlight = GAME.last(state)
    assert highlight is not None
    return highlight


def same_position(state: KyoState, diagram: str) -> bool:
    expected = GAME.parse_diagram(diagram)
    return (state.board, state.turn) == (expected.board, expected.turn)


def refused(diagram: str, move: str) -> RulesError:
    """Why the rules refuse a typed turn."""
    state = GAME.parse_diagram(diagram)
    with pytest.raises(IllegalMove) as error:
        GAME.parse_move(state, move)
    return error.value


def reason(diagram: str, move: str) -> str:
    """The key of that refusal, short of its `rules.kyo.`."""
    return refused(diagram, move).key.removeprefix("rules.kyo.")


def ended(action: str, **values: Any) -> Phrase:
    """The action after which a turn was over, as a refusal names it."""
    return phrase(f"rules.kyo.ended.{action}", **values)


def random_positions(count: int, seed: int) -> list[KyoState]:
    """Every third position of seeded random games of up to 60 plies."""
    rng = random.Random(seed)
    found: list[KyoState] = []
    state = GAME.new(variant=rng.choice(list(GAME.variants)))
    while len(found) < count:
        if state.ply % 3 == 0:
            found.append(state)
        if GAME.outcome(state) is not None or state.ply >= 60:
            state = GAME.new(variant=rng.choice(list(GAME.variants)))
            continue
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return found


# --- the seed's examples --------------------------------------------------------------------


def test_seed_mana_path_up_then_twice_diagonally() -> None:
    before = """
        a    b    c    d    e    f    g    h    i    j
    10  .    .    .    .    .    .    .    .    .    dk
     9  .    .    .    .    .    .    .    .    .    .
     8  .    .    .    .    .    .    .    .    .    .
     7  .    .    .    .    .    .    .    .    .    .
     6  .    .    .    .    .    .    .    .    .    .
     5  .    .    .    .    .    .    .    .    .    .
     4  .    .    .    .    .    .    .    .    .    .
     3  .    .    DLLH .    .    .    .    .    .    .
     2  .    .    .    .    .    .    .    .    .    .
     1  DK   .    .    .    .    .    .    .    .    .
    to move: gold
    """
    after = """
        a    b    c    d    e    f    g    h    i    j
    10  .    .    .    .    .    .    .    .    .    dk
     9  .    .    .    .    .    .    .    .    .    .
     8  .    .    .    .    .    .    .    .    .    .
     7  .    .    .    .    .    .    .    .    .    .
     6  .    .    .    .    H    .    .    .    .    .
     5  .    .    .    L    .    .    .    .    .    .
     4  .    .    L    .    .    .    .    .    .    .
     3  .    .    D    .    .    .    .    .    .    .
     2  .    .    .    .    .    .    .    .    .    .
     1  DK   .    .    .    .    .    .    .    .    .
    to move: red
    """
    state = play(before, "c3:2-c4:1-d5:0-e6")
    assert same_position(state, after)
    assert last_turn(state).path == ((2, 2), (2, 3), (3, 4), (4, 5))


def test_seed_direction_changes_legal_when_the_colour_changes() -> None:
    dark_dark_light = position(e3="DDLH")
    assert same_position(
        play(dark_dark_light, "e3:2-e4:1-e5:0-d6"),
        position(e3="D", e4="D", e5="L", d6="H", to_move="red"),
    )
    light_then_dark = position(e3="LDH")
    assert same_position(
        play(light_then_dark, "e3:1-f4:0-f5"), position(e3="L", f4="D", f5="H", to_move="red")
    )
    assert same_position(
        play(light_then_dark, "e3:1-f4:0-g4"), position(e3="L", f4="D", g4="H", to_move="red")
    )


def test_seed_direction_changes_illegal_over_one_colour() -> None:
    turning_on_dark = refused(position(e3="DDLH"), "e3:2-e4:1-f4")
    assert turning_on_dark.key == "rules.kyo.same_way"
    assert turning_on_dark.values["direction"] == phrase("rules.kyo.direction.up")
    assert reason(position(e3="LLH"), "e3:1-f4:0-e5") == "same_way"
    assert reason(position(e3="DDH"), "e3:1-e4:0-e3") == "same_way"


def test_seed_enemy_mana_is_used_but_not_lifted() -> None:
    before = """
        a   b   c   d   e   f   g   h   i   j
    10  .   .   .   .   .   .   .   .   .   dk
     9  .   .   .   .   .   .   .   .   .   .
     8  .   .   .   .   .   .   .   .   .   .
     7  .   .   .   .   .   .   llh .   .   .
     6  .   .   .   .   .   L   .   .   .   .
     5  .   .   .   .   .   .   .   .   .   .
     4  .   .   .   .   .   .   .   .   .   .
     3  .   .   .   .   .   .   .   .   .   .
     2  .   .   .   .   .   .   .   .   .   .
     1  DK  .   .   .   .   .   .   .   .   .
    to move: red
    """
    after = """
        a   b   c   d   e   f   g   h   i   j
    10  .   .   .   .   .   .   .   .   .   dk
     9  .   .   .   .   .   .   .   .   .   .
     8  .   .   .   .   .   .   .   .   .   .
     7  .   .   .   .   .   .   l   .   .   .
     6  .   .   .   .   .   L   .   .   .   .
     5  .   .   .   .   l   .   .   .   .   .
     4  .   .   .   h   .   .   .   .   .   .
     3  .   .   .   .   .   .   .   .   .   .
     2  .   .   .   .   .   .   .   .   .   .
     1  DK  .   .   .   .   .   .   .   .   .
    to move: gold
    """
    assert same_position(play(before, "g7:1-f6-e5:0-d4"), after)
    assert refused(before, "g7:1-f6:2-e5").values["count"] == 1  # the slice's most


def test_seed_enemy_light_mana_covering_your_own_blocks_the_road() -> None:
    before = """
        a   b   c   d   e   f   g   h   i   j
    10  .   .   .   .   .   .   .   .   .   dk
     9  .   .   .   .   .   .   .   .   .   .
     8  .   .   .   .   .   .   .   .   .   .
     7  .   .   .   .   .   .   .   .   .   .
     6  .   .   .   .   .   .   .   .   .   .
     5  .   .   .   .   lLh .   .   .   .   .
     4  .   .   .   .   .   .   .   .   .   .
     3  .   .   .   .   .   .   .   .   .   .
     2  .   .   .   .   .   .   .   .   .   .
     1  DK  .   .   .   .   .   .   .   .   .
    to move: red
    """
    assert refused(before, "e5:1-d4").values["count"] == 0
    assert reason(before, "e5-d4-c3") == "needs_mana"
    after = play(before, "e5-d4")
    assert after.board[44] == "lL" and after.board[33] == "h"
    assert not any(
        str(m).startswith("e5-d4-") for m in GAME.legal_moves(GAME.parse_diagram(before))
    )


OUTNUMBERING_EVEN = """
    a   b   c   d   e   f   g   h   i   j
10  .   .   .   .   .   .   .   .   .   dk
 9  .   .   .   .   .   .   .   .   .   .
 8  .   .   .   .   .   .   .   .   .   .
 7  .   .   .   .   .   .   .   .   .   .
 6  .   .   .   .   .   .   .   .   .   .
 5  .   .   .   .   p   .   .   .   .   .
 4  .   .   .   P   .   .   .   .   .   .
 3  .   .   .   .   .   .   .   .   .   .
 2  .   .   .   .   .   .   .   .   .   .
 1  DK  .   .   .   .   .   .   .   .   .
"""


def test_seed_outnumbering_one_against_one_cannot_strike() -> None:
    refusal = refused(OUTNUMBERING_EVEN, "d4xe5")
    assert refusal.key == "rules.kyo.outnumbered"
    assert (refusal.values["target"], refusal.values["mine"].values["count"]) == ("e5", 1)
    red = OUTNUMBERING_EVEN + "to move: red\n"
    assert reason(red, "e5xd4") == "outnumbered"


def test_seed_outnumbering_two_against_one_strikes() -> None:
    before = position(d4="P", f5="P", e5="p")
    after = play(before, "d4xe5")
    assert same_position(after, position(e5="P", f5="P", to_move="red"))
    assert last_turn(after).captured == ((4, 4),)


def test_seed_outnumbering_two_against_two_fails_but_mana_needs_none() -> None:
    before = position(d4="P", f5="P", e5="p", c3="d")
    refusal = refused(before, "d4xe5")
    tiles = refusal.values["mine"].values["count"], refusal.values["theirs"].values["count"]
    assert tiles == (2, 2)
    after = play(before, "d4-c3")
    assert same_position(after, position(c3="P", f5="P", e5="p", to_move="red"))
    assert last_turn(after).captured == ((2, 2),)


# --- 1-2. board and setup ---------------------------------------------------------------------

START = """
    a    b    c    d    e    f    g    h    i    j
10  dddh ddlh dllh lllh SSSk dlSq lllh dllh ddlh dddh
 9  .    .    .    .    SSt  SSt  .    .    .    .
 8  .    .    .    .    .    .    .    .    .    .
 7  p    p    p    p    .    .    p    p    p    p
 6  .    .    .    .    .    .    .    .    .    .
 5  .    .    .    .    .    .    .    .    .    .
 4  P    P    P    P    .    .    P    P    P    P
 3  .    .    .    .    .    .    .    .    .    .
 2  .    .    .    .    SST  SST  .    .    .    .
 1  DDDH DDLH DLLH LLLH SSSK DLSQ LLLH DLLH DDLH DDDH
to move: gold
"""


def test_rule_1_a_10x10_board_gold_first_and_the_diagram_round_trips() -> None:
    state = GAME.new()
    assert GAME.board_size == (10, 10) and GAME.to_move(state) == 1
    assert say(GAME.seat_phrase(1)) == "Gold" and say(GAME.seat_phrase(2)) == "Red"
    assert GAME.format_diagram(state) == START.strip("\n")
    assert GAME.parse_diagram(GAME.format_diagram(state)).board == state.board


@pytest.mark.parametrize(("variant", "gold_rank"), [("trench", 4), ("open", 2), ("deadlock", 5)])
def test_rule_2_setup_counts_per_side(variant: str, gold_rank: int) -> None:
    board = GAME.new(variant=variant).board
    for side, rows in ((SIDES[1], range(0, 5)), (SIDES[2], range(5, 10))):
        items = Counter("".join(board[r * 10 + f] for r in rows for f in range(10)))
        pawns, mana = side.pawns, side.mana
        assert [items[p] for p in pawns] == [8, 8, 2, 1, 1]  # light, heavy, tower, queen, king
        assert [items[m] for m in mana] == [13, 13]
        assert items["S"] == 8
    light = [i for i, stack in enumerate(board) if stack == "P"]
    assert {i // 10 + 1 for i in light} == {gold_rank}
    assert {i % 10 for i in light} == {0, 1, 2, 3, 6, 7, 8, 9}


def test_rule_2_the_start_position() -> None:
    assert GAME.parse_diagram(START).board == GAME.new().board
    assert GAME.parse_diagram(START + "variant: open").variant == "open"


def test_rule_3_a_stack_holds_one_pawn_on_top() -> None:
    with refused_as(InvalidDiagram, "rules.kyo.diagram.pawns", square="c3", cell="HD"):
        GAME.parse_diagram(position(c3="HD"))
    with refused_as(InvalidDiagram, "rules.kyo.diagram.pawns", cell="DHK"):
        GAME.parse_diagram(position(c3="DHK"))


# --- 3. a turn ---------------------------------------------------------------------------------


def test_rule_4_the_stack_must_be_yours_and_a_turn_needs_an_action() -> None:
    before = position(c3="DLH", e5="dh", f5="DLh")
    assert reason(before, "e5-e4") == "not_yours"
    assert reason(before, "f5:0-f4") == "not_yours"
    assert reason(before, "d4-d5") == "empty"
    assert reason(before, "c3") == "say_what"
    assert same_position(
        play(before, "c3=LD"), position(c3="LDH", e5="dh", f5="DLh", to_move="red")
    )


def test_rule_5_lift_limits() -> None:
    light = position(c3="DP")
    assert reason(light, "c3:1-c4") == "light_pawn_slice"
    assert same_position(play(light, "c3-c4"), position(c3="D", c4="P", to_move="red"))
    heavy = position(c3="DDDDDDDH")
    assert refused(heavy, "c3:6-c4").values["count"] == 5
    assert same_position(play(heavy, "c3-c4"), position(c3="DD", c4="DDDDDH", to_move="red"))
    chips = position(c3="DLDLDLDL")
    assert same_position(play(chips, "c3-c4"), position(c4="DLDLDLDL", to_move="red"))
    assert same_position(play(chips, "c3:3-c4"), position(c3="DLDLD", c4="LDL", to_move="red"))
    under_enemy = position(c3="DdDDH")
    assert refused(under_enemy, "c3:3-c4").values["reason"] == phrase("rules.kyo.slice.enemy_mana")
    assert same_position(play(under_enemy, "c3-c4"), position(c3="Dd", c4="DDH", to_move="red"))


def test_rule_5_the_slice_lifts_more_on_the_way() -> None:
    before = position(c3="DH", c4="LD")
    after = play(before, "c3:0-c4:1-d5")
    assert same_position(after, position(c3="D", c4="L", d5="DH", to_move="red"))
    assert last_turn(after).notation == "c3:0-c4:1-d5"


def test_rule_5_a_pawn_lifts_at_most_5_chips_in_a_whole_turn() -> None:
    road = position(c3="DDH", c4="DDDDD", c5="DDDDD", c6="DD")
    refusal = refused(road, "c3:1-c4:5-c5:4-c6:5-c7")
    assert refusal.key == "rules.kyo.lift_limit" and refusal.values["lifted"] == 5
    after = play(road, "c3:1-c4:5-c5:4-c6-c7")
    assert same_position(
        after, position(c3="D", c4="D", c5="DDDDDD", c6="DD", c7="DDDDH", to_move="red")
    )


# --- 4. actions ------------------------------------------------------------------------------


def test_rule_6_steps_onto_empty_and_mana_tiles_land_on_top() -> None:
    before = position(c3="H", c4="DL", b4="SL")
    assert same_position(play(before, "c3-c4"), position(c4="DLH", b4="SL", to_move="red"))
    assert same_position(play(before, "c3-d4"), position(d4="H", c4="DL", b4="SL", to_move="red"))
    refusal = refused(position(c3="H", c4="H"), "c3-c4")
    assert refusal.key == "rules.kyo.own_pawn"
    assert refusal.values["pawn"] == phrase("rules.kyo.item.heavy_pawn")


def test_rule_6_a_strike_removes_the_pawn_and_its_unbroken_run_of_chips() -> None:
    shield_below = position(e4="DH", e5="dSddh")
    after = play(shield_below, "e4xe5")
    assert same_position(after, position(e5="dSDH", to_move="red"))
    own_chip_below = position(e4="H", e5="ddDdh")
    assert same_position(play(own_chip_below, "e4-e5"), position(e5="ddDH", to_move="red"))
    assert last_turn(after).captured == ((4, 4),)


def test_rule_6_shields_a_tower_steps_on_anyone_else_strikes() -> None:
    before = position(e4="DH", e5="SS", d4="T")
    struck = play(before, "e4xe5")
    assert same_position(struck, position(e4="DH", e5="S", d4="T", to_move="red"))
    assert last_turn(struck).captured == ((4, 4),) and last_turn(struck).path == ((4, 3),)
    climbed = play(before, "d4-e5")
    assert same_position(climbed, position(e4="DH", e5="SST", to_move="red"))
    lifted = play(position(d4="DT", d5="LSS"), "d4:0-d5:2-e6")
    assert same_position(lifted, position(d4="D", d5="L", e6="SST", to_move="red"))


def test_rule_7_a_direct_step_ends_the_turn() -> None:
    before = position(c3="DDH")
    assert refused(before, "c3-c4-c5").values["ended"] == ended("move", square="c4")
    assert reason(before, "c3:1-c4:0-d5") == "needs_mana"
    assert same_position(
        play(before, "c3:1-c4:0-c5"), position(c3="D", c4="D", c5="H", to_move="red")
    )


def test_rule_7_a_strike_ends_the_turn_even_on_a_mana_road() -> None:
    before = position(c3="DDH", c5="h")
    assert refused(before, "c3:1-c4:0-c5-c6").values["ended"] == ended("strike", square="c5")
    assert same_position(
        play(before, "c3:1-c4:0-c5"), position(c3="D", c4="D", c5="H", to_move="red")
    )


def test_rule_8_light_pawns_never_use_mana_and_take_enemy_mana_freely() -> None:
    before = position(c3="DP", c4="d", d5="lld")
    assert reason(before, "c3-c4-c5") == "over_after"
    assert same_position(play(before, "c3-c4"), position(c3="D", c4="P", d5="lld", to_move="red"))
    after = play(before, "c3-d4")
    assert same_position(after, position(c3="D", c4="d", d4="P", d5="lld", to_move="red"))


def test_rule_9_chip_moves_leave_the_pawn_and_slide_under_pawns_and_shields() -> None:
    before = position(e1="SSSK", e2="SST", d2="SS", f2="h", d1="L")
    assert same_position(
        play(before, "e1:1>d1"),
        position(e1="SSK", e2="SST", d2="SS", f2="h", d1="LS", to_move="red"),
    )
    assert same_position(
        play(before, "e1:2>e2"),
        position(e1="SK", e2="SSSST", d2="SS", f2="h", d1="L", to_move="red"),
    )
    assert same_position(
        play(before, "e1>d2"), position(e1="K", e2="SST", d2="SSSSS", f2="h", d1="L", to_move="red")
    )
    assert same_position(
        play(before, "e1:1>f2"),
        position(e1="SSK", e2="SST", d2="SS", f2="Sh", d1="L", to_move="red"),
    )
    assert refused(before, "e1:1>d1-e1").values["ended"] == ended("move", square="d1")
    assert reason(before, "e1:0>d1") == "no_chips"
    assert refused(before, "e1:0>d1").values == {"square": "e1", "neighbour": "e2"}  # e1:1>e2


def test_rule_10_a_tower_deploys_after_its_steps_or_without_stepping() -> None:
    tower = position(e3="SST")
    assert same_position(play(tower, "e3-e4+e5"), position(e4="ST", e5="S", to_move="red"))
    assert same_position(play(tower, "e3+d4"), position(e3="ST", d4="S", to_move="red"))
    road = position(e3="DDSST")
    after_road = play(road, "e3:3-e4+d5")
    assert same_position(after_road, position(e3="D", e4="DST", d5="S", to_move="red"))
    assert last_turn(after_road).changed == ((3, 4),)


def test_ruling_a_tower_deploys_as_often_as_it_likes_but_only_at_the_end() -> None:
    tower = position(e3="SSST", f3="L")
    spread = play(tower, "e3+e4+d4+f3")
    assert same_position(spread, position(e3="T", e4="S", d4="S", f3="LS", to_move="red"))
    back = play(tower, "e3+e4+d4+e4")
    assert same_position(back, position(e3="T", e4="SS", d4="S", f3="L", to_move="red"))
    assert reason(tower, "e3+e4-f4") == "over.deployed"
    assert reason(tower, "e3+e4>f4") == "over.deployed"
    assert reason(position(e3="SST", e4="S"), "e3+e4") == "deploy_target"
    road = position(c3="DDSST")
    assert same_position(
        play(road, "c3:3-c4+b5+d5"), position(c3="D", c4="DT", b5="S", d5="S", to_move="red")
    )


def test_rule_10_a_tower_deploys_a_shield_from_under_mana_in_its_slice() -> None:
    tower = position(e3="SDT")
    assert same_position(play(tower, "e3+e4"), position(e3="DT", e4="S", to_move="red"))


def test_rule_10_no_deploy_after_a_strike_or_a_towers_shuffle() -> None:
    strike = refused(position(e3="SST", e4="h"), "e3xe4+d4")
    assert strike.values["ended"] == ended("strike", square="e4")
    shuffle = refused(position(e3="DLSST"), "e3=LDSS+d4")
    assert shuffle.values["ended"] == ended("shuffle", token="=LDSS")


def test_rule_10_several_shields_at_once_and_for_other_pawns_a_chip_move() -> None:
    tower = position(e3="SST", e4="h")
    state = GAME.parse_diagram(tower)
    both = GAME.parse_move(state, "e3+d4+d4")
    assert str(both) == "e3>d4"
    assert same_position(GAME.apply(state, both), position(e3="T", d4="SS", e4="h", to_move="red"))
    assert reason(tower, "e3+e4") == "deploy_target"
    assert reason(position(e1="SSSK"), "e1+e2") == "not_tower"
    assert same_position(
        play(position(e1="SSSK"), "e1:2>e2"), position(e1="SK", e2="SS", to_move="red")
    )


def test_rule_11_a_queen_shuffles_between_mana_steps() -> None:
    before = position(c3="DLDQ")
    assert same_position(
        play(before, "c3:2-c4=DL:1-c5:0-d6"),
        position(c3="D", c4="D", c5="L", d6="Q", to_move="red"),
    )
    assert reason(before, "c3:2-c4:1-c5") == "needs_mana"
    assert reason(position(c3="DLDH"), "c3:2-c4=DL:1-c5") == "not_queen"
    picked_up = position(c3="DQ", c4="DL")
    after = play(picked_up, "c3:0-c4:2=LD:1-d5:0-d6")
    assert same_position(after, position(c3="D", c4="L", d5="D", d6="Q", to_move="red"))
    assert last_turn(after).notation == "c3:0-c4=LD:1-d5:0-d6"


def test_rule_11_a_queen_may_shuffle_then_take_a_direct_step() -> None:
    before = position(f1="DLSQ")
    assert same_position(play(before, "f1=LDS-g2"), position(g2="LDSQ", to_move="red"))
    assert same_position(play(before, "f1=LDS:2-g2"), position(f1="L", g2="DSQ", to_move="red"))


def test_rule_11_no_shuffle_leaves_a_shield_under_mana() -> None:
    queen = position(f1="DLSQ")
    assert reason(queen, "f1=SDL") == "shuffle_shield"
    assert reason(queen, "f1=LSD") == "shuffle_shield"
    moves = {str(m) for m in GAME.legal_moves(GAME.parse_diagram(queen)) if "=" in str(m)}
    assert "f1=LDS" in moves and not any("=S" in m or "SD" in m or "SL" in m for m in moves)
    chips = position(c3="SD")
    assert same_position(play(chips, "c3=DS"), position(c3="DS", to_move="red"))


def test_rule_11_for_other_stacks_a_shuffle_is_the_whole_turn() -> None:
    before = position(c3="DLH")
    assert same_position(play(before, "c3=LD"), position(c3="LDH", to_move="red"))
    assert refused(before, "c3=LD-c4").values["ended"] == ended("shuffle", token="=LD")
    assert reason(before, "c3=DD") == "shuffle_chips"
    assert refused(before, "c3=DD").values == {
        "chips": phrase("rules.count.chips", count=2),
        "square": "c3",
        "now": "DL",
        "order": "DD",
    }


def test_rule_12_outnumbering_counts_tops_shields_for_no_one_and_the_edge() -> None:
    shielded = position(d4="P", f5="P", e5="p", c3="dS")
    assert same_position(play(shielded, "d4xe5"), position(e5="P", f5="P", c3="dS", to_move="red"))
    corner = position(a1=".", b1="DK", a2="P", b3="P", a3="p", b2="d")
    assert reason(corner, "a2xa3") == "outnumbered"
    edge = position(a1=".", b1="DK", a2="P", b2="P", a3="p")
    assert same_position(
        play(edge, "a2xa3"), position(a1=".", b1="DK", a3="P", b2="P", to_move="red")
    )


def test_rule_13_landing_destroys_enemy_mana_down_to_your_chip_or_a_shield() -> None:
    own_chip = position(e4="H", e5="dDdld")
    after = play(own_chip, "e4-e5")
    assert same_position(after, position(e5="dDH", to_move="red"))
    assert last_turn(after).captured == ((4, 4),)
    shield = position(e4="H", e5="dSld")
    assert same_position(play(shield, "e4-e5"), position(e5="dSH", to_move="red"))


def test_rule_13_passed_over_mana_survives_and_chips_alone_destroy_nothing() -> None:
    road = position(e3="DH", e4="d")
    after = play(road, "e3:0-e4-e5")
    assert same_position(after, position(e3="D", e4="d", e5="H", to_move="red"))
    assert last_turn(after).captured == ()
    chips = position(e3="DD", e4="d")
    assert same_position(play(chips, "e3-e4"), position(e4="dDD", to_move="red"))


# --- 5. end of the game ------------------------------------------------------------------------


def test_rule_14_taking_the_king_wins() -> None:
    after = play(position(j10="d", j9="k", j8="H"), "j8xj9")
    assert GAME.outcome(after) == Outcome((1,), "king")
    assert GAME.legal_moves(after) == ()
    with refused_as(IllegalMove, "rules.game.over"):
        GAME.parse_move(after, "a1-a2")


def test_rule_14_destroying_the_last_enemy_mana_wins() -> None:
    after = play(position(j10="k", e5="d", e4="H"), "e4-e5")
    assert GAME.outcome(after) == Outcome((1,), "mana")
    still = play(position(j10="k", e5="d", e6="l", e4="H"), "e4-e5")
    assert GAME.outcome(still) is None


def test_rule_15_the_third_repetition_draws() -> None:
    state = GAME.parse_diagram(position(a4="H", j7="h"))
    turns = ["a4-a5", "j7-j6", "a5-a4", "j6-j7"] * 2
    for number, turn in enumerate(turns, start=1):
        assert GAME.outcome(state) is None, number
        state = GAME.apply(state, GAME.parse_move(state, turn))
    assert GAME.outcome(state) == Outcome((), "repetition")


def test_rule_15_a_player_without_a_legal_turn_passes() -> None:
    boxed = position(a1="K", a2="P", b1="P", b2="DP", a3="p", b3="p", c3="p", c2="p", c1="p")
    state = GAME.parse_diagram(boxed)
    assert GAME.legal_moves(state) == (PASS,)
    assert reason(boxed, "a2-a3") == "must_pass"
    after = GAME.apply(state, GAME.parse_move(state, "pass"))
    assert GAME.to_move(after) == 2 and GAME.outcome(after) is None
    assert GAME.format_move(state, PASS) == "pass"


def test_ruling_withdrawn_a_slice_may_stand_on_a_tile_again() -> None:
    before = position(c3="DLDLH")
    assert same_position(
        play(before, "c3:3-c4:2-d5:1-d4:0-c3"),
        position(c3="DH", c4="L", d5="D", d4="L", to_move="red"),
    )


def test_rule_6_a_shield_strike_destroys_nothing_under_the_striker() -> None:
    before = position(c3="DH", c4="d", c5="S")
    after = play(before, "c3:0-c4xc5")
    assert same_position(after, position(c3="D", c4="dH", to_move="red"))


def test_rule_11_a_queens_shuffle_checks_only_the_chips_it_reorders() -> None:
    queen = position(c3="SDLQ")
    assert same_position(play(queen, "c3=LD"), position(c3="SLDQ", to_move="red"))
    assert reason(queen, "c3=DSL") == "shuffle_shield"


# --- 6. what a move is -------------------------------------------------------------------------


def test_rule_16_turns_leaving_the_same_position_are_one_move() -> None:
    state = GAME.parse_diagram(position(c3="DDH"))
    assert GAME.parse_move(state, "c3:2-c4") == GAME.parse_move(state, "c3-c4")
    assert str(GAME.parse_move(state, "c3:2-c4")) == "c3-c4"
    finals = legal_turns(state.board, SIDES[1]).best
    assert len(finals) == len(GAME.legal_moves(state))
    assert state.board not in finals
    assert reason(position(c3="DDH"), "c3=DD") == "no_change"


# --- 17. notation --------------------------------------------------------------------------


def test_rule_17_a_plain_step_is_short_and_input_is_forgiving() -> None:
    state = GAME.new()
    step = GAME.parse_move(state, "a4-a5")
    assert str(step) == "a4-a5" and GAME.move_tokens(state, step) == ("a4", "a5")
    for typed in ("A4-A5", "a4 a5", "a4a5", " a4 – a5 ", "a4,a5"):
        assert GAME.parse_move(state, typed) == step
    road = GAME.parse_move(state, "b1:2-b2:1-b3:0-c2")
    for typed in ("B1/2 b2/1 b3/0 c2", "b1(2) b2 (1) b3(0) c2", "b1 :2 - b2 :1 - b3 :0 - c2"):
        assert GAME.parse_move(state, typed) == road
    assert GAME.parse_move(state, "f1 = lds") == GAME.parse_move(state, "f1=LDS")
    assert GAME.parse_move(state, "E2 + E3") == GAME.parse_move(state, "e2+e3")
    assert GAME.parse_move(state, "e1 : 1 > d2") == GAME.parse_move(state, "e1:1>d2")


def test_rule_17_a_strike_may_be_typed_with_a_dash_and_prints_with_x() -> None:
    state = GAME.parse_diagram(position(e4="H", e5="h"))
    move = GAME.parse_move(state, "e4-e5")
    assert move == GAME.parse_move(state, "e4xe5") == GAME.parse_move(state, "e4 x e5")
    assert str(move) == "e4xe5" and GAME.move_tokens(state, move) == ("e4", "xe5")


def test_rule_17_every_kind_of_turn_is_written_canonically() -> None:
    written = {
        "step": (position(c3="DDH"), "c3-c4"),
        "slice size": (position(c3="DDH"), "c3:0-c4"),
        "chips left on the way": (position(c3="DLLH"), "c3:2-c4:1-d5:0-e6"),
        "pick-up": (position(c3="DH", c4="LD"), "c3:0-c4:1-d5"),
        "strike": (position(e4="H", e5="h"), "e4xe5"),
        "strike ending a road": (position(c3="DDH", c5="h"), "c3:1-c4:0xc5"),
        "road over enemy mana": (position(g7="llh", f6="L", to_move="red"), "g7:1-f6-e5:0-d4"),
        "tower deploys": (GAME.format_diagram(GAME.new()), "e2+d3+f3"),
        "tower deploys last": (GAME.format_diagram(GAME.new()), "e2-e3+e4"),
        "shield strike": (position(e4="H", e5="S"), "e4xe5"),
        "shuffle": (position(f1="DLSQ"), "f1=LDS"),
        "queen shuffle on the way": (position(c3="DQ", c4="DL"), "c3:0-c4=LD:1-d5:0-d6"),
        "chip move": (position(e1="SSSK"), "e1:1>d2"),
        "tower deploy after a road": (position(e3="DDSST"), "e3:3-e4+d5"),
        "chips without a pawn": (position(c3="DLD"), "c3:2-c4"),
    }
    for kind, (where, text) in written.items():
        state = GAME.parse_diagram(where)
        move = GAME.parse_move(state, text)
        assert str(move) == text, kind
        assert join(GAME.move_tokens(state, move)) == text, kind


def test_rule_17_bad_input_gets_a_helpful_message() -> None:
    state = GAME.new()
    with refused_as(InvalidMove, "rules.kyo.unreadable", text="'hello'"):
        GAME.parse_move(state, "hello")
    with refused_as(InvalidMove, "rules.square.off_board", square="k1"):
        GAME.parse_move(state, "k1-k2")
    with refused_as(InvalidMove, "rules.kyo.cannot_read", rest="'please'"):
        GAME.parse_move(state, "a4-a5 please")
    with refused_as(InvalidMove, "rules.kyo.type_turn"):
        GAME.parse_move(state, "  ")
    not_next = GAME.diagnose(state, "a4-a6")
    assert not_next.key == "rules.kyo.not_next"
    assert (not_next.values["target"], not_next.values["square"]) == ("a6", "a4")
    assert GAME.diagnose(state, "pass").key == "rules.kyo.no_pass"
    assert GAME.diagnose(state, "a4-a5").key == "rules.kyo.legal"


MOST_FIVE = phrase("rules.kyo.slice.most", most=5)
NO_MORE = phrase("rules.kyo.slice.no_more")
ENEMY_MANA = phrase("rules.kyo.slice.enemy_mana")
NOTHING = phrase("rules.kyo.nothing")


@pytest.mark.parametrize(
    ("stacks", "typed", "key", "values"),
    [
        ({"e3": "SST"}, "e3-e4-e5", "over.moved", {"square": "e4"}),
        ({"e3": "DST"}, "e3:1>e4-d4", "over.chipped", {}),
        ({"e3": "DT"}, "e3+e4", "no_shield", {"square": "e3"}),
        ({"c3": "DDH"}, "c3:1-c4:0>c5", "only_action", {}),
        ({"c3": "DDDDDDDH"}, "c3=DDDDDDD", "slice_limit", {"count": 5, "reason": MOST_FIVE}),
        ({"c3": "DDH"}, "c3:3-c4", "slice_limit", {"count": 2, "reason": NO_MORE}),
        ({"c3": "dDDH"}, "c3:3-c4", "slice_limit", {"reason": ENEMY_MANA}),
        ({"c3": "DDH"}, "c3:1-c4:0-c5:0-c6", "needs_mana", {"left": NOTHING}),
        ({"c3": "DDH"}, "c3:1", "dangling_slice", {}),
        ({"a2": "DH"}, "a2:0-a1", "own_pawn", {"pawn": phrase("rules.kyo.item.king")}),
    ],
)
def test_every_refusal_says_why(
    stacks: dict[str, str], typed: str, key: str, values: dict[str, Any]
) -> None:
    refusal = refused(position(**stacks), typed)
    assert refusal.key == "rules.kyo." + key
    assert {name: refusal.values.get(name) for name in values} == values


def test_rule_17_notation_round_trips_over_every_legal_move_of_random_positions() -> None:
    """Canonical text -> tokens -> the same move, and replaying the tokens through the parser's
    side of the rules reaches a different position for every move (rule 16); every 20th
    move also goes through the whole parser, which finds the same canonical text."""
    checked = 0
    for state in random_positions(30, seed=5):
        side = SIDES[state.turn]
        reached = {state.board}
        for number, move in enumerate(GAME.legal_moves(state)):
            if not isinstance(move, Turn):
                continue
            text = GAME.format_move(state, move)
            assert tokenize(text) == move.tokens == GAME.move_tokens(state, move)
            if number % 20 == 0:
                parsed = GAME.parse_move(state, text)
                assert parsed == move and str(parsed) == text
            reached.add(simulate(state.board, side, move.tokens).board)
            checked += 1
        assert len(reached) == len(GAME.legal_moves(state)) + 1
    assert checked > 3_000


def test_rule_17_the_picker_builds_multi_step_turns_token_by_token() -> None:
    state = GAME.new()
    tree = GAME.move_tree(state)
    assert {"a1", "e2", "f1", "a4"} <= set(tree.children)
    node = tree.walk(["b1", ":2", "b2", ":1", "b3"])
    assert node is not None and node.move == GAME.parse_move(state, "b1:2-b2:1-b3")
    assert set(node.children) == {":0"}
    assert set(node.children[":0"].children) == {"a2", "c2"}
    queen = tree.walk(["f1", "=LDS", ":2", "g2", ":1"])
    assert queen is not None and set(queen.children) == {"g3", "h2"}
    tower = tree.walk(["e2", "+e3"])
    assert tower is not None and tower.move is not None and "e4" not in tower.children
    assert "-e3" not in tree.children["e2"].children and "e3" in tree.children["e2"].children


def test_rule_18_three_variants_and_no_cannon_or_knight() -> None:
    assert list(GAME.variants) == ["trench", "open", "deadlock"]
    assert GAME.default_variant == "trench" and GAME.new().variant == "trench"
    for name in ("cannon", "knight"):
        with refused_as(UnknownVariant, "rules.game.no_variant", variant=name):
            GAME.new(variant=name)
    with refused_as(InvalidDiagram, "rules.kyo.diagram.cell", cell="DDC"):
        GAME.parse_diagram(position(c3="DDC"))
    with refused_as(InvalidDiagram, "rules.kyo.diagram.variant", variant="knights"):
        GAME.parse_diagram(START + "variant: knights")


# --- persistence, records, counts, playouts ----------------------------------------------------


def test_dump_and_load_round_trip_through_json() -> None:
    for state in random_positions(12, seed=8):
        again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert again == state


def test_load_refuses_corrupt_states() -> None:
    data = GAME.dump(GAME.new())
    data["state"]["board"][0] = "DDXH"
    with refused_as(InvalidState, "rules.state.corrupt", game="kyo"):
        GAME.load(data)


def test_a_record_replays_to_the_same_state() -> None:
    rng = random.Random(4)
    state = GAME.new(variant="open")
    turns = []
    for _ in range(30):
        move = rng.choice(GAME.legal_moves(state))
        turns.append(GAME.format_move(state, move))
        state = GAME.apply(state, move)
    record = Record("kyo", "open", 2, 0, tuple(turns))
    assert Record.from_text(record.to_text(say)).replay(GAME) == state


QUEEN_FIELD = diagram("kyo", "queen field")


def test_the_start_counts_follow_the_tower_ruling() -> None:
    """Against the count before the 2026-11-26 rulings (565): each tower loses the 12 turns
    that deployed before stepping and gains 36 that step and then put its two shields on two
    tiles; no turn deploys and then does something else."""
    moves = [move for move in GAME.legal_moves(GAME.new()) if isinstance(move, Turn)]
    assert len(moves) == 565 + 2 * (36 - 12)
    assert (
        sum(m.tokens[0] == "e2" and m.tokens[1][0] == "+" and m.tokens[-1][0] != "+" for m in moves)
        == 0
    )


def test_random_playouts_end_cleanly_and_keep_the_invariants() -> None:
    rng = random.Random(11)
    for variant in GAME.variants:
        state = GAME.new(variant=variant)
        while GAME.outcome(state) is None and state.ply < 40:
            moves = GAME.legal_moves(state)
            assert moves and len(set(moves)) == len(moves)
            before = Counter("".join(state.board))
            state = GAME.apply(state, rng.choice(moves))
            after = Counter("".join(state.board))
            assert all(after[item] <= before[item] for item in "PHTQKphtqkDLdlS")
            for stack in state.board:
                assert sum(ch.upper() in "PHTQK" for ch in stack) <= 1
                assert not stack or stack[:-1].upper().strip("DLS") == ""
        assert GAME.outcome(state) is not None or state.ply == 40


def test_help_topics_cover_the_rules() -> None:
    expected = ["overview", "setup", "stacks", "direct", "mana", "light-pawn", "heavy-pawn"]
    expected += ["tower", "queen", "king", "shields", "shuffles", "striking", "outnumbering"]
    assert list(GAME.help_topics) == [*expected, "winning", "notation"]


def test_the_help_examples_are_legal_from_the_start() -> None:
    text = say(t("help.kyo.notation")).split("Examples from the start: ", 1)[1]
    examples = text.split(". ", 1)[0].split(", ")
    state = GAME.new()
    assert len(examples) == 5
    assert [str(GAME.parse_move(state, example)) for example in examples] == examples


def test_the_documented_diagram_is_the_starting_position() -> None:
    text = (Path(__file__).parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
    section = text.split("## Kyo", 1)[1]
    block = section.split("```", 2)[1]
    assert GAME.parse_diagram(block) == GAME.new()


# --- a turn is checked by playing it, never by listing every turn -----------------------------


@pytest.fixture
def no_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every complete listing fails: what serves players must not need one."""

    def refuse(*args: object) -> None:
        raise AssertionError("a complete listing was asked for")

    monkeypatch.setattr(GAME, "legal_moves", refuse)
    monkeypatch.setattr("rules.kyo.game.legal_turns", refuse)


def test_parse_apply_pass_check_and_picker_never_list_every_turn(no_listing: None) -> None:
    state = GAME.parse_diagram(QUEEN_FIELD)
    move = GAME.parse_move(state, "e3:1-e4")
    after = GAME.apply(state, move)
    assert GAME.to_move(after) == 2 and not GAME.must_pass(after)
    tree = GAME.move_tree(after)
    assert "h9" in tree.children
    assert GAME.completions(after, "h9", 5)
    assert GAME.nearest_moves(after, "h9-h20", 3)
    with refused_as(InvalidMove, "rules.kyo.type_turn"):
        GAME.parse_move(after, "")


def test_a_typed_turn_is_the_move_of_the_position_it_leaves() -> None:
    state = GAME.parse_diagram(position(c3="DDH"))
    assert GAME.parse_move(state, "c3:2-c4") == GAME.parse_move(state, "c3-c4")
    assert str(GAME.parse_move(state, "c3 :2 - c4")) == "c3-c4"
    listed = {str(m): m for m in GAME.legal_moves(state)}
    typed = GAME.parse_move(state, "c3 :1 - c4 :0 :0 - c5")
    assert typed in listed.values() and str(typed) == "c3:1-c4:0-c5"
    assert GAME.is_legal(state, typed)
    other = GAME.parse_diagram(position(c3="DDH", c4="h"))
    assert not GAME.is_legal(other, typed)
    with pytest.raises(IllegalMove):
        GAME.apply(other, typed)


def test_a_long_queen_road_keeps_the_typed_spelling_when_the_search_would_be_long() -> None:
    """The canonical text comes from a bounded search: a turn whose shortest spelling is out of
    its reach keeps the typed text, normalised (strikes marked x, needless sizes dropped)."""
    state = GAME.parse_diagram(position(c3="DH", d4="h"))
    assert str(GAME.parse_move(state, "C3 :1 - D4")) == "c3xd4"
    queen = GAME.parse_diagram(QUEEN_FIELD)
    move = GAME.parse_move(queen, "f1=LDS:2-g2")
    assert move in GAME.legal_moves(queen)


def test_numbers_are_bounded_before_they_are_read() -> None:
    state = GAME.new()
    with refused_as(InvalidMove, "rules.kyo.huge_slice", digits="999999"):
        GAME.parse_move(state, "e2:" + "9" * 5000 + "-e3")
    with pytest.raises(InvalidMove) as error:
        GAME.parse_move(state, "e" + "9" * 5000)
    assert error.value.key == "rules.kyo.unreadable" and len(error.value.values["text"]) < 50
    with refused_as(IllegalMove, "rules.kyo.slice_limit", count=2):
        GAME.parse_move(state, "e2:99-e3")


def test_long_inputs_are_read_in_one_pass() -> None:
    state = GAME.new()
    with refused_as(InvalidMove, "rules.kyo.cannot_read"):
        GAME.parse_move(state, "e2" + " " * 20_000 + "!")
    with refused_as(IllegalMove, "rules.kyo.over.moved", square="e3"):
        GAME.parse_move(state, "e2-e3" + "-e4" * 5_000)


def test_the_pass_check_finds_one_turn_or_none() -> None:
    boxed = GAME.parse_diagram(
        position(a1="K", a2="P", b1="P", b2="DP", a3="p", b3="p", c3="p", c2="p", c1="p")
    )
    assert GAME.must_pass(boxed) and GAME.is_legal(boxed, PASS)
    assert not GAME.must_pass(GAME.new()) and not GAME.is_legal(GAME.new(), PASS)
    passing = GAME.move_tree(boxed).walk(["pass"])
    assert passing is not None and passing.move is PASS


def test_the_lazy_picker_offers_exactly_the_legal_turns() -> None:
    """Walking the whole tree of small positions finds every legal move and nothing else."""
    for where in (position(c3="DLDQ", c4="DL"), position(e3="SSST", f3="L"), position(c3="DLD")):
        state = GAME.parse_diagram(where)
        tree = GAME.move_tree(state)
        assert set(tree.moves()) == set(GAME.legal_moves(state))
        for move in list(tree.moves())[::97]:
            assert GAME.parse_move(state, str(move)) == move


def test_the_picker_labels_every_choice_in_words() -> None:
    state = GAME.new()
    tree = GAME.move_tree(state)
    assert say(GAME.token_label(state, [], "e2")) == "Gold's tower on e2"
    labels = {t: say(GAME.token_label(state, ["e2"], t)) for t in tree.children["e2"].children}
    assert labels["+f3"] == "deploy 1 shield to f3"
    assert labels["e3"] == "step to e3"
    assert labels[":1"] == "lift 1 chip"
    assert labels[">d2"] == "move 2 chips to d2"
    assert say(GAME.token_label(state, ["b1", ":2", "b2"], ":1")) == "leave dark mana"
    assert say(GAME.token_label(state, ["f1"], "=LDS")) == (
        "reorder the chips, bottom first: light mana, dark mana, shield"
    )
    strike = GAME.parse_diagram(position(e4="H", e5="h"))
    assert say(GAME.token_label(strike, ["e4"], "xe5")) == "strike Red's heavy pawn on e5"
    every: list[str] = []
    for path in (["b1"], ["f1"], ["f1", "=LDS"], ["b1", ":2", "b2"]):
        node = tree.walk(path)
        assert node is not None
        every.extend(say(GAME.token_label(state, path, token)) for token in node.children)
    assert all(" " in text for text in every)


def test_hints_name_a_few_nearest_legal_turns() -> None:
    state = GAME.new()
    near = GAME.nearest_moves(state, "b1:2-b2:1-b4", 3)
    assert len(near) == 3 and all(text.startswith("b1:2-b2:1-b3") for text in near)
    assert GAME.nearest_moves(state, "k9", 3) and len(GAME.nearest_moves(state, "e2-e9", 4)) == 4
    assert set(GAME.completions(state, "b1:2-b2:1-b", 10)) == {
        "b1:2-b2:1-b3",
        "b1:2-b2:1-b3:0-a2",
        "b1:2-b2:1-b3:0-c2",
    }
    assert "topic:notation" in say(GAME.diagnose(state, "hello"))


def test_the_nearest_turns_to_an_unreadable_slice_start_from_its_square() -> None:
    state = GAME.new()
    near = GAME.nearest_moves(state, "e2:" + "9" * 5000, 8)
    assert near and len(near) <= 8
    assert all(text.startswith("e2") for text in near), near
