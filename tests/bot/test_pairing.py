"""Pairing and standings alone: the Berger tables, the Swiss rules of issue 30, tie-breaks."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.pairing import (
    DRAW,
    LOSS,
    TIEBREAKS,
    WIN,
    NoPairing,
    Pairing,
    Result,
    System,
    head_to_head,
    most_rounds,
    pair_swiss,
    played,
    round_robin,
    standings,
    swiss_rounds,
)

BERGER_FOUR = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
"""The published Berger table for four players (FIDE Handbook C.05, annex 1)."""


def boards(round_: Sequence[Pairing]) -> list[tuple[int, int | None]]:
    return [(pairing.first, pairing.second) for pairing in round_]


def sides(history: Sequence[Result]) -> dict[int, str]:
    """Each player's sides in round order: '1' first, '2' second."""
    seats: dict[int, str] = {}
    for result in sorted(history, key=lambda r: r.round):
        if result.pairing.second is not None:
            seats[result.pairing.first] = seats.get(result.pairing.first, "") + "1"
            seats[result.pairing.second] = seats.get(result.pairing.second, "") + "2"
    return seats


def play(round_: int, pairings: Sequence[Pairing], rng: random.Random) -> list[Result]:
    """Random results for a round: a bye is a win, boards go 1, ½ or 0."""
    return [
        Result(round_, pairing, WIN if pairing.bye else rng.choice([WIN, DRAW, LOSS]))
        for pairing in pairings
    ]


def run_swiss(players: list[int], rounds: int, rng: random.Random) -> list[Result]:
    history: list[Result] = []
    for number in range(1, rounds + 1):
        history += play(number, pair_swiss(players, history), rng)
    return history


def test_four_players_follow_the_published_berger_table() -> None:
    assert [boards(r) for r in round_robin([1, 2, 3, 4])] == BERGER_FOUR


@pytest.mark.parametrize("count", range(3, 17))
def test_a_round_robin_meets_everyone_once_with_sides_balanced(count: int) -> None:
    players = list(range(1, count + 1))
    rounds = round_robin(players)
    assert len(rounds) == most_rounds(System.ROUND_ROBIN, count)
    for round_ in rounds:
        seated = [p for pairing in round_ for p in pairing.players]
        assert sorted(seated) == players, "everyone sits once a round"
        assert sum(pairing.bye for pairing in round_) == count % 2
    games = [frozenset(p.players) for r in rounds for p in r if not p.bye]
    assert sorted(map(sorted, games)) == sorted(map(list, itertools.combinations(players, 2)))
    byes = [p.first for r in rounds for p in r if p.bye]
    assert sorted(byes) == (players if count % 2 else [])
    history = [Result(n, p, WIN) for n, r in enumerate(rounds, 1) for p in r]
    for seats in sides(history).values():
        assert abs(seats.count("1") - seats.count("2")) <= 1
        assert "111" not in seats and "222" not in seats


@pytest.mark.parametrize("count", [3, 4, 5, 8])
def test_a_double_round_robin_plays_each_pair_twice_sides_swapped(count: int) -> None:
    players = list(range(1, count + 1))
    rounds = round_robin(players, double=True)
    assert len(rounds) == most_rounds(System.ROUND_ROBIN, count, double=True)
    games = Counter((p.first, p.second) for r in rounds for p in r if not p.bye)
    for a, b in itertools.combinations(players, 2):
        assert games[(a, b)] == 1 and games[(b, a)] == 1
    history = [Result(n, p, WIN) for n, r in enumerate(rounds, 1) for p in r]
    assert all(s.count("1") == s.count("2") for s in sides(history).values())


def test_default_swiss_length() -> None:
    assert [swiss_rounds(n) for n in (3, 5, 8, 9, 16, 17, 64)] == [3, 3, 3, 4, 4, 5, 6]


def test_round_one_pairs_the_top_half_with_the_bottom_half_alternating_sides() -> None:
    assert boards(pair_swiss([1, 2, 3, 4, 5, 6], [])) == [(1, 4), (5, 2), (3, 6)]
    assert boards(pair_swiss([1, 2, 3, 4, 5], [])) == [(1, 3), (4, 2), (5, None)]


