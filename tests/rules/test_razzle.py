import dataclasses
import json
import random
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.texts import say
from fixtures import positions
from rules import (
    PASS,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidState,
    Outcome,
    RulesError,
)
from rules.phrases import phrase
from rules.playout import random_states, random_turns
from rules.razzle import Chain, Knight, RazzleDazzle, RazzleState
from rules.records import Record
from tests.rules.refusals import refused

GAME = RazzleDazzle()
WHITE, BLACK = phrase("rules.seat.white"), phrase("rules.seat.black")

# The seed's own picture of the setup, frame, arrows and all.
SEED_SETUP = """
  8 | .  o  o  O  o  o  . |  ← Player 2 (O) starts here
  7 | .  .  .  .  .  .  . |
  6 | .  .  .  .  .  .  . |
  5 | .  .  .  .  .  .  . |
  4 | .  .  .  .  .  .  . |
  3 | .  .  .  .  .  .  . |
  2 | .  .  .  .  .  .  . |
  1 | .  x  x  X  x  x  . |  ← Player 1 (X) starts here
    +---------------------+
       a  b  c  d  e  f  g
"""


def sq(name: str) -> int:
    return (int(name[1:]) - 1) * 7 + "abcdefg".index(name[0])


def play(state: RazzleState, *moves: str) -> RazzleState:
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def names(state: RazzleState) -> list[str]:
    return [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


def diagram(rows: str, *keys: str) -> RazzleState:
    return GAME.parse_diagram(rows + "\n".join(keys))


def random_positions(count: int, seed: int) -> list[RazzleState]:
    """Running positions of random games until there are `count`."""
    rng = random.Random(seed)
    positions: list[RazzleState] = []
    while len(positions) < count:
        states = random_states(GAME, rng, GAME.new())
        positions.extend(s for s in states if GAME.outcome(s) is None)
    return positions[:count]


# -- setup and the opening -----------------------------------------------------------------


def test_the_seed_diagram_is_the_starting_position() -> None:
    start = GAME.new()
    parsed = GAME.parse_diagram(SEED_SETUP)
    assert parsed.board == start.board
    assert (parsed.turn, parsed.ineligible, parsed.forced) == (1, frozenset(), False)
    assert start.board.count("x") == 4 and start.board.index("X") == sq("d1")
    assert start.board.count("o") == 4 and start.board.index("O") == sq("d8")


def test_the_sixteen_opening_actions_and_the_turns_they_make() -> None:
    start = GAME.new()
    knight_moves = {
        "b1-a3", "b1-c3", "b1-d2",
        "c1-a2", "c1-b3", "c1-d3", "c1-e2",
        "e1-c2", "e1-d3", "e1-f3", "e1-g2",
        "f1-d2", "f1-e3", "f1-g3",
    }  # fmt: skip
    first_passes = {"d1-c1", "d1-e1"}
    assert len(knight_moves | first_passes) == 16
    # Each first pass is a complete turn, and the receiver may pass on once more.
    chains = {"d1-c1", "d1-c1-b1", "d1-e1", "d1-e1-f1"}
    assert set(names(start)) == knight_moves | chains
    assert len(names(start)) == 18
    assert names(start) == sorted(names(start))
    for text in knight_moves:
        assert isinstance(GAME.parse_move(start, text), Knight)
    for text in chains:
        assert isinstance(GAME.parse_move(start, text), Chain)


def test_a_knight_move_from_the_start() -> None:
    after = play(GAME.new(), "b1-c3")
    expected = """
8  . o o O o o .
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . x . . . .
2  . . . . . . .
1  . . x X x x .
"""
    assert after.board == GAME.parse_diagram(expected).board
    assert after.turn == 2 and after.ply == 1 and not after.forced
    assert after.last is not None and after.last.path == ((1, 0), (2, 2))
    assert after.last.notation == "b1-c3" and after.last.seat == 1


def test_a_pass_chain_moves_the_ball_and_ends_the_turn() -> None:
    after = play(GAME.new(), "d1-e1-f1")
    expected = """
8  . o o O o o .
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . . . . . .
1  . x x x x X .
to move: 2
ineligible: d1 e1 f1
"""
    want = GAME.parse_diagram(expected)
    assert (after.board, after.turn, after.ineligible) == (want.board, 2, want.ineligible)
    assert after.last is not None and after.last.path == ((3, 0), (4, 0), (5, 0))


def test_the_step_form_of_the_seed_is_accepted() -> None:
    start = GAME.new()
    chain = GAME.parse_move(start, "d1-e1-f1")
    for text in ("d1-e1, e1-f1, end", "D1-E1, E1-F1", "d1 e1 e1 f1 end", "d1e1f1", "d1-e1,f1"):
        assert GAME.parse_move(start, text) == chain
    assert GAME.parse_move(start, "d1-e1, end") == Chain((sq("d1"), sq("e1")))


# -- moving ----------------------------------------------------------------------------------


def test_the_piece_holding_the_ball_cannot_move() -> None:
    with refused(IllegalMove, "rules.razzle.holder_moves", square="d1"):
        GAME.parse_move(GAME.new(), "d1-c3")
    for state in random_positions(200, seed=21):
        holder = state.board.index("X" if state.turn == 1 else "O")
        for move in GAME.legal_moves(state):
            assert not (isinstance(move, Knight) and move.origin == holder)


def test_moving_and_passing_in_the_same_turn_is_impossible() -> None:
    start = GAME.new()
    for text in ("b1-c3, d1-e1", "d1-e1, b1-c3", "d1-e1, e1-f1, b1-c3, end"):
        with refused(IllegalMove, "rules.razzle.mixed"):
            GAME.parse_move(start, text)
    # A pass chain hands the turn over, so the same player cannot move afterwards.
    after = play(start, "d1-e1")
    assert after.turn == 2
    with refused(IllegalMove, "rules.razzle.not_yours", opponent=WHITE):
        GAME.parse_move(after, "b1-c3")


# -- passing ---------------------------------------------------------------------------------

BLOCKED = """
8  . o o O o . .
7  . . . . . . .
6  . . . x . . .
5  . . . . . . .
4  x . . . . . .
3  . x . o . . .
2  . . . . . . .
1  . . . X . x .
"""


def test_a_pass_is_blocked_by_any_piece() -> None:
    state = diagram(BLOCKED, "ineligible: b3")
    assert [m for m in names(state) if m.startswith("d1")] == ["d1-f1"]
    with refused(IllegalMove, "rules.razzle.blocked", origin="d1", target="d6", blocker="d3"):
        GAME.parse_move(state, "d1-d6")  # an opponent's piece in the way
    with refused(IllegalMove, "rules.razzle.blocked", origin="d1", target="a4", blocker="b3"):
        GAME.parse_move(state, "d1-a4")  # an own (ineligible) piece in the way
    with refused(IllegalMove, "rules.razzle.ineligible", square="b3"):
        GAME.parse_move(state, "d1-b3")
    # Without b3 in the way the pass to a4 flies.
    open_line = diagram(BLOCKED.replace("x . o", ". . o"))
    assert "d1-a4" in names(open_line)


def test_passes_follow_all_eight_lines_and_stop_at_the_first_piece() -> None:
    star = """
8  . o . O . o .
7  x . . x . . x
6  . . . . . . .
5  . . . . . . .
4  x . . X . . x
3  . . . . . . .
2  . . . . . . .
1  x . . x . o x
"""
    state = GAME.parse_diagram(star)
    singles = {m for m in names(state) if m.count("-") == 1 and m.startswith("d4")}
    assert singles == {"d4-a1", "d4-a4", "d4-a7", "d4-d1", "d4-d7", "d4-g1", "d4-g4", "d4-g7"}
    # d4-g1 then g1-g4 is fine; g1 cannot pass left past the opponent on f1.
    assert "d4-g1-g4" in names(state)
    assert not any(m.startswith("d4-g1-d1") for m in names(state))


INELIGIBLE_EXAMPLE = positions.diagram("razzle", "seed: ineligible receivers")


def test_the_seed_ineligibility_example() -> None:
    state = GAME.parse_diagram(INELIGIBLE_EXAMPLE)
    assert state.ineligible == frozenset()
    after = play(state, "c1-e1")
    expected = """
8  . o o O o o .
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . x . . .
2  . . . . . . .
1  . x x . X x .
to move: 2
ineligible: c1 e1
"""
    assert GAME.format_diagram(after) == GAME.format_diagram(GAME.parse_diagram(expected)) + (
        "\nlast move: c1-e1"
    )
    # Both stay ineligible across turns: e1 cannot give the ball back to c1.
    later = play(after, "b8-a6", "f1-g3", "a6-b8")
    assert later.ineligible == frozenset({sq("c1"), sq("e1")})
    with refused(IllegalMove, "rules.razzle.ineligible", square="c1"):
        GAME.parse_move(later, "e1-c1")
    # A knight move makes c1 eligible again (on its new square); e1 stays ineligible.
    moved = play(later, "c1-b3", "b8-a6")
    assert moved.ineligible == frozenset({sq("e1")})
    back = play(moved, "b3-c1", "a6-b8")
    assert "e1-c1" in names(back)
    passed = play(back, "e1-c1")
    with refused(IllegalMove, "rules.razzle.ineligible", square="e1"):
        GAME.parse_move(play(passed, "b8-a6"), "c1-e1")


def test_no_piece_touches_the_ball_twice_in_one_turn() -> None:
    with refused(IllegalMove, "rules.razzle.caught_twice", square="d1"):
        GAME.parse_move(GAME.new(), "d1-e1-d1")
    for state in random_positions(200, seed=22):
        for move in GAME.legal_moves(state):
            if isinstance(move, Chain):
                assert len(set(move.path)) == len(move.path)
                assert not set(move.path[1:]) & state.ineligible


# -- the forced throw ------------------------------------------------------------------------

FORCING = positions.diagram("razzle", "seed: a move beside the ball forces a pass")


def test_a_knight_move_next_to_the_ball_forces_a_throw() -> None:
    state = play(GAME.parse_diagram(FORCING), "c4-d2")
    assert state.forced
    assert names(state) == ["d1-c1", "d1-c1-b1", "d1-e1", "d1-e1-f1"]
    with refused(IllegalMove, "rules.razzle.must_throw", opponent=BLACK, example="d1-c1"):
        GAME.parse_move(state, "b1-c3")
    # The obligation lasts one turn: after the throw, nobody is forced.
    assert not play(state, "d1-e1").forced


def test_the_forced_pass_comes_only_from_a_fresh_knight_move() -> None:
    already_there = GAME.parse_diagram(FORCING.replace(". . o . . . .", ". . . . . . .", 1))
    rows = GAME.format_diagram(already_there).splitlines()
    rows[7] = "2  . . . o . . ."
    state = play(GAME.parse_diagram("\n".join(rows)), "b8-a6")
    assert not state.forced
    assert "b1-c3" in names(state)
    # A knight move elsewhere, or landing next to one's own ball, forces nothing.
    assert not play(GAME.parse_diagram(FORCING), "c4-e5").forced
    assert not play(GAME.new(), "c1-e2").forced


def test_a_forced_player_who_cannot_pass_may_move() -> None:
    state = play(diagram(FORCING, "ineligible: c1 e1"), "c4-d2")
    assert state.forced
    moves = names(state)
    assert moves and all(not m.startswith("d1") for m in moves)
    assert "b1-c3" in moves


def test_the_last_move_key_of_a_diagram_sets_the_forced_pass() -> None:
    rows = FORCING.replace(". . o . . . .", ". . . . . . .").replace(
        "2  . . . . . . .", "2  . . . o . . ."
    )
    rows = rows.replace("to move: 2", "to move: 1")
    forced = diagram(rows, "last move: c4-d2")
    assert forced.forced and forced.last is not None and forced.last.seat == 2
    assert names(forced) == ["d1-c1", "d1-c1-b1", "d1-e1", "d1-e1-f1"]
    assert not diagram(rows).forced


# -- winning ---------------------------------------------------------------------------------

GOAL = positions.diagram("razzle", "a pass to the back row")


def test_a_pass_to_a_piece_on_the_back_row_wins() -> None:
    state = GAME.parse_diagram(GOAL)
    assert GAME.outcome(state) is None  # f8 stands there without the ball: nothing yet
    won = play(state, "c5-f8")
    assert GAME.outcome(won) == Outcome((1,), "goal")
    assert GAME.legal_moves(won) == ()
    with refused(IllegalMove, "rules.game.over"):
        GAME.parse_move(won, "b1-c3")
    assert GAME.outcome(play(state, "c5-f2-f8")) == Outcome((1,), "goal")


def test_the_chain_stops_on_the_back_row() -> None:
    state = GAME.parse_diagram(GOAL)
    assert "c5-f8" in names(state)
    assert not any(m.startswith("c5-f8-") for m in names(state))
    with refused(IllegalMove, "rules.razzle.goal", opponent=BLACK, square="f8"):
        GAME.parse_move(state, "c5-f8-f2")


def test_a_piece_on_the_back_row_without_the_ball_does_not_win() -> None:
    state = GAME.parse_diagram(GOAL.replace(". . . . . x .", ". . . . . . .", 1))
    walked = play(state, "f8-g6", "b8-a6", "g6-f8")
    assert GAME.outcome(walked) is None
    assert walked.board[sq("f8")] == "x"


def test_player_two_wins_on_rank_one() -> None:
    mirrored = """
8  . . o . . o .
7  . . . . . . .
6  . o . . . . .
5  . . . . . . .
4  . . O . . . .
3  . . . . . . .
2  . . . . . . .
1  . x x X x o .
to move: 2
"""
    state = GAME.parse_diagram(mirrored)
    assert GAME.outcome(play(state, "c4-f1")) == Outcome((2,), "goal")


# -- draws -----------------------------------------------------------------------------------


def test_the_third_occurrence_of_a_position_draws() -> None:
    state = GAME.new()
    cycle = ["b1-c3", "b8-c6", "c3-b1", "c6-b8"]
    for text in cycle * 2:
        assert GAME.outcome(state) is None
        state = play(state, text)
    assert GAME.outcome(state) == Outcome((), "repetition")
    assert state.ply == 8


def test_ineligible_pieces_are_part_of_the_repeated_position() -> None:
    start = GAME.new()
    passed = play(start, "d1-e1", "d8-e8", "e1-f1", "e8-f8")
    assert passed.board != start.board
    plain = GAME.parse_diagram(GAME.format_diagram(passed).split("\nineligible")[0])
    assert plain.board == passed.board and plain.key != passed.key
    forced = dataclasses.replace(passed, forced=True)
    assert forced.key != passed.key


def test_two_hundred_turns_without_a_winner_draw() -> None:
    late = dataclasses.replace(GAME.new(), ply=199)
    assert GAME.outcome(play(late, "b1-c3")) == Outcome((), "move-limit")
    assert GAME.outcome(dataclasses.replace(GAME.new(), ply=198)) is None
    assert GAME.outcome(play(dataclasses.replace(GAME.new(), ply=198), "b1-c3")) is None
    # A win on the last turn is still a win.
    goal = dataclasses.replace(GAME.parse_diagram(GOAL), ply=199)
    assert GAME.outcome(play(goal, "c5-f8")) == Outcome((1,), "goal")


def test_a_real_game_reaches_the_turn_limit() -> None:
    rng = random.Random(1)
    state = GAME.new()
    while GAME.outcome(state) is None:
        moves = [m for m in GAME.legal_moves(state) if isinstance(m, Knight)]
        state = GAME.apply(state, rng.choice(moves or GAME.legal_moves(state)))
    assert GAME.outcome(state) == Outcome((), "move-limit")
    assert state.ply == 200 and len(state.history) == 201


LONELY = """
8  . . . O . . .
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . . . . . .
1  . . . X . . .
"""


def test_a_player_without_any_turn_passes_and_nobody_moving_draws() -> None:
    state = GAME.parse_diagram(LONELY)
    assert GAME.legal_moves(state) == (PASS,)
    after = play(state, "pass")
    assert GAME.outcome(after) == Outcome((), "no-moves")
    stuck = GAME.parse_diagram(LONELY.replace("8  . . . O . . .", "8  . . . O o . ."))
    moved = play(stuck, "pass")
    assert GAME.outcome(moved) is None and moved.turn == 2
    with refused(IllegalMove, "rules.razzle.no_pass"):
        GAME.parse_move(GAME.new(), "pass")


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "text", "error", "key", "values"),
    [
        ("start", "end", InvalidMove, "end_alone", {}),
        ("start", "jump!", InvalidMove, "unreadable", {"text": "jump!"}),
        ("start", ",", InvalidMove, "unreadable", {"text": ","}),
        ("start", "   ", InvalidMove, "rules.game.type_move", {"example": "b1-a3"}),
        ("start", "pass", IllegalMove, "no_pass", {}),
        ("start", "h1-g3", InvalidMove, "rules.square.off_board", {"square": "h1"}),
        ("start", "b1-c3, d1-e1", IllegalMove, "mixed", {}),
        ("start", "d1-e1, e5-e8", InvalidMove, "broken", {"previous": "e1", "wrong": "e5"}),
        ("start", "d1", InvalidMove, "alone", {"text": "d1"}),
        ("start", "d4-d5", IllegalMove, "empty", {"square": "d4"}),
        ("start", "b8-c6", IllegalMove, "not_yours", {"square": "b8", "opponent": BLACK}),
        ("start", "b1-c3-d5", IllegalMove, "one_knight_move", {"ball": "d1"}),
        ("start", "b1-b4", IllegalMove, "throw_from_ball", {"move": "b1-b4", "ball": "d1"}),
        ("start", "b1-c4", IllegalMove, "not_knight", {"move": "b1-c4"}),
        ("example", "e1-d3", IllegalMove, "occupied", {"square": "d3"}),
        ("forced", "b1-c3", IllegalMove, "must_throw", {"opponent": BLACK}),
        ("start", "d1-c3", IllegalMove, "holder_moves", {"square": "d1"}),
        ("start", "d1-e4", IllegalMove, "not_straight", {"origin": "d1", "target": "e4"}),
        ("blocked", "d1-d6", IllegalMove, "blocked", {"blocker": "d3"}),
        ("start", "d1-d2", IllegalMove, "to_empty", {"square": "d2"}),
        ("start", "d1-d8", IllegalMove, "to_enemy", {"square": "d8", "opponent": BLACK}),
        ("start", "d1-e1-d1", IllegalMove, "caught_twice", {"square": "d1"}),
        ("blocked", "d1-b3", IllegalMove, "ineligible", {"square": "b3"}),
        ("goal", "c5-f8-f2", IllegalMove, "goal", {"square": "f8"}),
        ("won", "b1-c3", IllegalMove, "rules.game.over", {}),
    ],
)
def test_bad_input_is_explained(
    position: str, text: str, error: type[RulesError], key: str, values: dict[str, Any]
) -> None:
    states = {
        "start": GAME.new(),
        "example": GAME.parse_diagram(INELIGIBLE_EXAMPLE),
        "forced": play(GAME.parse_diagram(FORCING), "c4-d2"),
        "blocked": diagram(BLOCKED, "ineligible: b3"),
        "goal": GAME.parse_diagram(GOAL),
        "won": play(GAME.parse_diagram(GOAL), "c5-f8"),
    }
    full_key = key if key.startswith("rules.") else "rules.razzle." + key
    with refused(error, full_key, **values):
        GAME.parse_move(states[position], text)


