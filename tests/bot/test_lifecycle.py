"""Issue 39 end to end: ratings on the familiar scale, aborts, lapsed draw offers, duplicate
challenges, tournament admin and one turn count everywhere."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.clock import DAY, HOUR, ManualClock
from bot.offline import OfflineDiscord
from bot.service import rating_model as ratings
from bot.store import open_store
from bot.texts import say
from rules import Outcome, Record, get_game
from tests.bot.support import execute_raw, new_bot, private, public, resign, start_match
from tests.bot.test_places import dm_match


def test_a_newcomer_shows_1500_and_a_class_is_about_200_points() -> None:
    newcomer = ratings.newcomer("quorum", 1)
    assert ratings.shown(newcomer) == "1,500?"
    assert [ratings.shown(newcomer, code) for code in ("de", "fr", "pt-BR")] == [
        "1.500?",
        "1\u202f500?",
        "1.500?",
    ]
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


def said(sent: list[Any], channel_id: int | None = None) -> list[str]:
    return [
        s.content
        for s in sent
        if s.kind == "message" and not s.ephemeral and channel_id in (None, s.channel_id)
    ]


@pytest.mark.both_backends
def test_an_abort_before_the_first_reply_ends_the_match_without_a_result(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        (thread,) = h.threads()
        where = int(thread["id"])
        await h.command(alice, "move", move="a1e3")
        board = h.latest(lambda s: "Move" in s.buttons)
        sent = await h.command(alice, "abort", where)
        (answer,) = private(sent)
        assert answer.content == "Quorum #1 is aborted."
        (post,) = said(sent, where)
        assert post.startswith("**Quorum #1 is aborted** by alice before every player had moved")
        assert "no result, unrated, no replay" in post
        assert any(s.kind == "edit" and s.message_id == board.message_id for s in sent)
        assert h.channels[where]["thread_metadata"]["archived"]
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "withdrawn" and match.row.aborted_at is not None
        assert match.outcome is None
        (refused,) = private(await h.command(bob, "move", where, move="h8h4"))
        assert refused.content.startswith("Quorum #1 is over (aborted).")
        (shown,) = private(await h.command(bob, "board", where))
        assert "Over (aborted): no result." in shown.content and "waiting for" not in shown.content
        assert said(await h.advance(30 * 86_400)) == []  # no timeout, no replay
        (board_now,) = private(await h.command(bob, "leaderboard", game="quorum"))
        assert "No rated Quorum match" in board_now.embeds[0]["description"]

    offline(scenario)


def test_abort_is_refused_once_every_player_has_moved(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        (refused,) = private(await h.command(alice, "abort"))
        assert refused.content.startswith("Quorum #1 cannot be aborted: every player has moved.")
        assert "/resign" in refused.content
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


@pytest.mark.both_backends
def test_a_timeout_before_a_first_move_aborts_instead_of_losing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, days=1)
        (thread,) = h.threads()
        where = int(thread["id"])
        await h.command(alice, "move", move="a1e3")
        posts = said(await h.advance(2 * 86_400), where)
        assert [p for p in posts if "aborted" in p] == [
            "**Quorum #1 is aborted**: bob did not make a first move in time. "
            "No result, unrated, no replay."
        ]
        assert not [p for p in posts if "Game over" in p or "Replay" in p]
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "withdrawn" and match.outcome is None
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3"]
        assert await h.bot.store.unrated_matches() == []

    offline(scenario)


@pytest.mark.both_backends
def test_an_abort_by_the_clock_during_an_outage_is_posted_once_discord_takes_it(
    offline: Any, database: str
) -> None:
    """bob's first move times out while Discord fails every post: the match is aborted, and
    the post saying so is tried again (a restart in the middle loses nothing) until Discord
    takes it; only then is the thread archived."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, days=1)
        (thread,) = h.threads()
        where = int(thread["id"])
        await h.command(alice, "move", move="a1e3")
        clock = h.bot.clock
        assert isinstance(clock, ManualClock)
        await h.advance(DAY - HOUR // 2)
        h.fail_posts(2 * HOUR)
        assert said(await h.advance(HOUR), where) == []
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "withdrawn" and match.row.aborted_by is None
        assert not h.channels[where]["thread_metadata"].get("archived")
        await h.restart(new_bot(database, clock=ManualClock(clock.now())))
        posts = said(await h.advance(2 * HOUR), where)
        assert posts == [
            "**Quorum #1 is aborted**: bob did not make a first move in time. "
            "No result, unrated, no replay."
        ]
        assert h.channels[where]["thread_metadata"]["archived"]
        assert said(await h.advance(DAY), where) == []  # said once

    offline(scenario)


def test_an_abort_command_during_an_outage_tells_its_player_and_the_other_later(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, _) = await start_match(h)
        (thread,) = h.threads()
        where = int(thread["id"])
        h.fail_posts(HOUR)
        (answer,) = private(await h.command(alice, "abort", where))
        assert answer.content.startswith(
            "I could not post that the match is aborted in <#"
        ) and answer.content.endswith(
            "because Discord is failing for now; nothing is lost: I will post it as soon as"
            " Discord takes it."
        )
        sent = await h.advance(2 * HOUR)
        (post,) = [s for s in sent if s.kind == "message" and s.channel_id == where]
        assert post.content.startswith("**Quorum #1 is aborted** by alice")

    offline(scenario)


def test_an_abort_by_the_clock_in_a_dm_during_an_outage_reaches_both_players_later(
    offline: Any,
) -> None:
    """In a DM match the app cannot post between interactions: the players are told by DM,
    once Discord takes DMs again."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)  # 3 days a move
        await h.command(alice, "move", dm, move="a1e3")
        await h.advance(3 * DAY - HOUR // 2)
        h.fail_posts(2 * HOUR)
        await h.advance(HOUR)
        sent = await h.advance(2 * HOUR)
        told = [s for s in sent if "**Quorum #1 is aborted**: bob did not make" in s.content]
        assert sorted(s.channel_id for s in told) == sorted([h.dm(alice), h.dm(bob)])

    offline(scenario)


def test_a_game_resigned_before_any_turn_has_no_replay(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        await start_match(h)
        await resign(h, h.user("alice"))
        assert h.latest(lambda s: "Game over" in s.content)
        await h.advance(60)
        assert not [s for s in h.sent if s.content.startswith("Replay of")]

    offline(scenario)


@pytest.mark.both_backends
def test_a_lapsed_draw_offer_says_so_and_loses_its_buttons(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(alice, "draw")
        offer = h.latest(lambda s: "Accept draw" in s.buttons)
        sent = await h.command(bob, "move", move="h8h4")
        (lapsed,) = [s for s in sent if s.kind == "edit" and s.message_id == offer.message_id]
        assert lapsed.buttons == []
        assert lapsed.content == (
            "A draw was offered here. It lapsed with the next move: no draw offer stands."
        )
        match = await h.bot.service.cache.get(match_id)
        assert match.row.draw_offer is None and match.row.draw_message_id is None
        await h.command(alice, "move", move="a2a6")  # nothing more to edit
        edits = [s for s in h.sent if s.kind == "edit" and s.message_id == offer.message_id]
        assert edits == [lapsed]

    offline(scenario)


def test_a_draw_offer_accepted_by_command_says_so(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "draw")
        offer = h.latest(lambda s: "Accept draw" in s.buttons)
        sent = await h.command(bob, "draw")
        (edited,) = [s for s in sent if s.kind == "edit" and s.message_id == offer.message_id]
        assert edited.content == "A draw was offered here, and bob accepted it."
        assert edited.buttons == []
        assert h.latest(lambda s: "Game over: draw (agreement)" in s.content)

    offline(scenario)


def test_draw_against_the_computer_is_refused_plainly(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "challenge", game="quorum", opponent=h.bot_user, level=1)
        match_id = max(await h.bot.store.match_ids())
        (refused,) = private(await h.command(alice, "draw", match=str(match_id)))
        assert refused.content.startswith("The computer does not take or offer draws.")
        assert (await h.bot.service.cache.get(match_id)).row.draw_offer is None

    offline(scenario)


@pytest.mark.both_backends
def test_a_second_identical_pending_challenge_is_refused_with_a_link(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        first = h.latest(lambda s: "Accept" in s.buttons)
        (refused,) = private(await h.command(alice, "challenge", game="quorum", opponent=bob))
        assert refused.content.startswith("You have made this same challenge already")
        assert f"match #1, https://discord.com/channels/{h.guild_id}/" in refused.content
        assert f"/{first.message_id}\n" in refused.content
        assert len(await h.bot.store.match_ids()) == 1
        await h.command(alice, "challenge", game="quorum", opponent=bob, days=1)  # not the same
        await h.command(bob, "challenge", game="quorum", opponent=alice)  # nor this
        assert len(await h.bot.store.match_ids()) == 3

    offline(scenario)


async def tournament_of(h: OfflineDiscord, count: int) -> tuple[list[Any], Any]:
    """alice creates a Swiss Quorum tournament and the next `count - 1` users join."""
    users = [
        h.user(name, manager=False) for name in ("alice", "bob", "carol", "dave", "erin")[:count]
    ]
    await h.command(users[0], "tournament create", game="quorum", format="swiss")
    entry = h.latest(lambda s: "Join" in s.buttons)
    for user in users[1:]:
        await h.click(user, entry.message_id or 0, "Join")
    return users, entry


@pytest.mark.both_backends
def test_a_tournament_cancelled_by_its_creator(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry = await tournament_of(h, 4)
        (bob, carol) = users[1:3]
        (refused,) = private(await h.command(bob, "tournament cancel"))
        assert refused.content.startswith("Only alice, who created it, or someone with Manage")
        await h.command(users[0], "tournament start")
        boards = await h.bot.store.boards(1)
        first, second = [await h.bot.service.cache.get(b.match_id or 0) for b in boards]
        by_id = {u.id: u for u in users}
        await resign(h, by_id[first.at(2).user_id], first.channel_id)  # scored: round 1 goes on
        sent = await h.command(users[0], "tournament cancel")
        (said_,) = public(sent)
        assert said_.content == (
            "**Tournament #1: Quorum standard, swiss** is cancelled by alice. Games in "
            "progress play on as ordinary matches and no longer count for it."
        )
        table = h.latest(lambda s: s.message_id == entry.message_id)
        assert "Cancelled. Standings when it stopped:" in table.content
        await resign(h, by_id[second.at(2).user_id], second.channel_id)  # plays on, not scored
        assert (await h.bot.service.cache.get(second.id)).status == "finished"
        boards = await h.bot.store.boards(1)
        assert [b.points for b in boards] == [1.0, None] and {b.round for b in boards} == {1}
        assert not [s for s in h.sent if "round 2" in s.content]
        (listing,) = private(await h.command(carol, "tournament list"))
        assert listing.content.startswith("No tournament is open or running here.")
        (again,) = private(await h.command(users[0], "tournament cancel", tournament=1))
        assert again.content == "Tournament #1 is over."

    offline(scenario)


def test_the_creator_removes_entrants_before_the_start_and_between_games(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry = await tournament_of(h, 5)
        alice, bob, erin = users[0], users[1], users[4]
        (done,) = private(await h.command(alice, "tournament remove", player=erin))
        assert done.content == "erin is removed from tournament #1."
        assert "Entrants (4)" in h.latest(lambda s: s.message_id == entry.message_id).content
        (stays,) = private(await h.command(alice, "tournament remove", player=alice))
        assert stays.content == "The creator's entry stays: cancel the tournament instead."
        await h.command(alice, "tournament start")
        (busy,) = private(await h.command(alice, "tournament remove", player=bob))
        assert busy.content.startswith("bob has a game of round 1 in progress")
        (board,) = [b for b in await h.bot.store.boards(1) if bob.id in (b.first_id, b.second_id)]
        match = await h.bot.service.cache.get(board.match_id or 0)
        await resign(h, bob, match.channel_id)
        (removed,) = private(await h.command(alice, "tournament remove", player=bob))
        assert removed.content.startswith("bob is removed from tournament #1 and will not be")
        entrants = await h.bot.store.entrants(1)
        assert [e.withdrawn for e in entrants if e.user_id == bob.id] == [True]

    offline(scenario)


@pytest.mark.both_backends
def test_a_long_boost_game_counts_its_turns_alike_on_the_board_and_in_the_record(
    offline: Any,
) -> None:
    """Three-player Boost: carol resigns after six turns and the others play on. Her
    resignation is no turn: the board, /board's last moves and /record all count ten turns,
    and the record names her by name and colour, not by seat number."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob, carol) = await start_match(h, "boost", 3)
        by_id = {u.id: u for u in (alice, bob, carol)}

        async def play(count: int) -> None:
            for _ in range(count):
                match = await h.bot.service.cache.get(match_id)
                mover = match.to_move
                assert mover is not None
                state = match.state
                move = match.game.format_move(state, match.game.legal_moves(state)[0])
                await h.command(by_id[mover.user_id], "move", move=move)

        await play(6)
        await resign(h, carol)
        await play(4)
        match = await h.bot.service.cache.get(match_id)
        assert match.turns_played == 10 and match.outcome is None
        board = h.latest(lambda s: s.kind == "message" and s.pngs != [] and not s.ephemeral)
        assert "after 10 turns" in (board.descriptions[0] or "")
        (mine,) = private(await h.command(alice, "board"))
        assert "10 turns played" in mine.content
        last = mine.content.split("Last moves: `")[1].rstrip("`").split("  ")
        assert [move.split(". ")[0] for move in last] == [str(n) for n in range(1, 11)]
        (record,) = private(await h.command(alice, "record"))
        text = record.files[0][1].decode()
        numbered = [line for line in text.splitlines() if line[:1].isdigit()]
        assert [line.split(".")[0] for line in numbered] == [str(n) for n in range(1, 11)]
        assert "{resigned: carol (Green)}" in text.splitlines()
        assert "resign 3" not in text
        assert "10 turns played" in record.content

    offline(scenario)


def test_a_boost_timeout_is_remembered_as_a_timeout_not_a_resignation() -> None:
    """The board header marks a seat that ran out of time "timed out" (the state says which
    of the seats out of the game resigned and which timed out), through saves and replays."""
    game = get_game("boost")
    state = game.new(players=3, seed=1)
    out = game.time_out(state, 1)
    assert out.timed_out == (1,) and out.resigned == (1,)
    assert game.load(game.dump(out)) == out
    assert game.resign(state, 1).timed_out == ()
    record = Record("boost", "standard", 3, 1, ("timeout 1",))
    assert Record.from_text(record.to_text(say)).replay(game) == out
    assert "timed_out" not in game.dump(state)["state"], "saves without one are unchanged"


def test_the_leaderboard_ranks_established_players_before_provisional_ones(
    database_url: str,
) -> None:
    """A newcomer's lucky first win shows a higher number than a settled player's, but the
    settled player (5 or more games) ranks first; within each part, the higher rating."""

    async def main() -> None:
        store = await open_store(database_url)
        try:
            await store.close()
            rows = [(1, 1600.0, 1), (2, 1550.0, 9), (3, 1500.0, 5), (4, 1700.0, 2)]
            await execute_raw(
                database_url,
                *(
                    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, "
                    f"draws, losses, streak, updated_at) VALUES (7, 'quorum', {user}, "
                    f"{ratings.MODEL.mu + (points - 1500) / ratings.SCALE}, 5.0, {games}, "
                    f"{games}, 0, 0, 0, '2026-01-01')"
                    for user, points, games in rows
                ),
            )
            store = await open_store(database_url)
            top = await store.leaderboard(7, "quorum", 10, ratings.PROVISIONAL_GAMES)
            assert [r.user_id for r in top] == [2, 3, 4, 1]
            assert [ratings.shown(r) for r in top] == ["1,550", "1,500", "1,700?", "1,600?"]
            for place, user in enumerate([2, 3, 4, 1], start=1):
                found = await store.rank_of(7, "quorum", user, ratings.PROVISIONAL_GAMES)
                assert found is not None and found[0] == place
        finally:
            await store.close()

    asyncio.run(main())


def test_a_rematch_discord_does_not_take_is_not_made(offline: Any) -> None:
    """bob asks for a rematch while Discord fails posts: no challenge waits unseen, he is
    told to ask again, and asking again once Discord is back works."""

    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await resign(h, alice)
        rematch = h.latest(lambda s: "Rematch" in s.buttons)
        h.fail_posts(HOUR)
        (told,) = private(await h.click(bob, rematch.message_id or 0, "Rematch"))
        assert told.content.startswith(
            "Discord did not take the challenge for Quorum #2: bob vs alice, so it is not made."
        )
        assert (await h.bot.service.cache.get(2)).status == "withdrawn"
        await h.advance(2 * HOUR)
        await h.click(bob, rematch.message_id or 0, "Rematch")
        assert (await h.bot.service.cache.get(3)).status == "pending"
        assert h.latest(lambda s: "Accept" in s.buttons).content.startswith("<@")

    offline(scenario)
