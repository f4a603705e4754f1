"""The AI plays only legal moves, in every game, variant and seat, and repeats itself for a
seed when searching by nodes."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ai
from ai.alphabeta import deepen
from ai.base import WIN, Limit
from rules import GAMES, IllegalMove, get_game
from rules.playout import random_states

SETUPS = [
    (name, variant, players)
    for name, game in GAMES.items()
    for variant, spec in game.variants.items()
    for players in spec.player_counts
]


def positions(name: str, variant: str, players: int, count: int, seed: int) -> list[Any]:
    """`count` unfinished positions from random games of one setup, spread over their plies."""
    game = get_game(name)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        start = game.new(players=players, variant=variant, seed=rng.randrange(1000))
        stop = rng.randrange(0, 12 if name == "kyo" else 60)
        *_, state = random_states(game, rng, start, bound=stop)
        if game.outcome(state) is None:
            found.append(state)
    return found


@pytest.mark.parametrize(("name", "variant", "players"), SETUPS)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_move_is_legal(name: str, variant: str, players: int, level: int) -> None:
    game = get_game(name)
    for index, state in enumerate(positions(name, variant, players, 3, seed=level)):
        move = ai.choose_move(name, state, level=level, seed=index, nodes=30)
        assert move in game.legal_moves(state)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_seed_and_a_node_budget_give_the_same_move(name: str) -> None:
    game = get_game(name)
    for index, state in enumerate(positions(name, game.default_variant, 2, 2, seed=7)):
        first = ai.choose(name, state, level=3, seed=index, nodes=60)
        again = ai.choose(name, state, level=3, seed=index, nodes=60)
        assert first.move == again.move and first.info == again.info


def test_a_time_budget_alone_still_answers() -> None:
    state = get_game("boku").new()
    assert ai.choose_move("boku", state, level=3, seconds=0.01) in GAMES["boku"].legal_moves(state)


@pytest.mark.parametrize("name", ["boku", "quorum", "razzle", "boost"])
def test_takes_a_win_in_one(name: str) -> None:
    """From positions a move away from a win, level 1 finds the win (both searches look)."""
    game = get_game(name)
    rng = random.Random(3)
    checked = 0
    while checked < 3:
        states = list(random_states(game, rng))
        final, before = states[-1], states[-2]
        outcome = game.outcome(final)
        if outcome is None or outcome.winners != (game.to_move(before),):
            continue
        move = ai.choose_move(name, before, level=1, seed=1)
        after = game.outcome(game.apply(before, move))
        assert after is not None and after.winners == outcome.winners
        checked += 1


def test_no_move_for_a_finished_game() -> None:
    game = get_game("quorum")
    over = game.resign(game.new(), 1)
    with pytest.raises(IllegalMove):
        ai.choose_move("quorum", over)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level"):
        ai.choose_move("boku", get_game("boku").new(), level=4)


def test_a_limit_needs_a_budget() -> None:
    with pytest.raises(ValueError):
        Limit()


def test_an_unfinished_iteration_that_only_sees_its_first_move_lose_proves_nothing() -> None:
    def iteration(moves: list[str], depth: int) -> tuple[str, float, bool]:
        if depth == 1:
            return "a", 1.0, True  # every move searched: "a" is best
        return "a", -WIN, False  # out of time once "a" was seen losing, "b" not searched

    assert deepen(iteration, ["a", "b"], 8) == ("a", 1.0, 1)


def test_an_unfinished_iteration_that_sees_two_moves_lose_proves_nothing_either() -> None:
    def iteration(moves: list[str], depth: int) -> tuple[str, float, bool]:
        return ("a", 1.0, True) if depth == 1 else ("b", -WIN + 7, False)  # "c" not searched

    assert deepen(iteration, ["a", "b", "c"], 8) == ("b", 1.0, 1)
    assert deepen(lambda moves, depth: ("a", -WIN, False), ["a", "b"], 8) == ("a", 0.0, 0)


def test_an_unfinished_iteration_keeps_its_deeper_value_and_a_found_win() -> None:
    def deeper(moves: list[str], depth: int) -> tuple[str, float, bool]:
        return ("a", 1.0, True) if depth == 1 else ("a", -2.5, False)

    def won(moves: list[str], depth: int) -> tuple[str, float, bool]:
        return ("a", 1.0, True) if depth == 1 else ("a", WIN, False)

    assert deepen(deeper, ["a", "b"], 8) == ("a", -2.5, 1)
    assert deepen(won, ["a", "b"], 8) == ("a", WIN, 1)
