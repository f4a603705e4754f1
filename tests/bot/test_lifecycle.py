"""Issue 39 end to end: ratings on the familiar scale, aborts, lapsed draw offers, duplicate
challenges, tournament admin and one turn count everywhere."""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline import OfflineDiscord
from bot.service import rating_model as ratings
from rules import Outcome
from tests.bot.support import private, resign, start_match


def test_a_newcomer_shows_1500_and_a_class_is_about_200_points() -> None:
    newcomer = ratings.newcomer("quorum", 1)
    assert ratings.shown(newcomer) == "1,500?"
    stronger = ratings.MODEL.mu + 200 / ratings.SCALE
    assert ratings.points(stronger) == 1700
    # openskill's own prediction for that gap, with settled ratings: Elo's 76%.
    settled = [ratings.MODEL.create_rating([mu, 0.1]) for mu in (stronger, ratings.MODEL.mu)]
    chance = ratings.MODEL.predict_win([[settled[0]], [settled[1]]])[0]
    assert 0.74 < chance < 0.78


def test_a_rating_is_provisional_for_its_first_games() -> None:
    standing = ratings.newcomer("quorum", 1)
    for _ in range(ratings.PROVISIONAL_GAMES):
        assert ratings.shown(standing).endswith("?")
        standing, _ = ratings.after_match("quorum", [1, 2], Outcome((2,), "quorum"), {1: standing})
    assert not ratings.shown(standing).endswith("?")
    assert ratings.rating(standing).points < 1500


@pytest.mark.both_backends
def test_a_rated_result_shows_both_new_ratings_and_changes(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await resign(h, bob)
        ending = h.latest(lambda s: "Game over" in s.content)
        assert "Ratings: alice 1,626? (+126), bob 1,374? (-126)." in ending.content
        (board,) = private(await h.command(bob, "leaderboard", game="quorum"))
        lines = board.embeds[0]["description"].splitlines()
        assert "**1,626?**" in lines[0] and "**1,374?**" in lines[1]
        (profile,) = private(await h.command(bob, "profile"))
        fields = {f["name"]: f["value"] for f in profile.embeds[0]["fields"]}
        assert "**1,374?**" in fields["Quorum"]

    offline(scenario)
