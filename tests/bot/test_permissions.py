"""A permission withheld or a request rate limited: the member is told in one sentence what
the bot lacks where, and nothing is lost (the move is played, /board shows the match)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.offline import OfflineDiscord
from bot.posts.undelivered import Undelivered
from bot.texts import t
from tests.bot.support import private, public, resign, start_match


async def thread_of(h: OfflineDiscord, match_id: int) -> int:
    thread = (await h.bot.service.cache.get(match_id)).row.thread_id
    assert thread is not None
    return thread


async def board_is_shown(h: OfflineDiscord, user: Any, match_id: int) -> None:
    """/board in the channel (where the first member may also be told what the bot lacks)."""
    board = private(await h.command(user, "board", None, match=str(match_id)))[0]
    assert board.pngs


@pytest.mark.parametrize(
    ("withheld", "named"),
    [
        (("send_messages_in_threads",), "Send Messages in Threads"),
        (("attach_files",), "Attach Files"),
    ],
)
def test_a_move_whose_board_cannot_be_posted_is_still_played(
    offline: Any, withheld: tuple[str, ...], named: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        thread = await thread_of(h, match_id)
        h.withhold(h.channel_id, *withheld)
        (told,) = private(await h.command(alice, "move", thread, move="a1e3"))
        assert told.content == (
            f"I could not post the board in <#{thread}> because I lack the {named} "
            "permission there; nothing is lost: I will post it as soon as Discord takes it, "
            "and bob's clock starts only then."
        )
        assert len(await h.bot.store.moves(match_id)) == 1, "the move is played"
        await board_is_shown(h, bob, match_id)
        h.grant(h.channel_id)
        posted = public(await h.command(bob, "move", thread, move="h8h4"))
        assert posted[0].pngs and "a1e3" not in posted[0].content

    offline(scenario)


def test_the_match_starts_even_when_its_first_board_cannot_be_posted(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "send_messages", "create_public_threads")
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        (told,) = private(await h.click(bob, challenge.message_id or 0, "Accept"))
        assert "I lack the Send Messages permission there" in told.content
        (match_id,) = await h.bot.store.match_ids()
        assert (await h.bot.service.cache.get(match_id)).status == "active"
        await board_is_shown(h, alice, match_id)

    offline(scenario)


@pytest.mark.parametrize(
    ("withheld", "named"),
    [
        ("create_public_threads", "Create Public Threads"),
        ("read_message_history", "Read Message History"),
    ],
)
def test_without_a_thread_the_match_is_played_in_the_channel(
    offline: Any, withheld: str, named: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, withheld)
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        sent = await h.click(bob, challenge.message_id or 0, "Accept")
        (told,) = private(sent)
        assert told.content == (
            f"I could not open a thread for the match in <#{h.channel_id}> because I lack the "
            f"{named} permission there; the match is played in this channel instead."
        )
        assert public(sent)[0].channel_id == h.channel_id and public(sent)[0].pngs
        assert not h.threads()

    offline(scenario)


def test_without_manage_threads_the_finished_match_is_told_but_not_archived(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        h.withhold(h.channel_id, "manage_threads")
        sent = await resign(h, alice, await thread_of(h, match_id))
        assert "Game over" in public(sent)[0].content
        (told,) = private(sent)
        assert "archive the match thread" in told.content
        assert "I lack the Manage Threads permission there" in told.content
        assert (await h.bot.service.cache.get(match_id)).status == "finished"
        assert not any(s.kind == "archive" for s in h.sent)

    offline(scenario)


def test_without_embed_links_boards_still_post_as_they_carry_no_embeds(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "embed_links")
        match_id, (alice, _) = await start_match(h)
        sent = await h.command(alice, "move", await thread_of(h, match_id), move="a1e3")
        assert public(sent)[0].pngs and not private(sent), "no complaint, and no note"

    offline(scenario)


def test_a_board_post_answered_429_keeps_the_move_and_says_so(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        thread = await thread_of(h, match_id)
        h.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=2.5)
        (told,) = private(await h.command(alice, "move", thread, move="a1e3"))
        assert told.content == (
            f"I could not post the board in <#{thread}> because Discord asked me to slow down "
            "(for 2.5 s); nothing is lost: I will post it as soon as Discord takes it, and "
            "bob's clock starts only then."
        )
        assert len(await h.bot.store.moves(match_id)) == 1
        await board_is_shown(h, bob, match_id)
        assert public(await h.command(bob, "move", thread, move="h8h4"))[0].pngs

    offline(scenario)


def test_a_429_without_retry_after_says_for_a_moment_not_a_number() -> None:
    board = t("posts.undelivered.post_board")
    refused = Undelivered(board, (5,), ("send_messages",), retry_after="")
    told = refused.explain(discord.Permissions.all(), 5)
    assert "Discord asked me to slow down for a moment;" in told
    assert " s)" not in told
