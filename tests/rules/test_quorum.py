import json
import random
from itertools import islice
from typing import Any

import pytest

from bot.texts import say
from fixtures.positions import diagram
from rules import (
    PASS,
    Game,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidState,
    Outcome,
    RulesError,
    get_game,
)
from rules.phrases import phrase
from rules.playout import random_states, random_turns
from rules.quorum import Jump, QuorumMove, QuorumState
from rules.records import Record
from tests.rules.refusals import refused

GAME: Game[QuorumState, QuorumMove] = get_game("quorum")

START = """
   a b c d e f g h
8  · · · · ● ● ● ●
7  · · · · · ● ● ●
6  · · · · · · ● ●
5  · · · + + · · ●
4  ○ · · + + · · ·
3  ○ ○ · · · · · ·
2  ○ ○ ○ · · · · ·
1  ○ ○ ○ ○ · · · ·
"""

AFTER_A1E3 = """
   a b c d e f g h
8  · · · · ● ● ● ●
7  · · · · · ● ● ●
6  · · · · · · ● ●
5  · · · + + · · ●
4  ○ · · + + · · ·
3  ○ ○ · · ○ · · ·
2  ○ ○ ○ · · · · ·
1  · ○ ○ ○ · · · ·
"""


def play(diagram: str, move: str) -> QuorumState:
    state = GAME.parse_diagram(diagram)
    return GAME.apply(state, GAME.parse_move(state, move))


def board_of(diagram: str) -> str:
    return GAME.parse_diagram(diagram).board


def random_positions(count: int, seed: int = 1) -> list[QuorumState]:
    """Every position of random games (to ply 121) until there are `count`."""
    rng = random.Random(seed)
    positions: list[QuorumState] = []
    while len(positions) < count:
        positions.extend(random_states(GAME, rng, GAME.new(), bound=121))
    return positions[:count]


def test_the_seed_diagram_is_the_starting_position() -> None:
    assert GAME.parse_diagram(START).board == GAME.new().board
    assert GAME.format_diagram(GAME.new()).splitlines()[1:9] == START.strip().splitlines()[1:]


def test_seed_example_a1e3_from_the_start() -> None:
    after = GAME.apply(GAME.new(), GAME.parse_move(GAME.new(), "a1e3"))
    assert after.board == board_of(AFTER_A1E3)
    assert after.turn == 2
    assert after.last is not None and after.last.path == ((0, 0), (4, 2))


SUFFOCATION = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · ○ ● ● ● ·
4  · · · ● {e4} ● ● ·
3  · · · ○ ○ · ○ ○
2  · · · · ○ ○ ○ ·
1  · · · · · · · ·
"""


def test_seed_suffocation_spares_friendly_e4_and_the_mover() -> None:
    after = play(SUFFOCATION.format(e4="○"), "h3f3")
    expected = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · ○ ● ● ● ·
4  · · · ● ○ · ● ·
3  · · · ○ ○ ○ ○ ·
2  · · · · ○ ○ ○ ·
1  · · · · · · · ·
"""
    assert after.board == board_of(expected)
    assert after.last is not None and after.last.captured == ((5, 3),)


def test_seed_suffocation_when_e4_is_black_removes_both_at_once() -> None:
    after = play(SUFFOCATION.format(e4="●"), "h3f3")
    expected = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · ○ ● ● ● ·
4  · · · ● · · ● ·
3  · · · ○ ○ ○ ○ ·
2  · · · · ○ ○ ○ ·
1  · · · · · · · ·
"""
    assert after.board == board_of(expected)
    assert after.last is not None
    assert sorted(after.last.captured) == [(4, 3), (5, 3)]


CONVERSION = """
8  · ○ · · · · · ·
7  · · · ○ · · · ·
6  · · · · ● · · ·
5  · · · + ● ● · ·
4  · · · ○ ○ ● · ·
3  · · · · · ○ · ·
2  · · · · · · · ·
1  · · · · · · · ·
"""


def test_seed_conversion_flips_e5_but_not_e6_f4_f5() -> None:
    after = play(CONVERSION, "b8f6")
    expected = """