def test_diagnose_on_a_legal_text_stays_generic() -> None:
    start = GAME.new()
    for text in ("b1-c3", "d1-e1"):
        refusal = GAME.diagnose(start, text)
        assert (refusal.key, dict(refusal.values)) == ("rules.game.illegal", {"move": text})


def test_apply_rejects_an_illegal_move_object() -> None:
    with refused(IllegalMove, "rules.game.not_legal", move="d1-c3"):
        GAME.apply(GAME.new(), Knight(sq("d1"), sq("c3")))


@pytest.mark.parametrize("text", ["b1-c3", "B1C3", " b1 c3 ", "b1 - c3", "b1-c3, end"])
def test_input_is_forgiving(text: str) -> None:
    assert GAME.parse_move(GAME.new(), text) == Knight(sq("b1"), sq("c3"))


# -- diagrams --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "key", "values"),
    [
        (". . .\n" * 8, "rules.diagram.row", {"width": 7}),
        (INELIGIBLE_EXAMPLE.replace(". x X", ". z X"), "cell", {"square": "b1", "cell": "z"}),
        (INELIGIBLE_EXAMPLE.replace(". x X", ". x x"), "balls", {"seat": 1, "found": 0}),
        (INELIGIBLE_EXAMPLE.replace(". x X", ". X X"), "balls", {"seat": 1, "found": 2}),
        (INELIGIBLE_EXAMPLE + "to move: 3", "rules.diagram.seat", {"value": "3"}),
        (INELIGIBLE_EXAMPLE + "score: 3", "key", {"name": "score"}),
        (INELIGIBLE_EXAMPLE + "ineligible: d1", "ineligible_empty", {"square": "d1"}),
        (INELIGIBLE_EXAMPLE + "ineligible: k1", "ineligible", {}),
        (INELIGIBLE_EXAMPLE + "last move: b1", "last_short", {}),
        (INELIGIBLE_EXAMPLE + "last move: jump", "last", {}),
        (INELIGIBLE_EXAMPLE + "last move: b8-c6", "last_knight", {"target": "c6"}),
        (INELIGIBLE_EXAMPLE + "last move: d8-e8", "last_throw", {"square": "e8"}),
        (INELIGIBLE_EXAMPLE + "last move: d8-e8, c8-b8", "last_broken", {}),
    ],
)
def test_malformed_diagrams_are_explained(bad: str, key: str, values: dict[str, Any]) -> None:
    full_key = key if key.startswith("rules.") else "rules.razzle.diagram." + key
    with refused(InvalidDiagram, full_key, **values):
        GAME.parse_diagram(bad)


