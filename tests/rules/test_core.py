import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.texts import say
from rules import (
    GAMES,
    InvalidRecord,
    Outcome,
    Reason,
    Record,
    UnknownGame,
    UnknownVariant,
    get_game,
)
from rules.diagrams import grid_rows, split_diagram
from rules.direct import direct_constructor
from rules.errors import InvalidDiagram, InvalidMove
from rules.movetree import build_move_tree
from rules.notation import parse_square, split_squares
from rules.outcomes import outcome_from_json, outcome_to_json
from rules.state import CommonState
from tests.rules.refusals import refused


def test_registry_lists_games_in_a_fixed_order() -> None:
    order = ["boost", "quorum", "boku", "razzle", "kyo"]
    assert list(GAMES) == [name for name in order if name in GAMES]
    assert get_game(" Quorum ") is GAMES["quorum"]


def test_unknown_game_lists_the_names() -> None:
    games = "boost, quorum, boku, razzle, kyo"
    with refused(UnknownGame, "rules.game.unknown", name="chess", games=games):
        get_game("chess")


def test_new_checks_variant_and_player_count() -> None:
    game = get_game("quorum")
    with refused(UnknownVariant, "rules.game.no_variant", variant="giant", choices="standard"):
        game.new(variant="giant")
    with refused(UnknownVariant, "rules.game.players", allowed="2", players=3):
        game.new(players=3)


def test_outcome_reasons_are_a_fixed_vocabulary() -> None:
    with pytest.raises(ValueError, match="unknown outcome reason"):
        Outcome((1,), "luck")
    assert Outcome((), "agreement").is_draw
    assert say(Outcome((2,), "resignation").by_seat()) == "seat 2 wins (resignation)"


def test_outcome_reasons_are_stored_as_their_strings() -> None:
    outcome = Outcome((), "board-full")
    assert outcome.reason is Reason.BOARD_FULL
    text = json.dumps(outcome_to_json(outcome))
    assert text == '{"winners": [], "reason": "board-full"}'
    assert outcome_from_json(json.loads(text)) == outcome


def test_squares_parse_and_explain() -> None:
    assert parse_square("C3", 8, 8) == (2, 2)
    assert split_squares("A1-e3, j10") == ["a1", "e3", "j10"]
    with refused(InvalidMove, "rules.square.off_board", square="k1", last="j10"):
        parse_square("k1", 10, 10)
    with refused(InvalidMove, "rules.square.unreadable", text="3c"):
        parse_square("3c", 8, 8)


def test_diagram_helpers_strip_labels_and_read_keys() -> None:
    rows, keys = split_diagram("  a b\n2 x .\n1 . x 1\n\nto move: 2\n")
    assert keys == {"to move": "2"}
    assert grid_rows(rows, 2, 2) == [["x", "."], [".", "x"]]
    with refused(InvalidDiagram, "rules.diagram.row", cells=3, width=2):
        grid_rows([["x", ".", "."]], 2, 1)
    with refused(InvalidDiagram, "rules.diagram.rows", rows=1, height=2):
        grid_rows([["x", "."]], 2, 2)


def test_move_tree_keeps_a_complete_move_that_can_go_on() -> None:
    tree = build_move_tree([(("d1", "e1"), "short"), (("d1", "e1", "e5"), "long")])
    node = tree.walk(["d1", "e1"])
    assert node is not None and node.move == "short" and set(node.children) == {"e5"}
    assert tree.walk(["d1", "zz"]) is None


HEADER = '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "0"]\n'


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ('[Game "quorum"]\n\n1. a1e3\n', "rules.record.header", {"tag": "Variant"}),
        (HEADER.replace('"2"', '"two"'), "rules.record.header", {"tag": "Players"}),
        (HEADER + "\n2. a1e3", "rules.record.turn_number", {"line": 6, "turn": 1}),
        ("hello", "rules.record.line", {"line": 1}),
        (HEADER + '[Winners "1"]\n[Reason "luck"]\n', "rules.record.reason", {"reason": "luck"}),
        (HEADER + '[Winners "one"]\n[Reason "five"]\n', "rules.record.winners", {}),
    ],
)
def test_malformed_records_are_explained(text: str, key: str, values: dict[str, Any]) -> None:
    with refused(InvalidRecord, key, **values):
        Record.from_text(text)


def test_a_record_with_an_illegal_turn_says_which() -> None:
    record = Record("quorum", "standard", 2, 0, ("a1e3", "a1e3"))
    with pytest.raises(InvalidRecord) as caught:
        record.replay(get_game("quorum"))
    assert caught.value.key == "rules.record.turn"
    assert caught.value.values["number"] == 2 and caught.value.values["turn"] == "a1e3"
    assert caught.value.values["error"].key == "rules.quorum.no_stone"


def test_running_out_of_time_ends_a_two_player_game_on_time() -> None:
    game = get_game("quorum")
    state = game.time_out(game.new(), 1)
    assert game.outcome(state) == Outcome((2,), "timeout")


def test_running_out_of_time_in_three_player_boost_only_removes_that_player() -> None:
    game = get_game("boost")
    state = game.time_out(game.new(players=3, seed=1), 1)
    assert game.outcome(state) is None and game.to_move(state) == 2
    state = game.time_out(state, 2)
    assert game.outcome(state) == Outcome((3,), "timeout")


def test_a_timeout_in_a_record_replays() -> None:
    game = get_game("boost")
    state = game.new(players=3, seed=4)
    opening = game.format_move(state, game.legal_moves(state)[0])
    record = Record("boost", "standard", 3, 4, (opening, "timeout 2"))
    again = Record.from_text(record.to_text(say)).replay(game)
    expected = game.time_out(game.apply(state, game.legal_moves(state)[0]), 2)
    assert game.dump(again) == game.dump(expected)


@dataclass(frozen=True, slots=True)
class SlottedState(CommonState):
    board: str
    derived: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", len(self.board))


@dataclass(frozen=True)
class PlainState(CommonState):
    board: str
    seen: tuple[str, ...] = ()


FIELDS = ("variant", "players", "turn", "ply", "result", "last")


@pytest.mark.parametrize(
    ("cls", "names", "own", "expected"),
    [
        (SlottedState, ("board", "derived"), ("abc", 3), SlottedState("abc", turn=2, ply=5)),
        (PlainState, ("seen", "board"), (("x",), "abc"), PlainState("abc", ("x",), turn=2, ply=5)),
    ],
)
def test_direct_constructor_makes_the_state_init_makes(
    cls: type[CommonState], names: tuple[str, ...], own: tuple[object, ...], expected: CommonState
) -> None:
    make = direct_constructor(cls, (*names, *FIELDS))
    made = make(*own, "standard", 2, 2, 5, None, None)
    assert type(made) is cls and made == expected
    assert [getattr(made, name) for name in (*names, *FIELDS)] == [
        getattr(expected, name) for name in (*names, *FIELDS)
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.variant = "changed"  # type: ignore[misc]


def test_direct_constructor_refuses_to_leave_a_field_unset() -> None:
    with pytest.raises(ValueError, match="needs exactly its fields: .*derived"):
        direct_constructor(SlottedState, ("board", *FIELDS))
