"""Boards from each viewer's side and in their theme, the server's settings, and alt text on
every attachment (issue 28), through the offline Discord."""

from __future__ import annotations

import random
from typing import Any

from bot.offline import OfflineDiscord
from bot.offline.records import Sent
from bot.posts.pictures import picture_words
from renderers import render_png
from rules import get_game
from tests.bot.support import private, public, resign, start_match

WORDS = picture_words("en")


async def picture(h: OfflineDiscord, match_id: int, **view: Any) -> bytes:
    """The board of a match now, as the renderer draws it for `view`."""
    match = await h.bot.service.cache.get(match_id)
    return render_png(match.game.name, match.state, names=match.names, words=WORDS, **view)


async def private_board(h: OfflineDiscord, user: Any, match_id: int) -> bytes:
    (board,) = private(await h.command(user, "board", None, match=str(match_id)))
    (png,) = board.pngs
    return png


def test_each_player_sees_their_own_board_from_their_side(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        carol = h.user("carol")
        first = await picture(h, match_id)
        assert await private_board(h, alice, match_id) == first
        bob_side = await picture(h, match_id, perspective=2)
        assert bob_side != first
        assert await private_board(h, bob, match_id) == bob_side
        assert await private_board(h, carol, match_id) == first, "a spectator sees seat 1's"
        (thread_board,) = h.latest(lambda s: "Move" in s.buttons).pngs
        assert thread_board == first, "thread posts keep seat 1 at the bottom"
        (told,) = private(await h.command(bob, "settings", flip="off"))
        assert "**off**: always from the first player's side" in told.content
        assert await private_board(h, bob, match_id) == first

    offline(scenario)


def test_a_theme_changes_that_members_pictures_and_dms_only(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        (told,) = private(await h.command(alice, "settings", theme="dark"))
        assert "Theme of the boards shown to you and sent to you: **dark**" in told.content
        assert await private_board(h, alice, match_id) == await picture(h, match_id, theme="dark")
        assert await private_board(h, bob, match_id) == await picture(h, match_id, perspective=2)
        await h.command(bob, "settings", dm="on", theme="high-contrast")
        posted = public(await h.command(alice, "move", None, match=str(match_id), move="a1e3"))
        assert posted[0].pngs == [await picture(h, match_id)], "the thread keeps the server's"
        dm = h.dm_channel(bob)
        (direct,) = [s for s in h.sent if s.channel_id == dm]
        expected = await picture(h, match_id, perspective=2, theme="high-contrast")
        assert direct.pngs == [expected]
        (told,) = private(await h.command(bob, "settings", theme="neon"))
        assert told.content.startswith("'neon' is not a choice for theme.")
        assert (await h.bot.service.settings.person(bob.id)).theme == "high-contrast"

    offline(scenario)


def test_server_settings_are_refused_to_members_who_cannot_manage_the_server(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        mallory = h.user("mallory", manager=False)
        for options in ({}, {"theme": "dark"}):
            sent = await h.command(mallory, "server settings", **options)
            assert [s.kind for s in sent] == ["message"] and sent[0].ephemeral
            assert sent[0].content == (
                "Only members with the Manage Server permission may see or change the "
                "server settings."
            )
        assert (await h.bot.store.server_settings(h.guild_id)).theme is None

    offline(scenario)


def test_server_settings_are_logged_where_changed_and_shape_thread_posts(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        owner = h.user("olive")
        (shown,) = await h.command(owner, "server settings")
        assert shown.ephemeral and "Boards in match threads: **seat 1 at the bottom**" in (
            shown.content
        )
        (bad,) = await h.command(owner, "server settings", games="chess, quorum")
        assert bad.ephemeral and bad.content.startswith("Chess is not a game here")
        (log,) = await h.command(owner, "server settings", theme="dark", orientation="mover")
        assert not log.ephemeral and log.channel_id == h.channel_id
        assert log.content == (
            f"<@{owner.id}> changed this server's settings:\n"
            "• Theme of boards in match threads: **dark**\n"
            "• Boards in match threads: **the player to move at the bottom**"
        )
        match_id, (alice, bob) = await start_match(h)
        (first,) = h.latest(lambda s: "Move" in s.buttons).pngs
        assert first == await picture(h, match_id, theme="dark")
        posted = public(await h.command(alice, "move", None, match=str(match_id), move="a1e3"))
        assert posted[0].pngs == [await picture(h, match_id, perspective=2, theme="dark")]

    offline(scenario)


def test_challenges_honour_the_servers_games_days_and_channel(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        owner, alice, bob = h.user("olive"), h.user("alice"), h.user("bob")
        matches = h.server_channel(h.server, "matches")
        await h.command(owner, "server settings", games="boost razzle", days=7)
        (refused,) = await h.command(alice, "challenge", game="quorum", opponent=bob)
        assert refused.content == (
            "Quorum may not be challenged on this server: choose Boost, Razzle Dazzle."
        )
        await h.command(owner, "server settings", channel=matches)
        (refused,) = await h.command(alice, "challenge", game="boost", opponent=bob)
        assert refused.content == (
            f"Challenges on this server are made in <#{matches}>: run /challenge there."
        )
        assert await h.bot.store.match_ids() == []
        await h.command(alice, "challenge", matches, game="boost", opponent=bob)
        (match_id,) = await h.bot.store.match_ids()
        match = await h.bot.service.cache.get(match_id)
        assert match.row.days_per_move == 7 and match.row.channel_id == matches
        (log,) = await h.command(owner, "server settings", anywhere=True, games="all")
        assert "Challenges are made in: **any channel**" in log.content

    offline(scenario)


def described(sent: Sent) -> bool:
    return len(sent.descriptions) == len(sent.files) and all(
        d and len(d) <= 1024 for d in sent.descriptions
    )


def test_every_attachment_of_a_long_session_has_alt_text(offline: Any) -> None:
    quorum = get_game("quorum")
    rng = random.Random(3)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(bob, "settings", dm="on", theme="dark")
        users = {1: alice, 2: bob}
        for _ in range(12):
            match = await h.bot.service.cache.get(match_id)
            move = rng.choice(quorum.legal_moves(match.state))
            text = quorum.format_move(match.state, move)
            user = users[quorum.to_move(match.state)]
            await h.command(user, "move", None, match=str(match_id), move=text)
            await h.command(user, "board", None, match=str(match_id))
        await h.command(alice, "rules", game="quorum", topic="overview")
        await h.command(alice, "rules", game="boku", topic="board")
        await h.command(bob, "record", None, match=str(match_id))
        await h.command(alice, "replay", None, match=str(match_id))
        await resign(h, alice)
        await h.command(bob, "replay", None, match=str(match_id))
        with_files = [s for s in h.sent if s.files]
        assert len(with_files) > 30
        assert all(described(s) for s in with_files), [
            (s.files[0][0], s.descriptions) for s in with_files if not described(s)
        ]
        match = await h.bot.service.cache.get(match_id)
        board = next(s for s in reversed(with_files) if s.pngs and "replay" not in s.content)
        alt = board.descriptions[0] or ""
        assert alt.startswith(f"Quorum #{match_id} board (standard), after 12 turns.")
        assert "Game over: bob wins (resignation)." in alt
        assert "alice: " in alt and " stones" in alt

    offline(scenario)


def test_the_picker_shows_the_board_from_the_movers_side(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", None, match=str(match_id), move="a1e3")
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(bob, board.message_id or 0, "Move"))
        assert picker.pngs == [await picture(h, match_id, perspective=2)]
        assert picker.descriptions[0] and "bob (Black) to move" in picker.descriptions[0]
        for token in ("h8", "h4"):
            await h.choose(bob, picker.message_id or 0, token)
        now = h.latest(lambda s: s.message_id == picker.message_id)
        assert "**h8h4** is a whole move: **Play** makes it, or **Back** to change it." in (
            now.content
        )

    offline(scenario)


def test_a_refused_boku_placement_lists_the_free_cells_nearest_the_one_typed(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, game="boku")
        await h.command(alice, "move", None, match=str(match_id), move="e5")
        (told,) = private(await h.command(bob, "move", None, match=str(match_id), move="e5"))
        hint = told.content.splitlines()[-1]
        assert (
            hint == "-# moves can start on these, nearest e5 first: d5, e4, e6, f5, d4, f6, c5, d6"
        )

    offline(scenario)
