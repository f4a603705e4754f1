"""Boku rules: the board, five in a row, captures, the blocked cell, draws, notation, errors."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.texts import say
from rules import GAMES, get_game
from rules.boku import Boku, BokuState, Place, winning_line
from rules.boku.board import NAMES, NEIGHBOURS, POINTS
from rules.errors import IllegalMove, InvalidDiagram, InvalidMove, InvalidState, RulesError
from rules.outcomes import Outcome
from rules.phrases import alternatives, phrase
from rules.playout import random_playout, random_turns
from rules.records import Record
from rules.state import PASS
from tests.rules.refusals import refused

GAME = Boku()
AXES = ((1, 0), (0, 1), (1, 1))


def diagram(text: str) -> BokuState:
    return GAME.parse_diagram(text)


def play(state: BokuState, *moves: str) -> BokuState:
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def notations(state: BokuState) -> list[str]:
    return [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


def captures_at(state: BokuState, cell: str) -> list[str]:
    return [n for n in notations(state) if n.startswith(cell + "x")]


def random_state(rng: random.Random, plies: int) -> BokuState:
    """The position after `plies` random turns (or where the game ended)."""
    state: BokuState = random_playout(GAME, rng, GAME.new(), bound=plies)
    return state


# --- an independent, slow statement of the rules, cell by cell in (q, r) ------------------


def _on_board(q: int, r: int) -> bool:
    return 0 <= q <= 9 and 0 <= r <= 9 and abs(q - r) <= 5


def reference_moves(state: BokuState) -> list[str]:
    """The legal moves worked out straight from the rules, to check the fast generator."""
    owner = {POINTS[i]: int(c) for i, c in enumerate(state.board) if c != "."}
    me, them = state.turn, 3 - state.turn

    def name(point: tuple[int, int]) -> str:
        return "abcdefghij"[point[0]] + str(point[1] + 1)

    moves: list[str] = []
    for q, r in POINTS:
        if (q, r) in owner or NAMES.index(name((q, r))) == state.blocked:
            continue
        wins = False
        for dq, dr in AXES:
            run = 1
            for sign in (1, -1):
                k = 1
                while owner.get((q + sign * k * dq, r + sign * k * dr)) == me:
                    run += 1
                    k += 1
            wins = wins or run >= 5
        taken = []
        for dq, dr in (*AXES, *((-a, -b) for a, b in AXES)):
            line = [(q + k * dq, r + k * dr) for k in (1, 2, 3)]
            if [owner.get(p) for p in line] == [them, them, me]:
                taken += line[:2]
        if taken and not wins:
            moves += [f"{name((q, r))}x{name(p)}" for p in sorted(taken)]
        else:
            moves.append(name((q, r)))
    return moves or ["pass"]


# --- the board ----------------------------------------------------------------------------


def test_the_board_has_80_cells_named_a1_to_j10() -> None:
    assert len(POINTS) == len(NAMES) == 80
    columns = Counter(name[0] for name in NAMES)
    assert [columns[c] for c in "abcdefghij"] == [6, 7, 8, 9, 10, 10, 9, 8, 7, 6]
    assert {"a1", "a6", "b7", "e10", "f1", "g2", "j5", "j10"} <= set(NAMES)
    assert not {"a7", "f11", "g1", "j4", "k5", "a0"} & set(NAMES)


def test_neighbour_counts_6_corners_22_edges_52_inner() -> None:
    counts = Counter(len(n) for n in NEIGHBOURS)
    assert counts == {3: 6, 4: 22, 6: 52}
    corners = {NAMES[i] for i, n in enumerate(NEIGHBOURS) if len(n) == 3}
    assert corners == {"a1", "a6", "e10", "j10", "j5", "f1"}


def test_neighbours_follow_the_three_axes() -> None:
    e5 = NAMES.index("e5")
    assert sorted(NAMES[i] for i in NEIGHBOURS[e5]) == ["d4", "d5", "e4", "e6", "f5", "f6"]


def test_registered_and_described() -> None:
    assert get_game("boku") is GAMES["boku"]
    assert list(GAMES).index("boku") > list(GAMES).index("quorum")
    assert set(GAME.help_topics) == {
        "overview",
        "board",
        "placing",
        "winning",
        "capturing",
        "blocked",
        "draws",
    }
    assert say(GAME.seat_phrase(1)) == "Dark" and say(GAME.seat_phrase(2)) == "Light"


def test_new_game() -> None:
    state = GAME.new(seed=3)
    assert GAME.to_move(state) == 1 and GAME.players(state) == 2
    assert len(GAME.legal_moves(state)) == 80
    assert GAME.outcome(state) is None
    assert GAME.format_diagram(state) == "1:\n2:\nto move: 1"


# --- five in a row ------------------------------------------------------------------------

FIVES = {
    "column": ("1: E1 E2 E3 E4", "e5"),
    "row": ("1: B3 C3 D3 E3", "f3"),
    "diagonal": ("1: A1 B2 C3 D4", "e5"),
    "diagonal at the far edge": ("1: F6 G7 H8 I9", "j10"),
    "gap filled": ("1: E1 E2 E4 E5", "e3"),
    "six": ("1: E1 E2 E3 E5 E6", "e4"),
    "seven": ("1: E1 E2 E3 E5 E6 E7", "e4"),
}


@pytest.mark.parametrize("case", FIVES, ids=list(FIVES))
def test_five_or_more_in_a_line_wins(case: str) -> None:
    marbles, move = FIVES[case]
    state = play(diagram(f"{marbles}\n2: A6 B7 C8\nto move: 1"), move)
    assert GAME.outcome(state) == Outcome((1,), "five")
    assert GAME.legal_moves(state) == ()


def test_the_winning_line_is_reported_end_to_end() -> None:
    state = play(diagram("1: E1 E2 E4 E5 E6 F1\n2: A1\nto move: 1"), "e3")
    line = " ".join(NAMES[POINTS.index(p)] for p in winning_line(state))
    assert line == "e1 e2 e3 e4 e5 e6"
    assert winning_line(play(GAME.new(), "e5")) == ()
    assert winning_line(GAME.resign(play(GAME.new(), "e5"), 2)) == ()


@pytest.mark.parametrize(
    "marbles",
    [
        "1: E1 E2 E3\n2: E5",  # four, then an enemy marble
        "1: E1 E2 E3 E6",  # four, then a gap
        "1: E1 E2 E3 F5 G6",  # three on one axis, three on another
    ],
)
def test_four_or_a_broken_line_does_not_win(marbles: str) -> None:
    state = play(diagram(f"{marbles}\nto move: 1"), "e4")
    assert GAME.outcome(state) is None


def test_diagonal_through_e4_wins() -> None:
    state = play(diagram("1: D3 C2 B1 F5\nto move: 1"), "e4")
    assert GAME.outcome(state) == Outcome((1,), "five")


def test_lines_do_not_bend_or_use_the_other_diagonal() -> None:
    # c7 d6 f4 g3 run through e5 along a direction that is not an axis of this board
    state = play(diagram("1: C7 D6 F4 G3\nto move: 1"), "e5")
    assert GAME.outcome(state) is None


def test_light_wins_too() -> None:
    state = play(diagram("1: A1 A2\n2: F1 F2 F3 F4\nto move: 2"), "f5")
    assert GAME.outcome(state) == Outcome((2,), "five")


def test_a_win_that_also_encloses_a_pair_wins_without_capture() -> None:
    # e5 completes e1-e5 and would also enclose f6 g7 against h8
    state = diagram("1: E1 E2 E3 E4 H8\n2: F6 G7 A6\nto move: 1")
    assert captures_at(state, "e5") == []
    assert "e5" in notations(state)
    after = play(state, "e5")
    assert GAME.outcome(after) == Outcome((1,), "five")
    assert GAME.format_diagram(after) == "1: E1 E2 E3 E4 E5 H8\n2: A6 F6 G7\nto move: 2"
    assert after.last is not None and after.last.captured == ()


# --- captures -----------------------------------------------------------------------------

DIRECTIONS = {
    "up": ("E6 E7", "E8"),
    "down": ("E4 E3", "E2"),
    "right": ("F5 G5", "H5"),
    "left": ("D5 C5", "B5"),
    "up-right": ("F6 G7", "H8"),
    "down-left": ("D4 C3", "B2"),
}


@pytest.mark.parametrize("direction", DIRECTIONS, ids=list(DIRECTIONS))
def test_capture_in_each_direction(direction: str) -> None:
    pair, closer = DIRECTIONS[direction]
    first, second = pair.lower().split()
    state = diagram(f"1: {closer}\n2: {pair}\nto move: 1")
    assert captures_at(state, "e5") == sorted([f"e5x{first}", f"e5x{second}"])
    assert "e5" not in notations(state)
    after = play(state, f"e5x{second}")
    remaining = sorted([closer, "E5"])
    assert GAME.format_diagram(after) == (
        f"1: {' '.join(remaining)}\n2: {first.upper()}\nblocked: {second.upper()}\nto move: 2"
    )
    assert after.last is not None
    assert after.last.notation == f"e5x{second}"
    assert after.last.path == (POINTS[NAMES.index("e5")],)
    assert after.last.captured == (POINTS[NAMES.index(second)],)


def test_the_placed_marble_can_close_the_line_from_either_end() -> None:
    # the same pair, enclosed from below: e5 placed with e8 already there, and e8 placed with e5
    assert captures_at(diagram("1: E5\n2: E6 E7\nto move: 1"), "e8") == ["e8xe6", "e8xe7"]


def test_two_pairs_at_once_offer_four_marbles_but_take_one() -> None:
    state = diagram("1: E8 H5\n2: E6 E7 F5 G5\nto move: 1")
    assert captures_at(state, "e5") == ["e5xe6", "e5xe7", "e5xf5", "e5xg5"]
    after = play(state, "e5xg5")
    assert GAME.format_diagram(after) == "1: E5 E8 H5\n2: E6 E7 F5\nblocked: G5\nto move: 2"


def test_three_pairs_at_once_offer_six_marbles() -> None:
    state = diagram("1: E8 H5 H8\n2: E6 E7 F5 G5 F6 G7\nto move: 1")
    assert len(captures_at(state, "e5")) == 6


@pytest.mark.parametrize(
    "marbles",
    [
        "1: E7\n2: E6",  # one enclosed
        "1: E9\n2: E6 E7 E8",  # three enclosed
        "1: E8\n2: E6 F7",  # the pair is not in one line
        "2: E6 E7",  # no closing marble
        "2: E6 E7 E8",  # the far end is the opponent's
    ],
)
def test_no_capture_unless_exactly_two_are_enclosed(marbles: str) -> None:
    state = diagram(f"{marbles}\nto move: 1")
    assert captures_at(state, "e5") == []
    assert "e5" in notations(state)


def test_placing_between_enemy_marbles_is_safe() -> None:
    # Dark steps into d5 _ f5 g5: the line reads Light, Dark, Dark, Light, but only the
    # player who places a marble captures, and Light has nowhere left to close it.
    state = diagram("1: F5 A1\n2: D5 G5 J10\nto move: 1")
    after = play(state, "e5")
    assert GAME.format_diagram(after) == "1: A1 E5 F5\n2: D5 G5 J10\nto move: 2"
    assert not any("x" in n for n in notations(after))
    # and a single Dark marble placed between two Light ones is safe as well
    single = play(diagram("2: D5 F5\nto move: 1"), "e5")
    assert "E5" in GAME.format_diagram(single)
    assert not any("x" in n for n in notations(single))


# --- the blocked cell ---------------------------------------------------------------------


def test_the_emptied_cell_is_blocked_for_the_next_placement_only() -> None:
    state = play(diagram("1: E8\n2: E6 E7 A1\nto move: 1"), "e5xe6")
    assert state.blocked == NAMES.index("e6")
    assert "e6" not in notations(state)
    assert len(notations(state)) == 80 - 4 - 1
    with refused(IllegalMove, "rules.boku.blocked", cell="e6"):
        GAME.parse_move(state, "e6")
    state = play(state, "a2")  # Light places elsewhere; the block is lifted
    assert state.blocked is None
    assert "e6" in notations(state)
    state = play(state, "j10")  # Dark does not need e6 ...
    assert "e6" in notations(state)  # ... and Light may now fill it
    state = play(state, "e6")
    assert "E6" in GAME.format_diagram(state).splitlines()[1]


def test_the_capturer_may_fill_the_emptied_cell_on_their_next_turn() -> None:
    state = play(diagram("1: E8\n2: E6 E7 A1\nto move: 1"), "e5xe7", "a2")
    assert "e7" in notations(state)


def test_pass_when_the_only_empty_cell_is_blocked() -> None:
    state = diagram(full_board_but("e5", to_move=1, blocked=True))
    assert GAME.legal_moves(state) == (PASS,)
    assert GAME.parse_move(state, "PASS") is PASS
    with refused(IllegalMove, "rules.boku.must_pass"):
        GAME.parse_move(state, "e5")
    state = play(state, "pass")
    assert GAME.outcome(state) is None
    assert state.last is not None and state.last.notation == "pass"
    assert state.blocked is None and GAME.to_move(state) == 2
    assert notations(state) == ["e5"]
    state = play(state, "e5")
    assert GAME.outcome(state) == Outcome((), "board-full")


def full_board_but(empty: str, *, to_move: int, blocked: bool = False) -> str:
    """Every cell filled in stripes no line of five runs through, except `empty`."""
    seats: dict[int, list[str]] = {1: [], 2: []}
    for (q, r), name in zip(POINTS, NAMES, strict=True):
        if name != empty:
            seats[1 if (q + 2 * r) // 2 % 2 == 0 else 2].append(name.upper())
    lines = [f"1: {' '.join(seats[1])}", f"2: {' '.join(seats[2])}", f"to move: {to_move}"]
    if blocked:
        lines.append(f"blocked: {empty}")
    return "\n".join(lines)


# --- draws --------------------------------------------------------------------------------


def test_full_board_is_a_draw() -> None:
    state = diagram(full_board_but("e5", to_move=2))
    assert notations(state) == ["e5"]
    state = play(state, "e5")
    assert GAME.outcome(state) == Outcome((), "board-full")
    assert GAME.legal_moves(state) == ()


REPEATING = "1: D4 G5 G8 I8\n2: F6 G6 G9 H5 H7\nblocked: G7\nto move: 1"
CYCLE = ("f5xg6", "e5xf5", "g7xe5", "g6xg7")


def test_threefold_repetition_is_a_draw() -> None:
    start = diagram(REPEATING)
    once = play(start, *CYCLE)
    assert GAME.format_diagram(once) == GAME.format_diagram(start)
    assert GAME.outcome(once) is None
    assert len(once.history) == 5  # four captures since the last plain placement, plus start
    twice = play(once, *CYCLE[:3])
    assert GAME.outcome(twice) is None
    drawn = play(twice, CYCLE[3])
    assert GAME.outcome(drawn) == Outcome((), "repetition")
    assert GAME.legal_moves(drawn) == ()


def test_a_plain_placement_clears_the_repetition_history() -> None:
    state = play(diagram(REPEATING), *CYCLE, "a1")
    assert len(state.history) == 1
    assert state.history[0].startswith(state.board)


def test_repetition_counts_the_side_to_move_and_the_blocked_cell() -> None:
    start = diagram(REPEATING)
    same_board = diagram(REPEATING.replace("blocked: G7", "blocked: A1"))
    assert start.history[0] != same_board.history[0]
    other_side = diagram(REPEATING.replace("to move: 1", "to move: 2"))
    assert start.history[0] != other_side.history[0]


# --- errors -------------------------------------------------------------------------------

# e5 would win (and enclose e6 e7); d3 captures b3 or c3; d7 is a plain placement.
ERROR_POSITION = "1: A3 E1 E2 E3 E4 E8 J10\n2: A1 B3 C3 E6 E7\nto move: 1"
LIGHT = phrase("rules.seat.light")
D3_CHOICES = alternatives(["d3xb3", "d3xc3"])
ERRORS: dict[str, tuple[type[RulesError], str, dict[str, Any]]] = {
    "zz": (InvalidMove, "rules.boku.unreadable", {"text": "zz"}),
    "e5xx": (InvalidMove, "rules.boku.unreadable", {"text": "e5xx"}),
    "k5": (InvalidMove, "rules.boku.no_column", {"cell": "k5"}),
    "a7": (InvalidMove, "rules.boku.off_column", {"cell": "a7", "low": "a1", "high": "a6"}),
    "g1": (InvalidMove, "rules.boku.off_column", {"cell": "g1", "low": "g2", "high": "g10"}),
    "c6xc11": (InvalidMove, "rules.boku.off_column", {"cell": "c11", "low": "c1", "high": "c8"}),
    "e8": (IllegalMove, "rules.boku.yours", {"cell": "e8"}),
    "a1": (IllegalMove, "rules.boku.theirs", {"cell": "a1", "opponent": LIGHT}),
    "d7xe7": (IllegalMove, "rules.boku.nothing_to_remove", {"cell": "d7", "opponent": LIGHT}),
    "e5xe6": (IllegalMove, "rules.boku.wins_first", {"cell": "e5"}),
    "d3": (IllegalMove, "rules.boku.must_remove", {"cell": "d3", "choices": D3_CHOICES}),
    "d3xa1": (
        IllegalMove,
        "rules.boku.not_enclosed",
        {"removed": "a1", "cell": "d3", "choices": D3_CHOICES},
    ),
    "pass": (IllegalMove, "rules.boku.no_pass", {}),
    "": (InvalidMove, "rules.game.type_move", {"example": "a2"}),
}


@pytest.mark.parametrize("text", ERRORS, ids=[t or "empty" for t in ERRORS])
def test_error_messages(text: str) -> None:
    kind, key, values = ERRORS[text]
    with refused(kind, key, **values):
        GAME.parse_move(diagram(ERROR_POSITION), text)


def test_the_error_position_is_what_it_claims() -> None:
    assert "e5" in notations(diagram(ERROR_POSITION))
    assert "d7" in notations(diagram(ERROR_POSITION))


def test_capture_error_lists_every_choice() -> None:
    state = diagram("1: E8 H5\n2: E6 E7 F5 G5\nto move: 1")
    choices = alternatives(["e5xe6", "e5xe7", "e5xf5", "e5xg5"])
    with refused(IllegalMove, "rules.boku.must_remove", choices=choices):
        GAME.parse_move(state, "E5")


def test_blocked_error() -> None:
    state = play(diagram("1: E8\n2: E6 E7 A1\nto move: 1"), "e5xe6")
    with refused(IllegalMove, "rules.boku.blocked", cell="e6"):
        GAME.parse_move(state, "e6")


def test_errors_after_the_game_is_over() -> None:
    state = play(diagram("1: E1 E2 E3 E4\nto move: 1"), "e5")
    with refused(IllegalMove, "rules.game.over"):
        GAME.parse_move(state, "a1")
    with refused(IllegalMove, "rules.game.over"):
        GAME.apply(state, Place(0))


def test_apply_refuses_illegal_and_foreign_moves() -> None:
    state = diagram("1: E8\n2: E6 E7\nto move: 1")
    with refused(IllegalMove, "rules.game.not_legal", move="e5"):
        GAME.apply(state, Place(NAMES.index("e5")))  # a capture must name its removal
    with refused(IllegalMove, "rules.game.not_legal", move="e8"):
        GAME.apply(state, Place(NAMES.index("e8")))
    with refused(IllegalMove, "rules.game.not_legal", move="pass"):
        GAME.apply(state, PASS)
    with pytest.raises(IllegalMove):
        GAME.apply(state, "e1")  # type: ignore[arg-type]


def test_apply_accepts_equal_moves_that_are_not_the_shared_objects() -> None:
    state = diagram("1: E8\n2: E6 E7\nto move: 1")
    after = GAME.apply(state, Place(NAMES.index("e5"), NAMES.index("e6")))
    assert after.last is not None and after.last.notation == "e5xe6"


# --- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["e5xe6", "E5xE6", "e5 x e6", "E5 X E6", "e5-xe6", "e5e6", "e5:e6", "e05xe06"]
)
def test_input_is_forgiving(text: str) -> None:
    state = diagram("1: E8\n2: E6 E7\nto move: 1")
    assert GAME.parse_move(state, text) == Place(NAMES.index("e5"), NAMES.index("e6"))


def test_leading_zero_and_capitals() -> None:
    state = GAME.new()
    assert GAME.parse_move(state, " E05 ") == Place(NAMES.index("e5"))
    assert GAME.parse_move(state, "J10") == Place(NAMES.index("j10"))


def test_notation_round_trip_over_300_random_positions() -> None:
    rng = random.Random(2024)
    seen_captures = 0
    for _ in range(300):
        state = random_state(rng, rng.randrange(0, 70))
        for move in GAME.legal_moves(state):
            text = GAME.format_move(state, move)
            assert GAME.parse_move(state, text) == move
            assert GAME.parse_move(state, text.upper().replace("X", " x ")) == move
            seen_captures += "x" in text
    assert seen_captures > 100


def test_move_tokens_ask_for_the_removal_after_the_cell() -> None:
    state = diagram("1: E8 H5\n2: E6 E7 F5 G5\nto move: 1")
    tree = GAME.move_tree(state)
    e5 = tree.walk(["e5"])
    assert e5 is not None and e5.move is None
    assert sorted(e5.children) == ["xe6", "xe7", "xf5", "xg5"]
    node = tree.walk(["e5", "xf5"])
    assert node is not None and node.move == Place(NAMES.index("e5"), NAMES.index("f5"))
    a1 = tree.walk(["a1"])
    assert a1 is not None and a1.move == Place(0) and not a1.children
    for move in GAME.legal_moves(state):
        tokens = GAME.move_tokens(state, move)
        assert "".join(tokens) == GAME.format_move(state, move)
    passing = diagram(full_board_but("e5", to_move=1, blocked=True))
    assert GAME.move_tokens(passing, PASS) == ("pass",)


# --- legal moves against the reference, frozen counts, playouts ---------------------------


def test_legal_moves_match_a_direct_reading_of_the_rules() -> None:
    rng = random.Random(77)
    for _ in range(150):
        state = random_state(rng, rng.randrange(0, 80))
        if GAME.outcome(state) is None:
            assert notations(state) == reference_moves(state)


# Random positions (seed, plies) -> legal moves, capturing moves among them, a blocked cell.
FROZEN = [
    (1, 10, 70, 0, False),
    (2, 25, 55, 0, False),
    (3, 40, 43, 4, False),
    (4, 50, 34, 4, False),
    (5, 60, 32, 8, False),
    (6, 70, 20, 4, False),
    (11, 45, 40, 8, True),
    (26, 65, 22, 0, True),
    (50, 65, 26, 12, True),
]


@pytest.mark.parametrize(("seed", "plies", "count", "captures", "blocked"), FROZEN)
def test_frozen_legal_move_counts(
    seed: int, plies: int, count: int, captures: int, blocked: bool
) -> None:
    state = random_state(random.Random(seed), plies)
    assert GAME.outcome(state) is None and state.ply == plies
    moves = GAME.legal_moves(state)
    taking = sum(isinstance(m, Place) and m.removed is not None for m in moves)
    assert (len(moves), taking, state.blocked is not None) == (count, captures, blocked)


def test_frozen_counts_of_fixed_diagrams() -> None:
    assert len(GAME.legal_moves(diagram("1: E8 H5\n2: E6 E7 F5 G5\nto move: 1"))) == 74 - 1 + 4
    assert len(GAME.legal_moves(diagram(REPEATING))) == 71 - 1 + 1


def test_random_playouts_end_cleanly() -> None:
    rng = random.Random(11)
    reasons: Counter[str] = Counter()
    for _ in range(60):
        for before, _, state in random_turns(GAME, rng, GAME.new()):
            moves = GAME.legal_moves(before)
            assert moves and len(set(moves)) == len(moves)
            empty = before.board.count(".")
            assert state.board.count(".") in (empty - 1, empty)  # a capture gives one back
            assert state.blocked is None or state.board[state.blocked] == "."
            assert GAME.to_move(state) == 3 - GAME.to_move(before)
        outcome = GAME.outcome(state)
        assert outcome is not None
        reasons[outcome.reason] += 1
        assert GAME.legal_moves(state) == ()
    assert set(reasons) <= {"five", "board-full", "repetition"}
    assert reasons["five"] > 0


# --- diagrams, persistence, records -------------------------------------------------------


def test_diagram_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(40):
        state = random_state(rng, rng.randrange(0, 70))
        again = diagram(GAME.format_diagram(state))
        assert (again.board, again.blocked, again.turn) == (state.board, state.blocked, state.turn)


def test_empty_board_diagram_round_trip() -> None:
    text = GAME.format_diagram(GAME.new())
    assert text == "1:\n2:\nto move: 1"
    assert diagram(text) == GAME.new()


def test_diagram_accepts_names_commas_and_lower_case() -> None:
    state = diagram("dark: e5, f6\nlight: a1\nblocked: -\nto move: light")
    assert GAME.format_diagram(state) == "1: E5 F6\n2: A1\nto move: 2"


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("1: E5\n. . .", "rules.boku.diagram.rows", {}),
        ("1: E5\ncolour: red", "rules.boku.diagram.key", {"name": "colour"}),
        ("1: E5\n2: E5", "rules.boku.diagram.twice", {"cell": "E5"}),
        ("1: E5\nblocked: E5", "rules.boku.diagram.blocked", {"cell": "E5"}),
        ("1: A7", "rules.boku.off_column", {"cell": "a7"}),
        ("1: E", "rules.boku.not_cell", {"text": "E"}),
        ("1: E5\nto move: 3", "rules.diagram.seat", {"value": "3"}),
    ],
)
def test_diagram_errors(text: str, key: str, values: dict[str, Any]) -> None:
    with refused(InvalidDiagram, key, **values):
        diagram(text)


def test_dump_and_load_round_trip_through_json() -> None:
    rng = random.Random(9)
    for _ in range(30):
        state = random_state(rng, rng.randrange(0, 90))
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert loaded == state
        assert loaded.lines == state.lines and loaded.moves == state.moves
    start = play(diagram(REPEATING), *CYCLE)
    assert GAME.load(json.loads(json.dumps(GAME.dump(start)))).history == start.history


@pytest.mark.parametrize(
    "change",
    [
        {"board": "x" * 80},
        {"board": "." * 79},
        {"blocked": "z9"},
        {"turn": 3},
        {"history": None},
        {"players": 3},
    ],
)
def test_load_rejects_corrupt_states(change: dict[str, object]) -> None:
    data = GAME.dump(play(GAME.new(), "e5"))
    data["state"].update(change)
    with pytest.raises(InvalidState):
        GAME.load(data)


def test_load_rejects_a_blocked_cell_that_holds_a_marble() -> None:
    data = GAME.dump(play(GAME.new(), "e5"))
    data["state"]["blocked"] = "e5"
    with pytest.raises(InvalidState) as caught:
        GAME.load(data)
    assert caught.value.key == "rules.state.corrupt"
    assert "blocked cell must be empty" in caught.value.values["error"]


def test_record_round_trip() -> None:
    rng = random.Random(21)
    played = list(random_turns(GAME, rng, GAME.new(seed=4)))
    turns = [GAME.format_move(before, move) for before, move, _ in played]
    state = played[-1][2]
    record = Record("boku", "standard", 2, 4, tuple(turns), GAME.outcome(state))
    replayed = Record.from_text(record.to_text(say)).replay(GAME)
    assert replayed == state


def test_resign_and_agreement() -> None:
    state = play(GAME.new(), "e5")
    assert GAME.outcome(GAME.resign(state, 1)) == Outcome((2,), "resignation")
    ended = GAME.end(state, Outcome((), "agreement"))
    assert GAME.legal_moves(ended) == ()
