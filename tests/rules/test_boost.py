import dataclasses
import json
import random
from itertools import islice
from typing import Any

import pytest

from bot.texts import say
from fixtures.positions import diagram
from rules import (
    PASS,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    InvalidState,
    Outcome,
    RulesError,
    get_game,
)
from rules.boost import Boost, BoostState, Build, Promote, Step
from rules.boost.board import zobrist
from rules.phrases import Phrase, phrase
from rules.playout import random_states, random_turns
from rules.records import Record
from tests.rules.refusals import refused

REGISTERED = get_game("boost")
assert isinstance(REGISTERED, Boost)
GAME: Boost = REGISTERED
BLUE, RED = phrase("rules.seat.blue"), phrase("rules.seat.red")


def piece(name: str) -> Phrase:
    return phrase(f"rules.boost.piece.{name}")


def yours(name: str) -> Phrase:
    return phrase("rules.boost.holder.yours", piece=piece(name))


def theirs(owner: Phrase, name: str) -> Phrase:
    return phrase("rules.boost.holder.theirs", owner=owner, piece=piece(name))


def steps(count: int) -> Phrase:
    return phrase("rules.count.steps", count=count)


def must(name: str, point: str, neighbours: int) -> Phrase:
    """Why a piece must take exactly neighbours + 1 steps, as the refusals say it."""
    return phrase(
        "rules.boost.must_take",
        piece=piece(name),
        point=point,
        neighbours=phrase("rules.count.neighbours", count=neighbours),
        steps=steps(neighbours + 1),
    )


# Pieces far from the seed's little diagrams, so that nobody starts out defeated.
FILL = {
    2: {"a1": "p", "b1": "p", "c1": "p", "d1": "p", "f9": "P", "g9": "P", "h9": "P", "i9": "P"},
    3: {
        "a1": "P1",
        "b1": "P1",
        "c1": "P1",
        "d1": "P1",
        "f9": "P2",
        "g9": "P2",
        "h9": "P2",
        "i9": "P2",
        "f1": "P3",
        "g1": "P3",
        "h1": "P3",
        "i1": "P3",
    },
}


