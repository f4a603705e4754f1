"""Challenges through the offline Discord: posting, answering, threads, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline import OfflineDiscord
from tests.bot.support import private, public, start_match

PNG = b"\x89PNG\r\n\x1a\n"


def test_challenge_accept_opens_a_thread_with_the_first_board(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        sent = await h.command(alice, "challenge", game="quorum", opponent=bob)
        assert sent[0].kind == "defer" and not sent[0].ephemeral
        (challenge,) = public(sent)
        assert challenge.buttons == ["Accept", "Decline", "Withdraw"]
        assert f"<@{bob.id}>" in challenge.content and "Quorum" in challenge.content

        sent = await h.click(bob, challenge.message_id or 0, "Accept")
        (thread,) = [s for s in sent if s.kind == "thread"]
        assert thread.message_id == challenge.message_id  # opened from the challenge
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert edit.buttons == [] and "game is on" in edit.content
        (board,) = public(sent)
        assert board.channel_id == thread.message_id
        assert board.pngs and board.pngs[0].startswith(PNG)
        assert board.buttons == ["Move"]
        assert f"<@{alice.id}>, your move" in board.content
        match = await h.bot.service.cache.get(1)
        assert match.status == "active" and match.row.thread_id == thread.message_id

    offline(scenario)


def test_a_stranger_or_the_challenger_cannot_answer(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest()
        refusals = (
            (mallory, "Accept", "for bob, not you"),
            (mallory, "Decline", "for bob, not you"),
            (alice, "Accept", "your own challenge"),
        )
        for who, label, reason in refusals:
            sent = await h.click(who, challenge.message_id or 0, label)
            (refusal,) = private(sent)
            assert not public(sent) and not [s for s in sent if s.kind == "edit"]
            assert refusal.for_user == who.id and reason in refusal.content
        sent = await h.click(mallory, challenge.message_id or 0, "Withdraw")
        assert "Only alice, who made this challenge" in private(sent)[0].content
        match = await h.bot.service.cache.get(1)
        assert match.status == "pending" and [s.accepted for s in match.seats] == [True, False]

    offline(scenario)


@pytest.mark.both_backends
def test_declined_challenge_is_closed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest()
        sent = await h.click(bob, challenge.message_id or 0, "Decline")
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert "bob declined" in edit.content and edit.buttons == []
        assert (await h.bot.service.cache.get(1)).status == "declined"
        assert not h.threads()
        # A client that still shows the old buttons can send a click anyway.
        stale = h.component_payload(bob, challenge.message_id or 0, "bg:accept:1")
        stale["message"] = {**stale["message"], "components": challenge.components}
        sent = await h.run(stale, bob, challenge.message_id)
        assert "no longer open" in private(sent)[0].content.lower()

    offline(scenario)


def test_withdrawn_challenge_is_closed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest()
        sent = await h.click(alice, challenge.message_id or 0, "Withdraw")
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert "withdrew" in edit.content and edit.buttons == []
        assert (await h.bot.service.cache.get(1)).status == "withdrawn"
        sent = await h.command(alice, "move", move="a1e3")
        assert "no match in progress" in private(sent)[0].content.lower()

    offline(scenario)


def test_bad_challenges_are_refused_before_anything_is_stored(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, robot = h.user("alice"), h.user("bob"), h.user("robot", bot=True)
        cases: list[tuple[dict[str, Any], str]] = [
            ({"opponent": alice}, "cannot challenge yourself"),
            ({"opponent": robot}, "is a bot"),
            ({"opponent": bob, "opponent2": bob}, "named twice"),
            (
                {"opponent": bob, "opponent2": h.user("carol")},
                "quorum is played by 2 players, not 3: name 1 opponent.",
            ),
            ({"opponent": bob, "variant": "huge"}, "no variant 'huge'"),
        ]
        for options, reason in cases:
            sent = await h.command(alice, "challenge", game="quorum", **options)
            assert [s.kind for s in sent] == ["message"], sent  # answered at once, no defer
            assert sent[0].ephemeral and reason in sent[0].content.lower(), sent[0].content
        sent = await h.command(alice, "challenge", game="chess", opponent=bob)
        assert sent[0].content.startswith("'chess' is not a choice for game.")
        assert await h.bot.store.match_ids() == []

    offline(scenario)


def test_thread_refused_falls_back_to_the_channel(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "create_public_threads")
        match_id, (alice, bob) = await start_match(h)
        board = h.latest(lambda s: "Move" in s.buttons)
        assert board.channel_id == h.channel_id and board.pngs
        assert not h.threads()
        sent = await h.command(alice, "move", move="a1e3")
        assert public(sent)[0].channel_id == h.channel_id
        assert (await h.bot.service.cache.get(match_id)).row.thread_id is None

    offline(scenario)
