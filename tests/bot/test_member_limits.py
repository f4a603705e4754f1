"""Limits per member (issue 38): pending challenges in all and to one person, tournaments
created and not over, analyses asked for and not done, games against the computer. A refusal
says the limit and what frees a place, and stores nothing; the numbers are settings."""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline import OfflineDiscord
from bot.service import ServiceError
from bot.service.deadlines import DAY_CHOICES
from bot.service.limits import Limits
from bot.settings import SettingsError, load_settings
from tests.bot.support import private, public, resign, start_match

NODES = 40  # level 1's own cap: quick and deterministic


def test_thirty_challenges_to_one_person_ping_them_three_times(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        refusals = []
        for number in range(30):  # each on its own terms: a repeated challenge is refused
            days = DAY_CHOICES[number % len(DAY_CHOICES)]  # before the limit counts it
            sent = await h.command(alice, "challenge", game="quorum", opponent=bob, days=days)
            refusals += [s.content for s in private(sent)]
        assert len(await h.bot.store.match_ids()) == 3
        pings = [s for s in public(h.sent) if f"<@{bob.id}>" in s.content]
        assert len(pings) == 3
        assert len(refusals) == 27
        limited = [r for r in refusals if "as many as one member may send" in r]
        assert len(limited) == 16, "the other 11 repeat one of the 3 waiting: refused as such"
        assert refusals[0] == (
            "You have 3 challenges to bob waiting already, as many as one member may send "
            "one person.\n-# wait for bob to answer, or withdraw one: /matches lists them"
        )
        carol = h.user("carol")
        (challenge,) = public(await h.command(alice, "challenge", game="quorum", opponent=carol))
        assert f"<@{carol.id}>" in challenge.content, "others may still be challenged"

    offline(scenario)


def test_challenges_in_all_are_limited_and_an_answer_frees_a_place(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, carol, dave = (h.user(n) for n in ("alice", "bob", "carol", "dave"))
        for user in (bob, carol):
            await h.command(alice, "challenge", game="quorum", opponent=user)
        (refused,) = private(await h.command(alice, "challenge", game="boku", opponent=dave))
        assert refused.content.startswith(
            "You have 2 challenges waiting for answers, as many as one member may."
        )
        assert "accepted, declined, withdrawn or expires" in refused.content
        assert len(await h.bot.store.match_ids()) == 2
        await h.click(
            bob, h.latest(lambda s: f"<@{bob.id}>" in s.content).message_id or 0, "Decline"
        )
        assert public(await h.command(alice, "challenge", game="boku", opponent=dave))
        assert len(await h.bot.store.match_ids()) == 3

    offline(scenario, limits=Limits(challenges=2))


def test_tournaments_created_are_limited_per_server(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        for _ in range(2):
            await h.command(alice, "tournament create", game="quorum", format="swiss")
        (refused,) = await h.command(alice, "tournament create", game="quorum", format="swiss")
        assert refused.ephemeral and refused.content.startswith(
            "You have 2 tournaments open or running on this server, as many as one member"
        )
        assert "one is freed when it ends" in refused.content
        assert len(await h.bot.service.tournaments.listing(h.guild_id)) == 2
        await h.command(bob, "tournament create", game="quorum", format="swiss")
        elsewhere = h.server_channel("other")
        await h.command(alice, "tournament create", elsewhere, game="quorum", format="swiss")
        assert len(await h.bot.service.tournaments.listing(h.guild_id)) == 3

    offline(scenario)


def test_games_against_the_computer_are_limited(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "challenge", game="quorum", opponent=h.bot_user, level=1)
        sent = await h.command(alice, "challenge", game="boku", opponent=h.bot_user, level=1)
        (refused,) = private(sent)
        assert refused.content.startswith(
            "You have 1 game against the computer going, as many as one member may play"
        )
        assert "/resign" in refused.content
        assert len(await h.bot.store.match_ids()) == 1
        await resign(h, alice)
        assert public(await h.command(alice, "challenge", game="boku", opponent=h.bot_user))

    offline(scenario, limits=Limits(computer_games=1), ai_nodes=NODES)


def test_analyses_waiting_are_limited_and_joining_one_is_not(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        analyses = h.bot.service.analyses
        finished = []
        for _ in range(2):
            match_id, (alice, bob) = await start_match(h)
            await resign(h, bob)
            finished.append(await h.bot.service.cache.get(match_id))
        first = await analyses.request(finished[0], alice.id)
        assert first.started
        with pytest.raises(ServiceError) as refused:
            await analyses.request(finished[1], alice.id)
        assert str(refused.value.message).startswith(
            "You have 1 analysis waiting or running, as many as one member may ask for."
        )
        assert await h.bot.store.analysis(finished[1].id) is None
        joined = await analyses.request(finished[0], bob.id)
        assert not joined.started
        assert (await analyses.request(finished[1], bob.id)).started, "bob has none of his own"
        await h.settle()

    offline(scenario, limits=Limits(analyses=1), ai_nodes=NODES)


def test_the_limits_are_settings() -> None:
    found = load_settings({"LIMIT_CHALLENGES_TO_ONE": "1", "LIMIT_ANALYSES": "9"}, None)
    assert found.limits == Limits(challenges_to_one=1, analyses=9)
    assert load_settings({}, None).limits == Limits()
    with pytest.raises(SettingsError, match="LIMIT_TOURNAMENTS"):
        load_settings({"LIMIT_TOURNAMENTS": "0"}, None)
