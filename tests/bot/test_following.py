"""Following a match by DM, /next (what needs me, most urgent first) and /board's last moves,
through the offline Discord."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from discord.http import Route

from bot.clock import DAY
from bot.offline import OfflineDiscord, Sent
from bot.offline.harness import INTERACTION_TASKS
from bot.posts.notifications import FOLLOWER_SENDS
from rules import get_game
from tests.bot.support import START, private, public, resign, start_match


def dms(h: OfflineDiscord, sent: list[Sent], name: str) -> list[Sent]:
    channel = h.dm_channel(h.user(name))
    return [s for s in sent if s.kind == "message" and s.channel_id == channel]


def test_a_follower_gets_each_board_and_the_result_by_dm(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        dave = h.user("dave")
        (answer,) = private(await h.command(dave, "follow", match=str(match_id)))
        assert answer.content.startswith("You follow Quorum #1: alice vs bob")

        (turn,) = dms(h, await h.command(alice, "move", move="a1e3"), "dave")
        assert turn.content.startswith("**Quorum #1: alice vs bob** (you follow it)")
        assert "alice played **a1e3**" in turn.content and "bob to move (Black)." in turn.content
        assert f"Deadline: <t:{int(START) + DAY}:R>." in turn.content
        assert len(turn.pngs) == 1 and "<@" not in turn.content  # nobody pinged in a DM
        (result,) = dms(h, await resign(h, bob), "dave")
        assert "Game over: alice wins (resignation)" in result.content
        assert dms(h, await h.advance(2 * DAY), "dave") == []
        assert dms(h, await h.command(bob, "board"), "bob") == []  # players are not followers

    offline(scenario)


def test_unfollowing_stops_the_dms(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        dave = h.user("dave")
        await h.command(dave, "follow", match=str(match_id))
        (answer,) = private(await h.command(dave, "unfollow", match=str(match_id)))
        assert answer.content == "You no longer follow Quorum #1: alice vs bob."
        assert dms(h, await h.command(alice, "move", move="a1e3"), "dave") == []
        (again,) = private(await h.command(dave, "unfollow", match=str(match_id)))
        assert again.content.startswith("You do not follow Quorum #1")

    offline(scenario)


@pytest.mark.both_backends
def test_a_refused_dm_is_remembered_and_a_new_follow_says_why(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        dave = h.user("dave")
        await h.command(dave, "follow", match=str(match_id))
        h.closed_dms.add(dave.id)
        before = len(h.requests)
        sent = await h.command(alice, "move", move="a1e3")
        assert dms(h, sent, "dave") == [] and (await h.bot.store.preferences(dave.id)).dm_refused
        assert not [s for s in sent if "dave" in s.content]  # not said in the thread
        tried = len(h.requests) - before
        await h.command(bob, "move", move="h8h4")
        assert len(h.requests) - before < 2 * tried  # no DM tried again
        await h.command(dave, "unfollow", match=str(match_id))
        (refused,) = private(await h.command(dave, "follow", match=str(match_id)))
        assert refused.content.startswith("Discord refused my last direct message to you")
        assert await h.bot.store.followers(match_id) == []

    offline(scenario)


def test_following_refuses_what_cannot_be_followed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        dave = h.user("dave")
        cases = [
            (dave, "99", "There is no match #99"),
            (dave, "twelve", "'twelve' is not a match number"),
            (alice, str(match_id), "You play in Quorum #1: alice vs bob"),
        ]
        for user, ref, refusal in cases:
            (answer,) = private(await h.command(user, "follow", match=ref))
            assert answer.content.startswith(refusal), answer.content
        assert await h.autocomplete(dave, "follow", "match", None, match="") == [str(match_id)]
        assert await h.autocomplete(dave, "follow", "match", None, match="boku") == []
        elsewhere = h.server_channel("other")
        assert await h.autocomplete(dave, "follow", "match", elsewhere, match="") == []
        (hidden,) = private(await h.command(dave, "follow", elsewhere, match=str(match_id)))
        assert hidden.content.startswith(f"There is no match #{match_id}")  # another server's
        await h.command(dave, "follow", match=str(match_id))
        (twice,) = private(await h.command(dave, "follow", match=str(match_id)))
        assert twice.content.startswith("You follow Quorum #1: alice vs bob already")
        await resign(h, bob)
        await h.command(dave, "unfollow", match=str(match_id))
        (over,) = private(await h.command(dave, "follow", match=str(match_id)))
        assert over.content.startswith("Quorum #1 is over")
        assert await h.bot.store.followers(match_id) == []

    offline(scenario)


def test_next_lists_what_waits_for_me_least_time_left_first(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        slow, (alice, bob) = await start_match(h, days=7)  # alice to move: 7 days
        carol = h.user("carol")
        await h.command(carol, "challenge", game="boku", opponent=alice, days=1)
        await h.click(alice, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        fast = max(await h.bot.store.match_ids())  # carol moves first
        await h.command(carol, "move", move="e5", match=str(fast))  # alice: 1 day
        await h.advance(DAY // 4)
        await h.command(bob, "challenge", game="kyo", opponent=alice)  # expires in 7 days
        pending = max(await h.bot.store.match_ids())
        await h.command(alice, "challenge", game="razzle", opponent=carol, days=0)
        untimed = max(await h.bot.store.match_ids())
        await h.click(carol, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        await h.advance(DAY // 4)

        (answer,) = private(await h.command(alice, "next"))
        lines = answer.content.splitlines()
        assert [line.split(" · ")[0] for line in lines] == [
            f"• Boku #{fast}: carol vs alice",
            f"• Quorum #{slow}: alice vs bob",
            f"• Kyo #{pending}: bob vs alice",
            f"• Razzle Dazzle #{untimed}: alice vs carol",
        ]
        assert lines[0].endswith(
            f"your move, due <t:{int(START) + DAY}:R> · " + lines[0].split(" · ")[-1]
        )
        assert "your answer to the challenge" in lines[2] and "no time limit" in lines[3]
        assert all("https://discord.com/channels/" in line for line in lines)
        (nothing,) = private(await h.command(bob, "next"))
        assert nothing.content.startswith("Nothing waits for you")

    offline(scenario)


def test_board_shows_the_last_ten_moves_as_text(offline: Any) -> None:
    quorum = get_game("quorum")
    rng = random.Random(3)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h)
        played = []
        for _ in range(12):
            match = await h.bot.service.cache.get(match_id)
            move = rng.choice(list(quorum.legal_moves(match.state)))
            text = quorum.format_move(match.state, move)
            await h.command(users[quorum.to_move(match.state) - 1], "move", move=text)
            played.append(text)
        (board,) = private(await h.command(users[0], "board"))
        shown = "  ".join(f"{n}. {m}" for n, m in enumerate(played, 1) if n > 2)
        assert f"Last moves: `{shown}`" in board.content
        assert len(board.pngs) == 1

    offline(scenario)


def test_forty_followers_get_their_dm_a_few_at_a_time_after_the_answer(offline: Any) -> None:
    """The move is answered while every follower's DM is still held back by Discord; then
    at most FOLLOWER_SENDS DMs are in flight at once, and all forty arrive."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h)
        fans = [h.user(f"fan{n}") for n in range(40)]
        for fan in fans:
            await h.command(fan, "follow", match=str(match_id))
        gate, full = asyncio.Event(), asyncio.Event()
        in_flight: list[int] = []
        most = 0
        usual = h.bot.http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            nonlocal most
            channel = int(route.channel_id or 0)
            if route.method != "POST" or channel not in {h.dm_channel(fan) for fan in fans}:
                return await usual(route, **kwargs)
            in_flight.append(channel)
            most = max(most, len(in_flight))
            if len(in_flight) == FOLLOWER_SENDS:
                full.set()
            await gate.wait()
            in_flight.remove(channel)
            return await usual(route, **kwargs)

        h.bot.http.request = request  # type: ignore[method-assign]
        start = len(h.sent)
        h.dispatch(h.command_payload(alice, "move", move="a1e3"), alice)
        await asyncio.wait_for(h.settle(INTERACTION_TASKS), 10)  # not waiting for the DMs
        answered = public(h.sent[start:])
        assert any("alice played **a1e3**" in s.content for s in answered), "the move is answered"
        assert not any(dms(h, h.sent[start:], fan.name) for fan in fans), "no DM arrived yet"
        try:
            await asyncio.wait_for(full.wait(), 10)
            await h.settle(INTERACTION_TASKS)
            assert len(in_flight) == FOLLOWER_SENDS
        finally:
            gate.set()
        await h.settle()
        assert most == FOLLOWER_SENDS, "a few DMs at a time, never more"
        for fan in fans:
            (dm,) = dms(h, h.sent[start:], fan.name)
            assert "alice played **a1e3**" in dm.content and len(dm.pngs) == 1

    offline(scenario)