def test_diagram_keys_are_read() -> None:
    state = diagram(INELIGIBLE_EXAMPLE, "to move: o", "ineligible: c1, d3", "last move: pass")
    assert state.turn == 2
    assert state.ineligible == frozenset({sq("c1"), sq("d3")})
    assert state.last is not None and state.last.notation == "pass" and not state.forced
    chained = diagram(INELIGIBLE_EXAMPLE, "to move: 2", "last move: e1-c1")
    assert chained.last is not None and chained.last.path == ((4, 0), (2, 0))
    won = GAME.parse_diagram(GOAL.replace("o x .", "o X .").replace(". . X", ". . x"))
    assert GAME.outcome(won) == Outcome((1,), "goal")


def test_diagram_round_trip() -> None:
    for state in random_positions(150, seed=3):
        text = GAME.format_diagram(state)
        again = GAME.parse_diagram(text)
        assert GAME.format_diagram(again) == text
        assert (again.board, again.turn, again.ineligible, again.forced, again.last) == (
            state.board,
            state.turn,
            state.ineligible,
            state.forced,
            state.last,
        )
        assert GAME.legal_moves(again) == GAME.legal_moves(state)


# -- whole-game properties -------------------------------------------------------------------


def test_notation_round_trips_over_every_legal_move() -> None:
    checked = 0
    for state in random_positions(300, seed=7):
        assert names(state) == sorted(names(state))
        for move in GAME.legal_moves(state):
            text = GAME.format_move(state, move)
            assert GAME.parse_move(state, text) == move
            assert GAME.parse_move(state, text.upper().replace("-", " ")) == move
            if isinstance(move, Chain):
                steps = ", ".join(f"{a}-{b}" for a, b in pairwise(text.split("-")))
                assert GAME.parse_move(state, steps + ", end") == move
            checked += 1
    assert checked > 4000