def test_round_two_pairs_within_score_groups_from_the_top() -> None:
    first = pair_swiss(list(range(1, 9)), [])
    history = [Result(1, pairing, WIN) for pairing in first]
    winners = {pairing.first for pairing in first}
    for pairing in pair_swiss(list(range(1, 9)), history):
        assert (pairing.first in winners) == (pairing.second in winners)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    history = [
        Result(1, Pairing(1, 3), WIN),
        Result(1, Pairing(4, 2), WIN),
        Result(1, Pairing(5), WIN),
    ]
    round_two = pair_swiss([1, 2, 3, 4, 5], history)
    assert round_two[-1] == Pairing(3), "3 and 2 have nothing; 3 is seeded lower; 5 had one"


def test_a_rematch_is_never_paired_even_across_score_groups() -> None:
    history = [Result(1, Pairing(1, 2), WIN), Result(1, Pairing(3, 4), WIN)]
    history += [Result(2, Pairing(3, 1), LOSS), Result(2, Pairing(2, 4), WIN)]
    assert {frozenset(p.players) for p in pair_swiss([1, 2, 3, 4], history)} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_nobody_gets_the_same_side_three_times_where_avoidable() -> None:
    history = [
        Result(1, Pairing(1, 2), WIN),
        Result(1, Pairing(3, 4), WIN),
        Result(2, Pairing(1, 3), DRAW),
        Result(2, Pairing(4, 2), DRAW),
    ]
    seats = sides(history)
    assert seats[1] == "11" and seats[2] == "22"
    for pairing in pair_swiss([1, 2, 3, 4, 5, 6], history):
        assert pairing.first != 1 and pairing.second != 2


def test_a_field_out_of_new_opponents_cannot_be_paired() -> None:
    history = [Result(n, p, WIN) for n, r in enumerate(round_robin([1, 2, 3, 4]), 1) for p in r]
    with pytest.raises(NoPairing):
        pair_swiss([1, 2, 3, 4], history)


def test_a_withdrawn_player_is_not_paired_but_keeps_their_results() -> None:
    history = [Result(1, Pairing(1, 3), WIN), Result(1, Pairing(4, 2), DRAW)]
    round_two = pair_swiss([1, 2, 4], history)
    assert 3 not in {p for pairing in round_two for p in pairing.players}
    table = standings([1, 2, 3, 4], history, System.SWISS)
    assert [(s.player, s.games) for s in table][-1] == (3, 1)


def test_a_board_scores_one_half_or_nothing() -> None:
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        Result(1, Pairing(1, 2), 0.7)
    with pytest.raises(ValueError, match="worth a win"):
        Result(1, Pairing(1), DRAW)


def test_swiss_tiebreaks_are_buchholz_then_sonneborn_berger_then_head_to_head() -> None:
    history = [
        Result(1, Pairing(1, 2), WIN),
        Result(1, Pairing(3, 4), DRAW),
        Result(2, Pairing(3, 1), WIN),
        Result(2, Pairing(2, 4), LOSS),
    ]
    table = standings([1, 2, 3, 4], history, System.SWISS)
    assert TIEBREAKS[System.SWISS] == ("Buchholz", "Sonneborn-Berger", "head-to-head")
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (3, 1, 1.5, (2.5, 1.75, 0.0)),
        (4, 2, 1.5, (1.5, 0.75, 0.0)),
        (1, 3, 1.0, (1.5, 0.0, 0.0)),
        (2, 4, 0.0, (2.5, 0.0, 0.0)),
    ]
    assert (table[0].wins, table[0].draws, table[0].losses) == (1, 1, 0)


def test_players_level_on_everything_share_a_rank_listed_by_seed() -> None:
    history = [
        Result(1, Pairing(1, 2), LOSS),
        Result(1, Pairing(3, 4), WIN),
        Result(2, Pairing(1, 3), WIN),
        Result(2, Pairing(2, 4), LOSS),
        Result(3, Pairing(1, 4), DRAW),
        Result(3, Pairing(2, 3), DRAW),
    ]
    table = standings([1, 2, 3, 4], history, System.ROUND_ROBIN)
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (player, 1, 1.5, (2.25, 1.5)) for player in (1, 2, 3, 4)
    ]
    assert head_to_head(played(history)[4], [1]) == DRAW