8  · · · · · · · ·
7  · · · ○ · · · ·
6  · · · · ● ○ · ·
5  · · · + ○ ● · ·
4  · · · ○ ○ ● · ·
3  · · · · · ○ · ·
2  · · · · · · · ·
1  · · · · · · · ·
"""
    assert after.board == board_of(expected)
    assert after.last is not None
    assert after.last.changed == ((4, 4),)
    assert after.last.captured == ()


def test_suffocation_comes_before_conversion() -> None:
    # Landing on c3 smothers b2 (no empty square around it); conversion then finds b2 empty,
    # so the White stone on a1 behind it converts nothing.
    diagram = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · · · · · ·
4  · · · · · · · ·
3  ○ ○ · ○ ○ · · ·
2  ○ ● ○ · · · · ·
1  ○ ○ ○ · · · · ·
"""
    after = play(diagram, "e3c3")
    assert after.last is not None
    assert after.last.captured == ((1, 1),)
    assert after.last.changed == ()
    assert after.board[1 * 8 + 1] == "."


def test_placement_fills_every_empty_home_square_and_nothing_else() -> None:
    diagram = """
8  · · · · ● ● ● ●
7  · · · · · ● ● ●
6  · · · · · · · ·
5  · · · · · · · ·
4  · · · · · · · ·
3  ● · · · · · · ·
2  · ● · · · · · ·
1  · ○ · · · · · ·
to move: white
"""
    state = GAME.parse_diagram(diagram)
    assert GAME.parse_move(state, "++") == GAME.parse_move(state, "PLACE")
    after = GAME.apply(state, GAME.parse_move(state, "place"))
    # a1 and a2 are filled; b2 stays Black: placement never suffocates or converts.
    assert [after.board[i] for i in (0, 1, 8, 9)] == ["w", "w", "w", "b"]
    assert after.board[16] == "b"
    assert after.last is not None
    assert sorted(after.last.changed) == [(0, 0), (0, 1)]


def test_placement_is_refused_when_the_home_is_full() -> None:
    with refused(IllegalMove, "rules.quorum.homes_full", homes="a1 b1 a2 b2"):
        GAME.parse_move(GAME.new(), "place")


def test_holding_the_four_objectives_wins() -> None:
    diagram = """
8  · · · · · · · ●
7  · · · · · · · ·
6  · · · · · · · ·
5  · · ○ ○ · · · ·
4  · · · ○ ○ · · ·
3  · · · · · · · ·
2  · · · · · · · ·
1  · · · · · · · ·
"""
    after = play(diagram, "c5e5")
    assert GAME.outcome(after) == Outcome((1,), "quorum")
    assert GAME.legal_moves(after) == ()
    with refused(IllegalMove, "rules.game.over"):
        GAME.parse_move(after, "d4f4")


PASS_POSITION = diagram("quorum", "a player who must pass")


def test_a_player_with_no_play_must_pass() -> None:
    state = GAME.parse_diagram(PASS_POSITION)
    assert GAME.legal_moves(state) == (PASS,)
    after = GAME.apply(state, GAME.parse_move(state, "pass"))
    assert after.board == state.board and after.turn == 2 and GAME.outcome(after) is None
    with refused(IllegalMove, "rules.quorum.no_pass"):
        GAME.parse_move(GAME.new(), "pass")


def test_nobody_able_to_play_is_a_draw() -> None:
    full = "\n".join(" ".join("○" if (f + r) % 2 else "●" for f in range(8)) for r in range(8))
    rows = [list(line.split()) for line in full.splitlines()]
    for file, rank in ((0, 0), (1, 0), (0, 1), (1, 1)):
        rows[7 - rank][file] = "○"
    for file, rank in ((6, 6), (7, 6), (6, 7), (7, 7)):
        rows[7 - rank][file] = "●"
    state = GAME.parse_diagram("\n".join(" ".join(r) for r in rows))
    after = GAME.apply(state, PASS)
    assert GAME.outcome(after) == Outcome((), "no-moves")


def test_the_third_occurrence_of_a_position_draws() -> None:
    state = GAME.new()
    cycle = ["a1e3", "h8f6", "e3a1", "f6h8"]
    for move in cycle * 2:
        assert GAME.outcome(state) is None
        state = GAME.apply(state, GAME.parse_move(state, move))
    assert GAME.outcome(state) == Outcome((), "repetition")