def literal_moves(state: RazzleState) -> set[str]:
    """The rules read literally, by brute force over every square pair."""
    board, seat = state.board, state.turn
    mine, ball = ("x", "X") if seat == 1 else ("o", "O")
    files = "abcdefg"

    def name(i: int) -> str:
        return f"{files[i % 7]}{i // 7 + 1}"

    def clear_line(a: int, b: int) -> bool:
        df, dr = b % 7 - a % 7, b // 7 - a // 7
        if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
            return False
        steps = max(abs(df), abs(dr))
        unit = ((df > 0) - (df < 0)) + 7 * ((dr > 0) - (dr < 0))
        return all(board[a + k * unit] == "." for k in range(1, steps))

    found = set()
    for a, cell in enumerate(board):
        for b in range(len(board)):
            jump = {abs(a % 7 - b % 7), abs(a // 7 - b // 7)} == {1, 2}
            if cell == mine and jump and board[b] == ".":
                found.add(f"{name(a)}-{name(b)}")
    passes = set()
    goal = 7 if seat == 1 else 0

    def extend(path: list[int], touched: set[int]) -> None:
        for b, cell in enumerate(board):
            if cell == mine and b not in touched and clear_line(path[-1], b):
                passes.add("-".join(map(name, [*path, b])))
                if b // 7 != goal:
                    extend([*path, b], touched | {b})

    holder = board.index(ball)
    extend([holder], set(state.ineligible) | {holder})
    if state.forced and passes:
        return passes
    return (found | passes) or {"pass"}


def test_legal_moves_match_a_literal_reading_of_the_rules() -> None:
    forced_seen = 0
    for state in random_positions(400, seed=4):
        assert set(names(state)) == literal_moves(state)
        forced_seen += state.forced
    assert forced_seen > 5


def test_frozen_legal_move_counts() -> None:
    line = islice(random_states(GAME, random.Random(2024), GAME.new()), 16)
    assert [len(GAME.legal_moves(state)) for state in line] == FROZEN_COUNTS
    assert len(GAME.legal_moves(GAME.parse_diagram(BLOCKED + "ineligible: b3"))) == 20


FROZEN_COUNTS = [18, 18, 27, 28, 48, 20, 18, 15, 24, 18, 18, 21, 19, 32, 21, 15]


def test_random_playouts_end_cleanly() -> None:
    rng = random.Random(11)
    endings = set()
    for _ in range(30):
        for before, _, state in random_turns(GAME, rng, GAME.new()):
            moves = GAME.legal_moves(before)
            assert moves and len(set(moves)) == len(moves)
            assert state.board.count("x") == state.board.count("o") == 4
            assert state.board.count("X") == state.board.count("O") == 1
            assert all(state.board[s] != "." for s in state.ineligible)
            assert state.ply <= 200
        outcome = GAME.outcome(state)
        assert outcome is not None and GAME.legal_moves(state) == ()
        endings.add(outcome.reason)
    assert endings <= {"goal", "repetition", "move-limit"} and "goal" in endings


def test_dump_and_load_round_trip_through_json() -> None:
    for state in random_positions(80, seed=5):
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


@pytest.mark.parametrize(
    "corrupt",
    [
        {"format": 99, "game": "razzle", "state": {}},
        {"format": 1, "game": "quorum", "state": {}},
        {"format": 1, "game": "razzle", "state": {"board": "x"}},
        {"format": 1, "game": "razzle"},
        "not a dict",
    ],
)
def test_load_rejects_corrupt_data(corrupt: object) -> None:
    with pytest.raises(InvalidState):
        GAME.load(corrupt)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("board", "." * 56),
        ("board", "z" * 56),
        ("ineligible", [0]),
        ("ineligible", [99]),
        ("forced", "yes"),
        ("turn", 3),
    ],
)
def test_load_checks_every_field(field: str, value: object) -> None:
    data = GAME.dump(play(GAME.new(), "d1-e1"))
    data["state"][field] = value
    with refused(InvalidState, "rules.state.corrupt", game="razzle"):
        GAME.load(data)