def test_head_to_head_separates_two_players_level_on_sonneborn_berger() -> None:
    history = [
        Result(1, Pairing(1, 4), WIN),
        Result(1, Pairing(2, 3), WIN),
        Result(2, Pairing(4, 3), DRAW),
        Result(2, Pairing(1, 2), DRAW),
        Result(3, Pairing(2, 4), WIN),
        Result(3, Pairing(3, 1), WIN),
    ]
    table = standings([1, 2, 3, 4], history, System.ROUND_ROBIN)
    assert TIEBREAKS[System.ROUND_ROBIN] == ("Sonneborn-Berger", "head-to-head")
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (2, 1, 2.5, (2.75, 0.0)),
        (3, 2, 1.5, (1.75, 1.0)),
        (1, 3, 1.5, (1.75, 0.0)),
        (4, 4, 0.5, (0.75, 0.0)),
    ], "3 and 1 are level on points and Sonneborn-Berger; 3 beat 1"


def test_a_swiss_tie_between_two_who_met_goes_to_the_winner_of_their_game() -> None:
    """Issue 39: 3 and 4 are level on points, Buchholz and Sonneborn-Berger, and 3 beat 4:
    3 takes second place alone instead of sharing it."""
    history = [
        Result(1, Pairing(1, 2), WIN),
        Result(1, Pairing(3, 4), WIN),
        Result(2, Pairing(1, 3), WIN),
        Result(2, Pairing(2, 4), LOSS),
        Result(3, Pairing(1, 4), DRAW),
        Result(3, Pairing(2, 3), DRAW),
    ]
    table = standings([1, 2, 3, 4], history, System.SWISS)
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 2.5, (3.5, 2.75, 0.0)),
        (3, 2, 1.5, (4.5, 1.75, 1.0)),
        (4, 3, 1.5, (4.5, 1.75, 0.0)),
        (2, 4, 0.5, (5.5, 0.75, 0.0)),
    ]


def test_head_to_head_splits_only_players_who_all_met() -> None:
    """1 beat 2, but neither met 3, all three level on points and Sonneborn-Berger: the game
    between 1 and 2 says nothing of 3, so the three share a rank (FIDE's direct encounter)."""
    history = [
        Result(1, Pairing(1, 2), WIN),
        Result(1, Pairing(3, 4), WIN),
        Result(2, Pairing(2, 5), WIN),
        Result(2, Pairing(4, 6), WIN),
        Result(3, Pairing(5, 6), WIN),
    ]
    table = standings([1, 2, 3, 4, 5, 6], history, System.ROUND_ROBIN)
    ranks = {s.player: s.rank for s in table}
    assert ranks[1] == ranks[2] == ranks[3] == 1
    assert [s.tiebreaks for s in table[:3]] == [(1.0, 1.0), (1.0, 0.0), (1.0, 0.0)]


@settings(max_examples=150, deadline=None)
@given(count=st.integers(3, 16), seed=st.integers(0, 2**32 - 1))
def test_random_swiss_events_keep_every_rule(count: int, seed: int) -> None:
    players = list(range(101, 101 + count))
    history = run_swiss(players, swiss_rounds(count), random.Random(seed))
    games = [frozenset(r.pairing.players) for r in history if not r.pairing.bye]
    assert len(games) == len(set(games)), "no pair meets twice"
    byes = [r.pairing.first for r in history if r.pairing.bye]
    assert len(byes) == len(set(byes)), "nobody has two byes"
    assert len(byes) == (swiss_rounds(count) if count % 2 else 0)
    for seats in sides(history).values():
        assert abs(seats.count("1") - seats.count("2")) <= 2
        assert "111" not in seats and "222" not in seats
    table = standings(players, history, System.SWISS)
    assert sum(s.points for s in table) == len(games) + len(byes)
    assert sum(s.games for s in table) == 2 * len(games)
    assert [s.rank for s in table] == sorted(s.rank for s in table)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 16), seed=st.integers(0, 2**32 - 1), double=st.booleans())
def test_random_round_robins_sum_to_the_games_played(count: int, seed: int, double: bool) -> None:
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    history = [
        r
        for n, pairings in enumerate(round_robin(players, double=double), 1)
        for r in play(n, pairings, rng)
    ]
    table = standings(players, history, System.ROUND_ROBIN)
    played = sum(1 for r in history if not r.pairing.bye)
    assert sum(s.points for s in table) == played + sum(s.byes for s in table)
    assert all(s.games == (count - 1) * (2 if double else 1) for s in table)