BLACK, WHITE = phrase("rules.seat.black"), phrase("rules.seat.white")


@pytest.mark.parametrize(
    ("text", "error", "key", "values"),
    [
        ("e4e6", IllegalMove, "rules.quorum.no_stone", {"square": "e4"}),
        ("h8f6", IllegalMove, "rules.quorum.not_yours", {"opponent": BLACK, "you": WHITE}),
        ("a1a7", IllegalMove, "rules.quorum.too_far", {"center": "a4", "active": "a1"}),
        ("a1a3", IllegalMove, "rules.quorum.occupied", {"target": "a3"}),
        ("d1d5", IllegalMove, "rules.quorum.empty_center", {"center": "d3"}),
        ("a1b4", IllegalMove, "rules.quorum.no_center", {"active": "a1", "target": "b4"}),
        ("a1a1", IllegalMove, "rules.quorum.same_square", {}),
        ("d1i1", InvalidMove, "rules.square.off_board", {"square": "i1", "last": "h8"}),
        ("a1", InvalidMove, "rules.quorum.unreadable", {"text": "a1"}),
        ("jump!", InvalidMove, "rules.quorum.unreadable", {"text": "jump!"}),
        ("a1e3e5", InvalidMove, "rules.quorum.unreadable", {"text": "a1e3e5"}),
        ("   ", InvalidMove, "rules.game.type_move", {"example": "a1a5"}),
    ],
)
def test_bad_input_is_explained(
    text: str, error: type[RulesError], key: str, values: dict[str, Any]
) -> None:
    with refused(error, key, **values):
        GAME.parse_move(GAME.new(), text)


@pytest.mark.parametrize("text", ["a1e3", "A1E3", "a1-e3", " a1 e3 ", "A1 - E3"])
def test_input_is_forgiving(text: str) -> None:
    assert GAME.parse_move(GAME.new(), text) == Jump(0, 20)


def test_apply_rejects_an_illegal_move_object() -> None:
    with refused(IllegalMove, "rules.game.not_legal", move="a1a3"):
        GAME.apply(GAME.new(), Jump(0, 16))


@pytest.mark.parametrize(
    ("bad", "key", "values"),
    [
        ("· · ·\n" * 8, "rules.diagram.row", {"width": 8}),
        (START.replace("○ ○ ○ ○", "○ ○ ○ X"), "rules.quorum.diagram.cell", {"square": "d1"}),
        ("\n".join(START.strip().splitlines()[:5]), "rules.diagram.rows", {"height": 8}),
        (START + "to move: green", "rules.diagram.seat", {"value": "green"}),
        (START + "colour: white", "rules.quorum.diagram.key", {"name": "colour"}),
    ],
)
def test_malformed_diagrams_are_explained(bad: str, key: str, values: dict[str, Any]) -> None:
    with refused(InvalidDiagram, key, **values):
        GAME.parse_diagram(bad)


def test_diagram_round_trip_and_to_move() -> None:
    for state in random_positions(50, seed=3):
        again = GAME.parse_diagram(GAME.format_diagram(state))
        assert (again.board, again.turn) == (state.board, state.turn)
    assert GAME.parse_diagram(START + "to move: black").turn == 2


def test_notation_round_trips_over_every_legal_move() -> None:
    checked = 0
    for state in random_positions(200, seed=7):
        for move in GAME.legal_moves(state):
            text = GAME.format_move(state, move)
            assert GAME.parse_move(state, text) == move
            assert GAME.parse_move(state, text.upper()) == move
            checked += 1
    assert checked > 2000