def test_record_export_and_import_replays_to_the_same_state() -> None:
    rng = random.Random(9)
    played = list(random_turns(GAME, rng, GAME.new(), bound=80))
    turns = [GAME.format_move(before, move) for before, move, _ in played]
    state = played[-1][2]
    record = Record("razzle", "standard", 2, 0, tuple(turns), GAME.outcome(state))
    again = Record.from_text(record.to_text(say))
    assert again == record
    assert again.replay(GAME) == state


def test_move_tree_builds_a_pass_chain_square_by_square() -> None:
    start = GAME.new()
    tree = GAME.move_tree(start)
    assert set(tree.children) == {"b1", "c1", "d1", "e1", "f1"}
    holder = tree.walk(["d1"])
    assert holder is not None and holder.move is None
    assert set(holder.children) == {"c1", "e1"}
    one = tree.walk(["d1", "e1"])
    assert one is not None and one.move == Chain((sq("d1"), sq("e1")))
    assert set(one.children) == {"f1"}
    two = tree.walk(["d1", "e1", "f1"])
    assert two is not None and two.move == Chain((sq("d1"), sq("e1"), sq("f1")))
    assert not two.children
    knight = tree.walk(["b1", "c3"])
    assert knight is not None and knight.move == Knight(sq("b1"), sq("c3"))
    assert GAME.move_tokens(start, PASS) == ("pass",)


def test_registered_resign_and_help_topics() -> None:
    from rules import GAMES

    assert GAMES["razzle"].title == "Razzle Dazzle"
    state = GAME.resign(GAME.new(), 1)
    assert GAME.outcome(state) == Outcome((2,), "resignation")
    assert GAME.legal_moves(state) == ()
    topics = [
        "overview",
        "setup",
        "moving",
        "throwing",
        "ineligible",
        "forced-throw",
        "winning",
        "draws",
        "notation",
    ]
    assert list(GAME.help_topics) == topics


def test_the_notation_document_example_parses() -> None:
    text = (Path(__file__).parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
    section = text.split("## Razzle Dazzle", 1)[1]
    example = section.split("```", 2)[1]
    state = GAME.parse_diagram(example)
    assert state.forced and names(state) == ["d1-c1", "d1-c1-b1", "d1-e1", "d1-e1-f1"]
    assert GAME.format_diagram(state) == example.strip("\n")
