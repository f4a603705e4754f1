"""Ratings: the pure update, and counting each finished match exactly once on both stores."""

from __future__ import annotations

import asyncio

from bot.service import MatchService, Player
from bot.service import rating_model as ratings
from bot.store import open_store
from rules import Outcome
from tests.bot.test_store import ALICE, BOB, run, started

CAROL = Player(13, "carol")


def test_the_winner_rises_and_a_loser_falls() -> None:
    after = ratings.after_match("quorum", [1, 2], Outcome((2,), "resignation"), {})
    loser, winner = after
    assert ratings.points(winner.mu) > 1500 > ratings.points(loser.mu)
    assert (winner.games, winner.wins, winner.losses, winner.streak) == (1, 1, 0, 1)
    assert (loser.games, loser.wins, loser.losses, loser.streak) == (1, 0, 1, -1)
    assert loser.sigma < ratings.newcomer("quorum", 1).sigma, "a result makes the model surer"


def test_a_draw_between_equals_changes_no_mu_and_resets_streaks() -> None:
    before = {1: ratings.after_match("boku", [1, 2], Outcome((1,), "five"), {})[0]}
    one, two = ratings.after_match("boku", [1, 2], Outcome((), "agreement"), before)
    assert (one.draws, one.streak, two.draws, two.streak) == (1, 0, 1, 0)
    assert one.mu < before[1].mu, "the stronger player drawing with a newcomer loses a little"


def test_streaks_count_on_and_flip() -> None:
    standing = ratings.newcomer("quorum", 1)
    for winners in [(1,), (1,), (1,), (2,), (2,)]:
        (standing, _) = ratings.after_match(
            "quorum", [1, 2], Outcome(winners, "quorum"), {1: standing}
        )
    assert standing.streak == -2 and ratings.streak(standing) == "2 losses in a row"
    assert (standing.wins, standing.losses) == (3, 2)
    assert ratings.record(standing) == "3W 0D 2L"


def test_a_four_player_boost_result_ranks_the_winner_over_three_losers() -> None:
    after = ratings.after_match("boost", [1, 2, 3, 4], Outcome((3,), "tower"), {})
    winner = after[2]
    losers = [after[0], after[1], after[3]]
    assert all(winner.mu > loser.mu for loser in losers)
    assert len({round(loser.mu, 9) for loser in losers}) == 1, "equal losers move alike"
    assert winner.mu - 25 > 25 - losers[0].mu, "beating three moves the winner most"


def test_a_finished_match_is_rated_once_and_again_after_a_restart_changes_nothing(
    database_url: str,
) -> None:
    """The result is saved, then the process stops before the ratings are written: the next
    start's catch-up rates the match, and neither a second catch-up nor a late rate of the
    same match counts it again."""

    async def main() -> None:
        store, service, match_id = await started(database_url)
        service.turns.finished = None  # the process stops between the result and the rating
        await service.turns.resign(match_id, BOB.user_id)
        assert await store.leaderboard(1, "quorum", 10) == []
        assert await store.unrated_matches() == [match_id]
        await store.close()

        store = await open_store(database_url)  # the restart
        restarted = MatchService(store)
        assert await restarted.ratings.catch_up() == 1
        assert await restarted.ratings.catch_up() == 0
        assert not await restarted.ratings.rate(await restarted.cache.get(match_id))
        board = await store.leaderboard(1, "quorum", 10)
        assert [(r.user_id, r.games, r.wins, r.losses) for r in board] == [
            (ALICE.user_id, 1, 1, 0),
            (BOB.user_id, 1, 0, 1),
        ]
        assert await store.unrated_matches() == []
        await store.close()

    run(main())


def test_two_matches_ending_at_once_for_one_player_both_count(database_url: str) -> None:
    """Rated from two connections at once (two processes): neither update is lost, and racing
    rates of one match count it once."""

    async def main() -> None:
        store, service, first = await started(database_url)
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[CAROL]
        )
        second = (await service.challenges.open(request)).id
        await service.challenges.accept(second, CAROL.user_id)
        service.turns.finished = None
        await service.turns.resign(first, BOB.user_id)
        await service.turns.resign(second, CAROL.user_id)
        others = [await open_store(database_url) for _ in range(3)]
        services = [MatchService(s) for s in (store, *others)]
        ids = (first, second, first, second)
        matches = [await s.cache.get(m) for s, m in zip(services, ids, strict=True)]
        rated = await asyncio.gather(
            *(s.ratings.rate(m) for s, m in zip(services, matches, strict=True))
        )
        assert sorted(rated) == [False, False, True, True]
        (alice,) = await store.ratings_of(1, ALICE.user_id)
        assert (alice.games, alice.wins, alice.streak) == (2, 2, 2)
        for other in others:
            await other.close()
        await store.close()

    run(main())


def test_unrated_matches_leave_ratings_alone(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        service = MatchService(store)
        friendly = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB], rated=False
        )
        match = await service.challenges.open(friendly)
        await service.challenges.accept(match.id, BOB.user_id)
        await service.turns.resign(match.id, BOB.user_id)
        assert (await service.cache.get(match.id)).row.rated is False
        assert await store.leaderboard(1, "quorum", 10) == []
        assert await store.unrated_matches() == []
        await store.close()

    run(main())


def test_a_game_with_a_bot_in_a_seat_is_never_rated(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        engine = Player(99, "Board Games", bot=True)
        request = MatchService(store).challenges.prepare(
            guild_id=1, channel_id=2, challenger=engine, game="quorum", opponents=[BOB]
        )
        assert not request.rated
        await store.close()

    run(main())