def halves(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """A seed example written 'before => after' side by side, as two token grids."""
    before, after = [], []
    for line in text.strip().splitlines():
        tokens = [t for t in line.split() if t != "=>"]
        middle = len(tokens) // 2
        before.append(tokens[:middle])
        after.append(tokens[middle:])
    return before, after


def board(
    snippet: list[list[str]],
    corner: str = "c6",
    *,
    players: int = 2,
    keys: str = "",
    fill: dict[str, str] | None = None,
) -> str:
    """A full 9x9 diagram: the snippet with its top-left cell on `corner`, plus the filler."""
    grid = [["."] * 9 for _ in range(9)]
    for name, token in (FILL[players] if fill is None else fill).items():
        grid[9 - int(name[1])][ord(name[0]) - 97] = token
    file0, rank0 = ord(corner[0]) - 97, int(corner[1:])
    for row_number, row in enumerate(snippet):
        for column, token in enumerate(row):
            grid[9 - (rank0 - row_number)][file0 + column] = "." if token == "*" else token
    extra = f"players: {players}\n" if players != 2 else ""
    return "\n".join(" ".join(row) for row in grid) + "\n" + extra + keys


def board_with(snippet: list[list[str]], fill: dict[str, str], corner: str = "c6") -> str:
    """Like `board` (two players), with another filler."""
    return board(snippet, corner, fill=fill)


def example(
    text: str, move: str, corner: str = "c6", *, players: int = 2, keys: str = ""
) -> tuple[BoostState, BoostState]:
    """Play `move` in the seed example's 'before' board; return (state after, expected)."""
    before, after = halves(text)
    state = GAME.parse_diagram(board(before, corner, players=players, keys=keys))
    played = GAME.apply(state, GAME.parse_move(state, move))
    return played, GAME.parse_diagram(board(after, corner, players=players, keys=keys))


def moves_from(state: BoostState, square: str) -> set[str]:
    texts = {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    return {t[2:] for t in texts if t.startswith(square) and len(t) == 4}


# --- the seed's diagrams ---------------------------------------------------------------------


def test_a_lone_pawn_takes_a_single_step() -> None:
    after, expected = example(
        """
        . . . . . .    . . . . . .
        . p . . . . => . . p . . .
        . . . . . .    . . . . . .
        """,
        "d5e5",
    )
    assert after.masks == expected.masks
    assert moves_from(GAME.parse_diagram(board([[".", "p", "."]])), "d6") == {
        "c6",
        "e6",
        "d7",
        "d5",
    }


BOOSTED = """
. t . . . .    . t . . . .
K p . . . . => K . . . . p
. D . . . .    . D . . . .
"""


def test_a_pawn_next_to_t_k_and_d_takes_exactly_four_steps() -> None:
    after, expected = example(BOOSTED, "d5h5")
    assert after.masks == expected.masks
    state = GAME.parse_diagram(board(halves(BOOSTED)[0]))
    reached = moves_from(state, "d5")
    assert "h5" in reached and "e5" not in reached
    for square in reached:
        distance = abs(ord(square[0]) - ord("d")) + abs(int(square[1]) - 5)
        assert distance in (2, 4)
    with refused(
        IllegalMove, "rules.boost.unreachable", must=must("pawn", "d5", 3), exactly=steps(4)
    ):
        GAME.parse_move(state, "d5e5")


def test_the_winding_path_is_one_move_and_is_drawn() -> None:
    after, expected = example(
        """
        . t .    . t .
        K p . => K * *
        . . .    . p *
        """,
        "d5d4",
    )
    assert after.masks == expected.masks
    assert after.last is not None
    names = ["abcdefghi"[f] + str(r + 1) for f, r in after.last.path]
    assert names == ["d5", "e5", "e4", "d4"]


def test_construction() -> None:
    after, expected = example(
        """
        . P .    . P .
        P . P => P T P
        . P .    . P .
        """,
        "d5",
        keys="to move: 2",
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.changed == ((3, 4),)


def test_promotion() -> None:
    after, expected = example(
        """
        . P .    . K .
        P T P => P T P
        . P .    . P .
        """,
        "d6",
        keys="to move: 2",
    )
    assert after.masks == expected.masks


def test_a_knight_captures_by_landing() -> None:
    after, expected = example(
        """
        . P .    . k .
        . . . => . . .
        p k .    p . .
        """,
        "d4d6",
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.captured == ((3, 5),)


def test_a_pawn_flanks() -> None:
    after, expected = example(
        """
        . p .    . p .
        . P . => . . .
        p . .    . p .
        """,
        "c4d4",
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.captured == ((3, 4),)


def test_a_pawn_flanks_twice_in_one_move() -> None:
    after, expected = example(
        """
        . p .    . p .
        . P .    . . .
        p . . => . p .
        . P .    . . .
        . p .    . p .
        """,
        "c6d6",
        corner="c8",
    )
    assert after.masks == expected.masks
    assert after.last is not None and sorted(after.last.captured) == [(3, 4), (3, 6)]


def test_pawns_only_capture_after_they_move() -> None:
    after, expected = example(
        """
        . p .    . p .
        P . . => . P .
        . p .    . p .
        """,
        "c5d5",
        keys="to move: 2",
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.captured == ()


def test_a_dragon_can_be_the_flanking_piece() -> None:
    # The seed's drawing lost the dragon's colour; its sentence says a dragon stands above.
    after, expected = example(
        """
        . D .    . D .
        . P . => . . .
        p . .    . p .
        """,
        "c4d4",
    )
    assert after.masks == expected.masks


def test_moving_a_dragon_next_to_your_piece() -> None:
    after, expected = example(
        """
        . . .    . D .
        . . . => . . .
        p D .    p . .
        """,
        "d4d6",
    )
    assert after.masks == expected.masks


def test_a_moved_dragon_captures_by_flanking() -> None:
    after, expected = example(
        """
        . . D    . . D
        p . P => p . .
        D . .    . . D
        """,
        "c4e4",
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.captured == ((4, 4),)


def test_tower_victory_when_the_fourth_dragon_arrives() -> None:
    ring = [[".", "D", "."], ["D", "T", "D"], [".", ".", "."], [".", ".", "."], ["P", "D", "."]]
    state = GAME.parse_diagram(board(ring, "d6", keys="to move: 2"))
    assert GAME.outcome(state) is None
    after = GAME.apply(state, GAME.parse_move(state, "e2e4"))
    expected = [[".", "D", "."], ["D", "T", "D"], [".", "D", "."], [".", ".", "."], ["P", "."]]
    assert after.masks == GAME.parse_diagram(board(expected, "d6")).masks
    assert GAME.outcome(after) == Outcome((2,), "tower")
    assert GAME.legal_moves(after) == ()


def test_closing_an_enemy_ring_flanks_the_tower_instead() -> None:
    # Captures come before the victory check: the arriving dragon and the one opposite flank
    # the tower, so only a ring's owner can close it.
    ring = [[".", "D", "."], ["D", "T", "D"], [".", ".", "."], [".", ".", "."], ["p", "D", "."]]
    state = GAME.parse_diagram(board(ring, "d6"))
    after = GAME.apply(state, GAME.parse_move(state, "e2e4"))
    assert GAME.outcome(after) is None
    assert after.last is not None and after.last.captured == ((4, 4),)


def test_a_third_player_s_piece_never_flanks() -> None:
    after, expected = example(
        """
        .  P3 .     .  P3 .
        .  P2 .  => .  P2 .
        P1 .  .     .  P1 .
        """,
        "c4d4",
        players=3,
    )
    assert after.masks == expected.masks
    assert after.last is not None and after.last.captured == ()
    assert after.turn == 2


# --- more rules ------------------------------------------------------------------------------


def test_a_knight_captures_a_tower() -> None:
    snippet = [[".", "T", "."], [".", ".", "."], ["p", "k", "."]]
    state = GAME.parse_diagram(board(snippet, "c6"))
    after = GAME.apply(state, GAME.parse_move(state, "d4-d6"))
    expected = [[".", "k", "."], [".", ".", "."], ["p", ".", "."]]
    assert after.masks == GAME.parse_diagram(board(expected, "c6")).masks
    assert after.last is not None and after.last.captured == ((3, 5),)


def test_knights_do_not_flank() -> None:
    snippet = [[".", ".", ".", ".", "."], [".", ".", ".", "P", "p"], ["p", "k", ".", ".", "."]]
    state = GAME.parse_diagram(board(snippet, "c6"))
    after = GAME.apply(state, GAME.parse_move(state, "d4e5"))
    expected = [[".", ".", ".", ".", "."], [".", ".", "k", "P", "p"], ["p", ".", ".", ".", "."]]
    assert after.masks == GAME.parse_diagram(board(expected, "c6")).masks
    assert after.last is not None and after.last.captured == ()


def test_knights_cannot_land_on_dragons_or_their_own_pieces() -> None:
    state = GAME.parse_diagram(board([[".", ".", "."], ["p", "k", "D"]], "c6"))
    assert moves_from(state, "d5") and not moves_from(state, "d5") & {"c5", "e5"}
    with refused(IllegalMove, "rules.boost.own_capture", holder=yours("pawn")):
        GAME.parse_move(state, "d5c5")
    with refused(IllegalMove, "rules.boost.dragon_capture"):
        GAME.parse_move(state, "d5e5")


def test_no_building_on_the_edge() -> None:
    snippet = [["p", ".", "p"], [".", "p", "."]]
    state = GAME.parse_diagram(board(snippet, "c9"))
    assert not any(isinstance(m, Build) for m in GAME.legal_moves(state))
    with refused(IllegalMove, "rules.boost.edge", point="d9"):
        GAME.parse_move(state, "d9")


def test_building_names_the_missing_neighbour_and_stops_at_two_towers() -> None:
    snippet = [[".", "p", "."], ["p", ".", "P"], [".", ".", "."]]
    state = GAME.parse_diagram(board(snippet))
    missing = phrase(
        "rules.list.pair",
        first=phrase("rules.boost.neighbour_empty", point="d4"),
        last=phrase("rules.boost.neighbour_holds", point="e5", holder=theirs(RED, "pawn")),
    )
    with refused(IllegalMove, "rules.boost.no_build", point="d5", missing=missing):
        GAME.parse_move(state, "d5")
    towers = [["t", "p", "t"], ["p", ".", "p"], [".", "p", "."]]
    state = GAME.parse_diagram(board(towers))
    with refused(IllegalMove, "rules.boost.most_towers", most=2):
        GAME.parse_move(state, "d5")
    one_tower = [["t", "p", "."], ["p", ".", "p"], [".", "p", "."]]
    state = GAME.parse_diagram(board(one_tower))
    assert Build(GAME.geometry(state).at(3, 4)) in GAME.legal_moves(state)


def test_knights_never_outnumber_towers_through_promotion() -> None:
    snippet = [["k", "t", "p"], [".", ".", "."]]
    state = GAME.parse_diagram(board(snippet))
    assert not any(isinstance(m, Promote) for m in GAME.legal_moves(state))
    knights, towers = phrase("rules.count.knights", count=1), phrase("rules.count.towers", count=1)
    with refused(IllegalMove, "rules.boost.knights", knights=knights, towers=towers):
        GAME.parse_move(state, "e6")
    lonely = GAME.parse_diagram(board([["p", ".", "t"]]))
    with refused(IllegalMove, "rules.boost.no_tower", point="c6"):
        GAME.parse_move(lonely, "c6")


def test_knights_stay_knights_when_their_tower_falls() -> None:
    snippet = [[".", "K", "T", "P"], [".", ".", ".", "."], [".", "p", "k", "."]]
    state = GAME.parse_diagram(board(snippet))
    after = GAME.apply(state, GAME.parse_move(state, "e4e6"))
    counts = GAME.format_diagram(after)
    assert counts.count("K") == 1 and "T" not in counts


SPREAD = diagram("boost", "seed: arrangements may not recur (spread pawns)")


def test_a_move_may_not_recreate_an_earlier_arrangement() -> None:
    state = GAME.parse_diagram(SPREAD)
    for move in ("a1a2", "a9a8", "a2a1"):
        state = GAME.apply(state, GAME.parse_move(state, move))
    assert "a8a9" not in {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    with refused(IllegalMove, "rules.boost.repetition", move="a8a9"):
        GAME.parse_move(state, "a8a9")
    assert "a8a7" in {GAME.format_move(state, m) for m in GAME.legal_moves(state)}


def with_history(state: BoostState, extra: list[BoostState]) -> BoostState:
    """The same position, with the arrangements of `extra` recorded as already seen."""
    data = GAME.dump(state)
    seen = [GAME.dump(s)["state"]["history"][-1] for s in extra]
    data["state"]["history"] = seen + data["state"]["history"]
    return GAME.load(json.loads(json.dumps(data)))


def test_repeating_is_allowed_when_every_move_would_repeat() -> None:
    state = GAME.parse_diagram(SPREAD)
    moves = GAME.legal_moves(state)
    results = [GAME.apply(state, m) for m in moves]
    all_seen = with_history(state, results)
    assert GAME.legal_moves(all_seen) == moves
    all_but_one = with_history(state, results[1:])
    assert GAME.legal_moves(all_but_one) == moves[:1]


def test_history_forgets_what_a_capture_makes_impossible() -> None:
    state = GAME.parse_diagram(board([[".", "p", "."], [".", "P", "."], ["p", ".", "."]]))
    quiet = GAME.apply(state, GAME.parse_move(state, "a1a3"))
    assert len(quiet.history) == 2
    state = GAME.apply(quiet, GAME.parse_move(quiet, "f9f7"))
    captured = GAME.apply(state, GAME.parse_move(state, "c4d4"))
    assert captured.history == (captured.masks,)


IMMOBILE = """
p P p P p P p P p
P p P p P p P p P
p P p P p P p P p
P p P p P p P p P
p P p P p P p P p
P p P p P p P p P
p P p P p P p P p
P p P p P p P p P
p P p P p P p P p
"""


def test_an_immobilized_player_passes() -> None:
    state = GAME.parse_diagram(
        """
        P P p . . . . . .
        P P p . . . . . .
        p p . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        to move: 2
        """
    )
    assert GAME.legal_moves(state) == (PASS,)
    after = GAME.apply(state, GAME.parse_move(state, "pass"))
    assert (after.turn, after.ply, after.masks) == (1, 1, state.masks)
    assert after.last is not None and after.last.notation == "pass"
    assert GAME.outcome(after) is None
    with refused(IllegalMove, "rules.boost.no_pass"):
        GAME.parse_move(after, "pass")


def test_nobody_able_to_act_is_a_draw() -> None:
    state = GAME.parse_diagram(IMMOBILE)
    assert GAME.legal_moves(state) == (PASS,)
    after = GAME.apply(state, PASS)
    assert GAME.outcome(after) == Outcome((), "no-moves")
    assert GAME.legal_moves(after) == ()


# --- defeat, victory and turn order ------------------------------------------------------


def test_defeat_by_too_few_pieces_without_a_tower() -> None:
    snippet = [[".", "p", "."], [".", "P", "."], ["p", ".", "."]]
    four = {**FILL[2]}
    del four["i9"]
    state = GAME.parse_diagram(board_with(snippet, four))
    assert GAME.defeated(state) == ()
    after = GAME.apply(state, GAME.parse_move(state, "c4d4"))
    assert GAME.defeated(after) == (2,)
    assert GAME.outcome(after) == Outcome((1,), "capture")
    assert "P" in GAME.format_diagram(after), "a defeated player's pieces stay"


def test_defeat_when_only_towers_remain() -> None:
    snippet = [[".", "p", "."], [".", "P", "."], ["p", ".", "T"]]
    state = GAME.parse_diagram(board_with(snippet, {"a1": "p", "b1": "p", "c1": "p"}))
    assert GAME.defeated(state) == ()
    after = GAME.apply(state, GAME.parse_move(state, "c4d4"))
    assert GAME.defeated(after) == (2,)
    assert GAME.outcome(after) == Outcome((1,), "capture")


def test_a_tower_keeps_a_small_army_in_the_game() -> None:
    four = {"a1": "p", "b1": "p", "c1": "p", "d1": "p"}
    state = GAME.parse_diagram(board_with([["T", "P"]], four))
    assert GAME.defeated(state) == () and GAME.outcome(state) is None


def test_resigning_in_a_two_player_game_ends_it() -> None:
    state = GAME.resign(GAME.new(seed=1), 1)
    assert GAME.outcome(state) == Outcome((2,), "resignation")
    with refused(IllegalMove, "rules.game.already_over"):
        GAME.resign(state, 2)


def test_resigning_with_three_players_lets_the_others_play_on() -> None:
    state = GAME.new(players=3, seed=1)
    state = GAME.resign(state, 1)
    assert GAME.outcome(state) is None
    assert (GAME.to_move(state), GAME.defeated(state)) == (2, (1,))
    with refused(IllegalMove, "rules.boost.already_out", seat=BLUE):
        GAME.resign(state, 1)
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(state) == 3
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(state) == 2, "the resigned seat 1 is skipped"
    state = GAME.resign(state, 3)
    assert GAME.outcome(state) == Outcome((2,), "resignation")


FOUR = diagram("boost", "four players, seat 3 to move")


def test_turn_order_skips_defeated_players_in_a_four_player_game() -> None:
    state = GAME.parse_diagram(FOUR)
    assert GAME.defeated(state) == (3,)
    assert GAME.to_move(state) == 4, "seat 3 cannot move, so seat 4 is next"
    seats = []
    for _ in range(6):
        seats.append(GAME.to_move(state))
        state = GAME.apply(state, GAME.legal_moves(state)[-1])
    assert seats == [4, 1, 2, 4, 1, 2]


def test_nobody_left_in_the_game_is_a_draw() -> None:
    state = GAME.parse_diagram(FOUR + "resigned: 1 2 4")
    assert GAME.outcome(state) == Outcome((), "no-moves")


# --- setups ----------------------------------------------------------------------------------

START_2 = """
P P P P . P P P P
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
p p p p . p p p p
"""

START_3 = """
P3 P3 P3 P3 .  P2 P2 P2 P2
.  .  .  .  .  .  .  .  .
P3 .  .  .  .  .  .  .  P2
P3 .  .  .  .  .  .  .  P2
P3 .  .  .  .  .  .  .  P2
P3 .  .  .  .  .  .  .  P2
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
P1 P1 P1 P1 . P1  P1 P1 P1
"""

START_4 = """
P2 P2 P2 P2 .  P4 P4 P4 P4
.  .  .  .  .  .  .  .  .
P2 .  .  .  .  .  .  .  P4
P2 .  .  .  .  .  .  .  P4
.  .  .  .  .  .  .  .  .
P1 .  .  .  .  .  .  .  P3
P1 .  .  .  .  .  .  .  P3
.  .  .  .  .  .  .  .  .
P1 P1 P1 P1 .  P3 P3 P3 P3
"""

QUICKSTART = """
. . P . . . P . .
. P T P . P T P .
. . P . . . P . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . p . . . p . .
. p t p . p t p .
. . p . . . p . .
"""

MINI = """
. . . P P P P
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
p p p p . . .
"""


def without_dragons(state: BoostState) -> tuple[int, ...]:
    return state.masks[1:]


@pytest.mark.parametrize(
    ("variant", "players", "diagram"),
    [
        ("standard", 2, START_2),
        ("dragonless", 2, START_2),
        ("standard", 3, START_3),
        ("dragonless", 3, START_3 + "players: 3"),
        ("standard", 4, START_4 + "players: 4"),
        ("quickstart", 2, QUICKSTART),
        ("mini", 2, MINI),
    ],
)
def test_setups_match_the_seed_and_the_rulings(variant: str, players: int, diagram: str) -> None:
    state = GAME.new(players=players, variant=variant, seed=5)
    assert without_dragons(state) == without_dragons(GAME.parse_diagram(diagram))
    dragons = bin(state.masks[0]).count("1")
    assert dragons == (0 if variant == "dragonless" else 7)
    assert (GAME.players(state), GAME.to_move(state), GAME.outcome(state)) == (players, 1, None)


@pytest.mark.parametrize(
    ("variant", "players"),
    [("standard", 2), ("standard", 3), ("standard", 4), ("mini", 2), ("quickstart", 2)],
)
def test_dragon_layouts_are_symmetric_and_follow_the_seed(variant: str, players: int) -> None:
    layouts = set()
    for seed in range(40):
        state = GAME.new(players=players, variant=variant, seed=seed)
        geo = GAME.geometry(state)
        dragons = [p for p in range(geo.count) if state.masks[0] >> p & 1]
        assert len(dragons) == 7 and geo.center in dragons
        assert sorted(geo.mirror(p) for p in dragons) == dragons
        ranks = {9: {5, 6, 7}, 7: {4, 5}}[geo.size]
        assert len([p for p in dragons if p % geo.size in ranks]) == 3
        assert GAME.new(players=players, variant=variant, seed=seed) == state
        layouts.add(state.masks[0])
    assert len(layouts) > 30


# --- notation, reference, counts, playouts ---------------------------------------------------

VARIANTS = [
    ("standard", 2),
    ("standard", 3),
    ("standard", 4),
    ("dragonless", 2),
    ("dragonless", 3),
    ("dragonless", 4),
    ("mini", 2),
    ("quickstart", 2),
]


def random_positions(count: int, seed: int) -> list[BoostState]:
    """Positions from random games of every variant and player count."""
    rng = random.Random(seed)
    positions: list[BoostState] = []
    while len(positions) < count:
        variant, players = rng.choice(VARIANTS)
        start = GAME.new(players=players, variant=variant, seed=rng.randrange(1000))
        running = list(random_states(GAME, rng, start, bound=119))
        positions.extend(s for s in running if GAME.outcome(s) is None and rng.random() < 0.3)
    return positions[:count]


def test_notation_round_trips_over_every_legal_move_of_300_positions() -> None:
    checked = 0
    for state in random_positions(300, seed=7):
        tree = GAME.move_tree(state)
        for move in GAME.legal_moves(state):
            text = GAME.format_move(state, move)
            assert GAME.parse_move(state, text) == move
            spaced = " " + "-".join(GAME.move_tokens(state, move)).upper()
            assert GAME.parse_move(state, spaced) == move
            node = tree.walk(GAME.move_tokens(state, move))
            assert node is not None and node.move == move
            checked += 1
    assert checked > 5000


def read_board(state: BoostState) -> dict[tuple[int, int], tuple[int, str]]:
    """(file, rank) -> (seat, letter) from the diagram text; seat 0 for dragons."""
    rows = [line.split()[1:] for line in GAME.format_diagram(state).splitlines()[: state.size]]
    cells = {}
    for row_number, row in enumerate(rows):
        for file, token in enumerate(row):
            rank = state.size - 1 - row_number
            if token == "D":
                cells[(file, rank)] = (0, "D")
            elif token != ".":
                seat = int(token[1:]) if len(token) > 1 else (1 if token.islower() else 2)
                cells[(file, rank)] = (seat, token[0].upper())
    return cells


def literal_actions(state: BoostState) -> set[str]:
    """The rulings read literally, by brute force over every path: what the seat may do,
    before the repetition rule."""
    size, seat = state.size, state.turn
    cells = read_board(state)

    def name(point: tuple[int, int]) -> str:
        return "abcdefghi"[point[0]] + str(point[1] + 1)

    def near(point: tuple[int, int]) -> list[tuple[int, int]]:
        f, r = point
        found = [(f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)]
        return [(a, b) for a, b in found if 0 <= a < size and 0 <= b < size]

    def ends(start: tuple[int, int], steps: int, knight: bool) -> set[tuple[int, int]]:
        found = set()

        def walk(point: tuple[int, int], visited: list[tuple[int, int]]) -> None:
            if len(visited) == steps + 1:
                found.add(point)
                return
            for nxt in near(point):
                if nxt in visited:
                    continue
                last = len(visited) == steps
                holder = cells.get(nxt)
                if holder is None or (last and knight and holder[0] not in (0, seat)):
                    walk(nxt, [*visited, nxt])

        walk(start, [start])
        return found

    mine = {p for p, (s, _) in cells.items() if s == seat}
    actions = set()
    for point, (owner, letter) in cells.items():
        movable = owner == seat and letter in "PK"
        dragon = owner == 0 and any(n in mine for n in near(point))
        if movable or dragon:
            steps = 1 + sum(1 for n in near(point) if n in cells)
            for end in ends(point, steps, knight=movable and letter == "K"):
                actions.add(name(point) + name(end))
    towers = sum(1 for s, letter in cells.values() if (s, letter) == (seat, "T"))
    knights = sum(1 for s, letter in cells.values() if (s, letter) == (seat, "K"))
    for file in range(size):
        for rank in range(size):
            point = (file, rank)
            around = near(point)
            if point not in cells and len(around) == 4 and all(n in mine for n in around):
                if towers < 2:
                    actions.add(name(point))
            if cells.get(point) == (seat, "P") and knights < towers:
                if any(cells.get(n) == (seat, "T") for n in around):
                    actions.add(name(point))
    return actions


def test_legal_moves_match_a_literal_reading_of_the_rulings() -> None:
    compared = 0
    for state in random_positions(250, seed=4):
        fresh = GAME.parse_diagram(GAME.format_diagram(state))
        if GAME.outcome(fresh) is not None:
            continue
        moves = {GAME.format_move(fresh, m) for m in GAME.legal_moves(fresh)}
        assert moves - {"pass"} == literal_actions(fresh)
        compared += 1
    assert compared > 200


def move_of(state: BoostState, text: str) -> Step | Build | Promote:
    """The move object for a notation, legal or not."""
    index = GAME.geometry(state).index
    if len(text) == 4:
        return Step(index[text[:2]], index[text[2:]])
    point = index[text]
    pawn = read_board(state).get(GAME.geometry(state).point(point)) == (state.turn, "P")
    return Promote(point) if pawn else Build(point)


def test_repetition_matches_a_literal_reading_over_whole_games() -> None:
    rng = random.Random(12)
    checked = 0
    starts = [GAME.new(players=n, variant=v, seed=3) for v, n in VARIANTS[:4] + VARIANTS[6:]]
    duel = board([["t", ".", "p", ".", "P", ".", "T"]], "b5", fill={})
    for start in [*starts, GAME.parse_diagram(duel), GAME.parse_diagram(duel)]:
        seen = []
        for state, _, _ in random_turns(GAME, rng, start, bound=100):
            seen.append(state.masks)
            moves = GAME.legal_moves(state)
            actions = sorted(literal_actions(state))
            candidates = [move_of(state, t) for t in actions] if actions else [PASS]
            fresh = [m for m in candidates if m is PASS or GAME._play(state, m).masks not in seen]
            assert set(moves) == set(fresh or candidates)
            checked += len(candidates) - len(fresh)
    assert checked > 40


FROZEN_COUNTS = {
    ("standard", 2): [26, 26, 27, 30, 35, 28, 34, 27, 28, 31, 26, 34],
    ("standard", 3): [30, 30, 24, 30, 26, 26, 26, 30, 28, 24, 26, 33],
    ("standard", 4): [20, 18, 18, 20, 15, 20, 16, 16, 15, 19, 18, 18],
    ("dragonless", 2): [28, 28, 29, 26, 32, 23, 28, 23, 29, 26, 33, 30],
    ("dragonless", 3): [28, 29, 29, 29, 26, 26, 26, 29, 23, 27, 28, 25],
    ("dragonless", 4): [18, 18, 19, 18, 17, 19, 20, 16, 17, 20, 17, 20],
    ("mini", 2): [15, 15, 27, 13, 23, 14, 15, 16, 17, 14, 15, 13],
    ("quickstart", 2): [44, 44, 43, 41, 33, 40, 32, 44, 31, 44, 37, 44],
}


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_frozen_legal_move_counts(variant: str, players: int) -> None:
    # The first numbers were checked by hand: 28 for two players without dragons is
    # a1 2 + b1 4 + c1 5 + d1 3, mirrored on the f-i side.
    start = GAME.new(players=players, variant=variant, seed=1)
    line = islice(random_states(GAME, random.Random(2024), start), 12)
    assert [len(GAME.legal_moves(state)) for state in line] == FROZEN_COUNTS[(variant, players)]


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_random_playouts_end_or_reach_the_bound(variant: str, players: int) -> None:
    rng = random.Random(VARIANTS.index((variant, players)))
    for game_number in range(4):
        start = GAME.new(players=players, variant=variant, seed=game_number)
        for before, _, state in random_turns(GAME, rng, start, bound=300):
            assert GAME.legal_moves(before) and GAME.to_move(before) not in GAME.defeated(before)
            masks = state.masks
            union = 0
            for mask in masks:
                union |= mask
            assert sum(m.bit_count() for m in masks) == union.bit_count(), "one piece a point"
            for seat in range(1, players + 1):
                towers, knights = masks[3 * seat], masks[3 * seat - 1]
                assert towers.bit_count() <= 2 and knights.bit_count() <= 2
            assert state.history[-1] == masks
        if GAME.outcome(state) is not None:
            assert GAME.legal_moves(state) == ()


# --- errors, diagrams, persistence ---------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "text", "error", "key", "values"),
    [
        ("dragonless", "hello", InvalidMove, "unreadable", {"text": "hello"}),
        ("dragonless", "a1b2c3", InvalidMove, "unreadable", {"text": "a1b2c3"}),
        ("dragonless", "j1a1", InvalidMove, "rules.square.off_board", {"square": "j1"}),
        ("dragonless", "e4e5", IllegalMove, "empty", {"point": "e4"}),
        ("dragonless", "a9a8", IllegalMove, "not_yours", {"holder": theirs(RED, "pawn")}),
        ("dragonless", "a1a2", IllegalMove, "unreachable", {"must": must("pawn", "a1", 1)}),
        (
            "dragonless",
            "a1b1",
            IllegalMove,
            "unreachable",
            {"point": "b1", "distance": steps(1), "exactly": steps(2)},
        ),
        ("dragonless", "b1b2", IllegalMove, "blocked", {"start": "b1", "end": "b2"}),
        ("dragonless", "a1a1", IllegalMove, "same_point", {}),
        ("dragonless", "a1c1", IllegalMove, "not_knight", {"point": "c1", "holder": yours("pawn")}),
        ("dragonless", "pass", IllegalMove, "no_pass", {}),
        ("dragonless", "e1", IllegalMove, "edge", {"point": "e1"}),
        ("dragonless", "a1", IllegalMove, "no_tower", {"point": "a1"}),
        ("standard", "e5e7", IllegalMove, "lone_dragon", {"point": "e5"}),
        ("quickstart", "c2c4", IllegalMove, "tower", {"point": "c2"}),
        ("quickstart", "c8", IllegalMove, "single_point", {"holder": theirs(RED, "tower")}),
    ],
)
def test_bad_moves_are_explained(
    variant: str, text: str, error: type[RulesError], key: str, values: dict[str, Any]
) -> None:
    full_key = key if key.startswith("rules.") else "rules.boost." + key
    with refused(error, full_key, **values):
        GAME.parse_move(GAME.new(variant=variant, seed=0), text)


def test_a_blocked_route_is_explained() -> None:
    snippet = [[".", "p", ".", "."], ["p", "p", ".", "P"], [".", ".", "P", "."]]
    state = GAME.parse_diagram(board(snippet))
    with refused(IllegalMove, "rules.boost.blocked", must=must("pawn", "d5", 2), end="f4"):
        GAME.parse_move(state, "d5f4")


def test_input_is_forgiving() -> None:
    state = GAME.new(variant="dragonless")
    for text in ("a1a3", "A1-A3", " a1 a3 ", "a1xa3", "a1, a3"):
        assert GAME.parse_move(state, text) == Step(0, 2)


def test_moves_after_the_end_are_refused() -> None:
    state = GAME.resign(GAME.new(), 2)
    assert GAME.legal_moves(state) == ()
    with refused(IllegalMove, "rules.game.over"):
        GAME.parse_move(state, "a1a3")


def test_the_picker_asks_point_by_point_and_a_pawn_can_promote_or_move() -> None:
    state = GAME.new(variant="quickstart", seed=2)
    tree = GAME.move_tree(state)
    node = tree.walk(["c3"])
    assert node is not None and node.move == Promote(GAME.geometry(state).index["c3"])
    assert node.children, "the same pawn can also step away"
    assert GAME.move_tokens(state, Step(0, 2)) == ("a1", "a3")
    assert GAME.move_tokens(state, PASS) == ("pass",)


@pytest.mark.parametrize("diagram", [START_2, START_3, START_4 + "players: 4", QUICKSTART, MINI])
def test_diagrams_round_trip(diagram: str) -> None:
    state = GAME.parse_diagram(diagram)
    text = GAME.format_diagram(state)
    again = GAME.parse_diagram(text)
    assert again == state
    assert GAME.format_diagram(again) == text


def test_diagram_keys() -> None:
    state = GAME.parse_diagram(START_3 + "to move: 2\nresigned: 3\nvariant: dragonless")
    assert (state.players, state.turn, state.resigned, state.variant) == (3, 2, (3,), "dragonless")
    assert "resigned: 3" in GAME.format_diagram(state)


@pytest.mark.parametrize(
    ("bad", "key", "values"),
    [
        (START_2.replace("p p p p .", "p p x p ."), "cell", {"cell": "x"}),
        (START_2.replace("p p p p .", "p p P7 p ."), "seat", {"cell": "P7", "most": 4}),
        ("\n".join(START_2.splitlines()[:-1]), "rows", {"rows": 8}),
        (START_2 + "colour: red", "key", {"name": "colour"}),
        (START_2 + "players: 5", "players", {"most": 4, "players": "5"}),
        (START_3 + "players: 2", "players", {"highest": 3, "players": "2"}),
        (MINI + "variant: quickstart", "variant", {"variant": "quickstart", "size": 7}),
        (START_2 + "to move: 3", "rules.diagram.seat", {"value": "3"}),
    ],
)
def test_malformed_diagrams_are_explained(bad: str, key: str, values: dict[str, Any]) -> None:
    full_key = key if key.startswith("rules.") else "rules.boost.diagram." + key
    with refused(InvalidDiagram, full_key, **values):
        GAME.parse_diagram(bad)


def test_dump_and_load_round_trip_through_json() -> None:
    positions = random_positions(80, seed=5)
    positions.append(GAME.resign(GAME.new(players=4, seed=3), 2))
    for state in positions:
        again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert again == state
        assert again.zkey == state.zkey
        assert all(again.history.holds(masks, zobrist(masks)) for masks in state.history)
        assert GAME.legal_moves(again) == GAME.legal_moves(state)


@pytest.mark.parametrize(
    "corrupt",
    [
        {"format": 99, "game": "boost", "state": {}},
        {"format": 1, "game": "quorum", "state": {}},
        {"format": 1, "game": "boost", "state": {"board": "x"}},
        {"format": 1, "game": "boost", "state": {**GAME.dump(GAME.new())["state"], "board": ["x"]}},
        {"format": 1, "game": "boost"},
        "not a dict",
    ],
)
def test_load_rejects_corrupt_data(corrupt: object) -> None:
    with pytest.raises(InvalidState):
        GAME.load(corrupt)  # type: ignore[arg-type]


def test_load_rejects_a_history_that_does_not_end_here() -> None:
    data = GAME.dump(GAME.apply(GAME.new(), GAME.legal_moves(GAME.new())[0]))
    data["state"]["history"] = data["state"]["history"][:1]
    with pytest.raises(InvalidState) as caught:
        GAME.load(data)
    assert caught.value.key == "rules.state.corrupt"
    assert "the history must end with the current arrangement" in caught.value.values["error"]


def test_record_export_and_import_replays_to_the_same_state() -> None:
    rng = random.Random(9)
    state = GAME.new(players=3, seed=4)
    played = list(random_turns(GAME, rng, state, bound=60))
    turns = [GAME.format_move(before, move) for before, move, _ in played]
    state = played[-1][2]
    turns.append("resign 2")
    state = GAME.resign(state, 2)
    record = Record("boost", "standard", 3, 4, tuple(turns), GAME.outcome(state))
    again = Record.from_text(record.to_text(say))
    assert again == record
    assert again.replay(GAME) == state


def test_help_topics_and_variants() -> None:
    expected = {
        "overview",
        "setup",
        "moving",
        "building",
        "promotion",
        "capturing",
        "dragons",
        "passing",
        "defeat",
        "winning",
        "variants",
        "multiplayer",
    }
    assert expected <= set(GAME.help_topics)
    assert set(GAME.variants) == {"standard", "dragonless", "mini", "quickstart"}
    assert GAME.player_counts == (2, 3, 4)
    assert GAME.variants["mini"].player_counts == (2,)
    assert dataclasses.is_dataclass(GAME.new())
