"""/takeback with every other player's acceptance, and /resign's confirmation."""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline import OfflineDiscord
from bot.store import JobKind
from rules import get_game
from tests.bot.support import new_bot, private, public, start_match


def test_a_takeback_in_three_player_boost_needs_both_others(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob, carol) = await start_match(h, "boost", 3)
        seed = (await h.bot.service.cache.get(match_id)).row.seed
        game = get_game("boost")
        state = game.new(players=3, seed=seed)
        opening = game.format_move(state, game.legal_moves(state)[0])
        before = game.dump((await h.bot.service.cache.get(match_id)).state)
        await h.command(alice, "move", move=opening)

        refused = private(await h.command(bob, "takeback"))[0].content
        assert "only take back your own move" in refused
        (asked,) = public(await h.command(alice, "takeback"))
        assert f"alice asks to take back **{opening}**" in asked.content
        assert f"<@{bob.id}>" in asked.content and f"<@{carol.id}>" in asked.content
        assert asked.buttons == ["Accept takeback", "Decline"]
        own = await h.click(alice, asked.message_id or 0, "Accept takeback")
        assert "your own request" in private(own)[0].content

        sent = await h.click(bob, asked.message_id or 0, "Accept takeback")
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert "bob accepted" in edit.content and f"<@{carol.id}>" in edit.content
        assert f"<@{bob.id}>:" not in edit.content
        assert len(await h.bot.store.moves(match_id)) == 1  # not yet

        sent = await h.click(carol, asked.message_id or 0, "Accept takeback")
        (board,) = public(sent)
        assert f"**{opening}** was taken back" in board.content
        assert f"<@{alice.id}>, your move" in board.content and board.pngs
        match = await h.bot.service.cache.get(match_id)
        assert match.row.ply == 0 and await h.bot.store.moves(match_id) == []
        assert match.game.dump(match.state) == before
        assert await h.bot.service.audit.check() == []
        sent = await h.command(alice, "move", move=opening)  # and play goes on
        assert f"alice played **{opening}**" in public(sent)[0].content

    offline(scenario)


def test_a_declined_or_outdated_takeback_leaves_the_move(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        (asked,) = public(await h.command(alice, "takeback"))
        sent = await h.click(bob, asked.message_id or 0, "Decline")
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert "bob declined: the move stands" in edit.content and edit.buttons == []
        (again,) = public(await h.command(alice, "takeback"))
        await h.command(bob, "move", move="h8h4")
        late = await h.click(bob, again.message_id or 0, "Accept takeback")
        assert "out of date" in private(late)[0].content
        assert (
            "only take back your own move" in private(await h.command(alice, "takeback"))[0].content
        )
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3", "h8h4"]

    offline(scenario)


def test_nothing_to_take_back_at_the_start_or_after_the_end(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        assert "only take back" in private(await h.command(alice, "takeback"))[0].content
        await h.command(alice, "move", move="a1e3")
        await h.bot.service.turns.resign(match_id, bob.id)
        assert (
            "is over" in private(await h.command(alice, "takeback", match=str(match_id)))[0].content
        )

    offline(scenario)


def test_resign_asks_first_and_cancel_changes_nothing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        (question,) = private(await h.command(bob, "resign"))
        assert question.content.startswith("Resign Quorum #1: alice vs bob?")
        assert question.buttons == ["Resign", "Cancel"] and question.for_user == bob.id
        sent = await h.click(bob, question.message_id or 0, "Cancel")
        assert [s.content for s in sent if s.kind == "edit"] == ["Cancelled: nothing changed."]
        assert public(sent) == [] and (await h.bot.service.cache.get(match_id)).status == "active"
        (question,) = private(await h.command(bob, "resign"))
        sent = await h.click(bob, question.message_id or 0, "Resign")
        assert "bob resigned" in public(sent)[0].content
        assert [s.content for s in sent if s.kind == "edit"][-1] == "You resigned from Quorum #1."
        refused = private(await h.command(h.user("mallory"), "resign", None, match=str(match_id)))
        assert "is over (finished)" in refused[0].content

    offline(scenario)


@pytest.mark.both_backends
def test_resign_and_takeback_buttons_work_after_a_restart(offline: Any, database: str) -> None:
    """Both are persistent: their custom ids carry the match, so a click after a restart
    still answers."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        (asked,) = public(await h.command(alice, "takeback"))
        (question,) = private(await h.command(bob, "resign"))
        await h.restart(new_bot(database))
        sent = await h.click(bob, asked.message_id or 0, "Accept takeback")
        assert "**a1e3** was taken back" in public(sent)[0].content
        assert (await h.bot.service.cache.get(match_id)).row.ply == 0
        sent = await h.click(bob, question.message_id or 0, "Resign")
        assert "bob resigned" in public(sent)[0].content
        assert (await h.bot.service.cache.get(match_id)).status == "finished"

    offline(scenario)


@pytest.mark.both_backends
def test_a_takeback_whose_board_discord_fails_is_posted_once_it_is_back(offline: Any) -> None:
    """bob accepts alice's takeback while Discord fails posts: the position it goes back to
    is posted when the outage ends, and only then does alice's clock start."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        await h.command(alice, "move", move="b1d3")
        (asked,) = public(await h.command(alice, "takeback"))
        h.fail_posts(3 * 3600)
        await h.click(bob, asked.message_id or 0, "Accept takeback")
        store = h.bot.store
        assert (await h.bot.service.cache.get(match_id)).row.ply == 2
        assert await store.due_time(match_id, JobKind.TIMEOUT, 2) is None  # no clock yet
        sent = await h.advance(4 * 3600)
        boards = [s for s in public(sent) if s.pngs]
        assert len(boards) == 1 and f"<@{alice.id}>, your move" in boards[0].content
        assert await store.due_time(match_id, JobKind.TIMEOUT, 2) is not None

    offline(scenario)