def naive_jumps(state: QuorumState) -> set[str]:
    """The movement rule read literally: every pair of own stones, every target."""
    mine = "w" if state.turn == 1 else "b"
    stones = [(i % 8, i // 8) for i, c in enumerate(state.board) if c == mine]
    found = set()
    for af, ar in stones:
        for cf, cr in stones:
            tf, tr = 2 * cf - af, 2 * cr - ar
            near = (cf, cr) != (af, ar) and abs(cf - af) <= 2 and abs(cr - ar) <= 2
            if near and 0 <= tf < 8 and 0 <= tr < 8 and state.board[tr * 8 + tf] == ".":
                found.add(f"{'abcdefgh'[af]}{ar + 1}{'abcdefgh'[tf]}{tr + 1}")
    return found


def test_legal_moves_match_a_literal_reading_of_the_rule() -> None:
    for state in random_positions(150, seed=4):
        if GAME.outcome(state) is not None:
            continue
        listed = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
        assert listed == sorted(listed), "legal moves come sorted"
        assert set(listed) - {"place", "pass"} == naive_jumps(state)


def test_frozen_legal_move_counts() -> None:
    line = islice(random_states(GAME, random.Random(2024), GAME.new()), 12)
    assert [len(GAME.legal_moves(state)) for state in line] == FROZEN_COUNTS


FROZEN_COUNTS = [19, 19, 23, 21, 22, 20, 21, 21, 21, 27, 25, 26]


def test_random_playouts_end_or_reach_the_bound() -> None:
    rng = random.Random(11)
    endings = set()
    for _ in range(40):
        for before, _, state in random_turns(GAME, rng, GAME.new()):
            assert GAME.legal_moves(before), "a running game always offers a move"
            assert state.board.count("w") + state.board.count("b") <= 64
        outcome = GAME.outcome(state)
        if outcome is not None:
            endings.add(outcome.reason)
            assert GAME.legal_moves(state) == ()
    assert endings <= {"quorum", "repetition", "no-moves"}


def test_dump_and_load_round_trip_through_json() -> None:
    for state in random_positions(60, seed=5):
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


@pytest.mark.parametrize(
    "corrupt",
    [
        {"format": 99, "game": "quorum", "state": {}},
        {"format": 1, "game": "boku", "state": {}},
        {"format": 1, "game": "quorum", "state": {"board": "x"}},
        {"format": 1, "game": "quorum"},
        "not a dict",
    ],
)
def test_load_rejects_corrupt_data(corrupt: object) -> None:
    with pytest.raises(InvalidState):
        GAME.load(corrupt)  # type: ignore[arg-type]


def test_record_export_and_import_replays_to_the_same_state() -> None:
    rng = random.Random(9)
    played = list(random_turns(GAME, rng, GAME.new(), bound=60))
    turns = [GAME.format_move(before, move) for before, move, _ in played]
    state = played[-1][2]
    record = Record("quorum", "standard", 2, 0, tuple(turns), GAME.outcome(state))
    text = record.to_text(say)
    assert text.startswith('[Game "quorum"]')
    again = Record.from_text(text)
    assert again == record
    assert again.replay(GAME) == state


def test_record_with_resignation_replays() -> None:
    record = Record("quorum", "standard", 2, 0, ("a1e3", "resign 2"))
    state = Record.from_text(record.to_text(say)).replay(GAME)
    assert GAME.outcome(state) == Outcome((1,), "resignation")


def test_move_tree_asks_square_by_square() -> None:
    tree = GAME.move_tree(GAME.new())
    starts = {GAME.format_move(GAME.new(), m)[:2] for m in GAME.legal_moves(GAME.new())}
    assert set(tree.children) == starts == {"a1", "b1", "c1", "a2", "b2", "a3"}
    jump = tree.walk(["a1", "e3"])
    assert jump is not None and jump.move == Jump(0, 20)
    leaves = sum(len(child.children) for child in tree.children.values())
    assert leaves == len(GAME.legal_moves(GAME.new()))


def test_resign_and_help_topics() -> None:
    state = GAME.resign(GAME.new(), 1)
    assert GAME.outcome(state) == Outcome((2,), "resignation")
    assert GAME.legal_moves(state) == ()
    topics = ["overview", "setup", "moving", "suffocation", "conversion", "placement", "winning"]
    assert list(GAME.help_topics) == topics


def test_the_documented_diagram_is_the_starting_position() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
    section = text.split("## Quorum", 1)[1]
    block = section.split("```", 2)[1]
    state = GAME.parse_diagram(block)
    assert (state.board, state.turn) == (GAME.new().board, 1)
