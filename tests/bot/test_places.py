"""Where commands work (installs and contexts), and matches in DMs and group DMs, where the app
is installed on a person's account and may only answer interactions."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord.utils import MISSING

from bot.clock import DAY, HOUR, ManualClock
from bot.offline import OfflineDiscord, interactions
from bot.offline.records import OfflineError, Pending, User
from bot.posts.conversations import HEARD, Conversations, Heard
from bot.service import MatchService
from bot.service.ratings import DIRECT_MESSAGES
from bot.store import JobKind, open_store
from bot.texts import say, t
from rules import get_game
from tests.bot.spec import check_request
from tests.bot.support import new_bot, private, public, resign
from tests.bot.test_commands import COMMANDS
from tests.bot.test_full_games import greedy_capture
from tests.bot.test_offline_lines import session
from tests.bot.test_store import ALICE, BOB

GLOBAL = "/applications/{application_id}/commands"
SERVER_ONLY = {"tournament", "server", "leaderboard", "follow", "unfollow"}


def test_every_command_says_where_it_works(database: str) -> None:
    async def main() -> list[dict[str, Any]]:
        bot = new_bot(database)
        bot.sync_only = True
        async with OfflineDiscord(bot, check_request=check_request) as h:
            assert not h.violations
            ((_, _, body),) = [r for r in h.requests if r[:2] == ("PUT", GLOBAL)]
            return list(body)

    body = asyncio.run(main())
    assert check_request("PUT", GLOBAL, body) == []  # Discord's own document accepts it
    where = {c["name"]: (c["contexts"], c["integration_types"]) for c in body}
    assert set(where) == COMMANDS
    for name, (contexts, installs) in where.items():
        if name in SERVER_ONLY:  # servers that added the app, only
            assert (contexts, installs) == ([0], [0]), name
        else:  # servers, the bot's DM, other DMs and group DMs; either install
            assert (contexts, installs) == ([0, 1, 2], [0, 1]), name


async def _accept(h: OfflineDiscord, user: Any, channel: int) -> None:
    challenge = h.latest(lambda s: "Accept" in s.buttons and s.channel_id == channel)
    await h.click(user, challenge.message_id or 0, "Accept")


def alice_and_bob(h: OfflineDiscord) -> tuple[User, User, int]:
    """alice, who added the app to her account, bob, who did not, and their DM."""
    alice, bob = h.user("alice"), h.user("bob")
    h.install(alice)
    return alice, bob, h.conversation(alice, [bob])


async def dm_match(h: OfflineDiscord, game: str = "quorum") -> tuple[User, User, int]:
    """alice challenges bob in their DM, and bob accepts."""
    alice, bob, dm = alice_and_bob(h)
    await h.command(alice, "challenge", dm, game=game, opponent=bob)
    await _accept(h, bob, dm)
    return alice, bob, dm


def test_a_quorum_match_in_a_dm_is_played_to_its_end(offline: Any) -> None:
    quorum = get_game("quorum")

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.install(alice)  # bob has not added the app: buttons only, for him
        dm = h.conversation(alice, [bob])
        assert h.conversation(bob, [alice]) == dm  # the same two people, the same DM
        (challenge,) = public(await h.command(alice, "challenge", dm, game="quorum", opponent=bob))
        assert challenge.channel_id == dm and challenge.buttons[0] == "Accept"
        assert "add the app to your account" in challenge.content
        assert "integration_type=1" in challenge.content
        with pytest.raises(OfflineError, match="install bob"):
            await h.command(bob, "board", dm)
        sent = await h.click(bob, challenge.message_id or 0, "Accept")
        assert not [s for s in sent if s.kind == "thread"], "no thread in a DM"
        (board,) = [s for s in public(sent) if s.pngs]
        assert board.channel_id == dm and "begins" in board.content
        match_id = max(await h.bot.store.match_ids())
        for _ in range(3):
            state = (await h.bot.service.cache.get(match_id)).state
            move = quorum.format_move(state, quorum.legal_moves(state)[0])
            sent = await h.command(alice, "move", dm, move=move)
            (board,) = [s for s in public(sent) if s.pngs]
            assert board.channel_id == dm and f"<@{bob.id}>, your move" in board.content
            # bob plays with the buttons: Move, then each square, then Play
            (picker,) = private(await h.click(bob, board.message_id or 0, "Move"))
            state = (await h.bot.service.cache.get(match_id)).state
            first = quorum.legal_moves(state)[0]
            for token in quorum.move_tokens(state, first):
                await h.choose(bob, picker.message_id or 0, token)
            notation = quorum.format_move(state, first)
            shown = picker.message_id
            play = h.latest(lambda s, shown=shown: s.message_id == shown).buttons
            label = next(label for label in play if notation in label)
            sent = await h.click(bob, picker.message_id or 0, label)
            assert [s.channel_id for s in public(sent) if s.pngs] == [dm]
        # alice lets her clock run out: Discord would refuse a post now, so the result
        # reaches both by the bot's DM and shows in the DM at the next interaction there
        timed_out = await h.advance(4 * DAY)
        assert not [s for s in timed_out if s.channel_id == dm]
        told = [s for s in timed_out if s.channel_id in (h.dm_channel(alice), h.dm_channel(bob))]
        over = [s for s in told if "Game over" in s.content]
        assert len(over) == 2 and all(s.pngs for s in over)
        assert any("shows in your DM with bob" in s.content for s in over)
        assert any("shows in your DM with alice" in s.content for s in over)
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "finished" and match.outcome is not None
        sent = await h.command(alice, "board", dm)
        (result,) = [s for s in public(sent) if "Game over" in s.content]
        assert result.channel_id == dm and result.pngs
        assert say(t("places.caught_up")) in result.content
        assert await h.bot.service.audit.check() == []

    offline(scenario)


def test_a_boost_match_in_a_group_dm_of_three_is_played_to_its_end(offline: Any) -> None:
    boost = get_game("boost")
    rng = random.Random(2)

    async def scenario(h: OfflineDiscord) -> None:
        users = [h.user(name) for name in ("alice", "bob", "carol")]
        for user in users:
            h.install(user)
        group = h.conversation(users[0], users[1:])
        assert h.conversation(users[2], users[:2]) == group
        await h.command(
            users[0], "challenge", group, game="boost", opponent=users[1], opponent2=users[2]
        )
        for user in users[1:]:
            await _accept(h, user, group)
        match_id = max(await h.bot.store.match_ids())
        for _ in range(1500):
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                break
            mover = users[boost.to_move(match.state) - 1]
            text = boost.format_move(match.state, greedy_capture(boost, match.state, rng))
            sent = await h.command(mover, "move", group, move=text)
            assert [s.channel_id for s in public(sent) if s.pngs] == [group]
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "finished"
        assert any("Game over" in s.content and s.channel_id == group for s in public(h.sent))
        assert not [s for s in h.sent if s.kind in ("thread", "typing")]
        assert await h.bot.service.audit.check() == []

    offline(scenario, seeds=lambda: 2)  # with these greedy moves: a short game


def test_discord_refuses_the_bot_token_in_a_dm_it_is_not_in(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        channel = h.bot.get_partial_messageable(dm)
        with pytest.raises(Exception, match="Missing Access"):
            await channel.send("hello")
        with pytest.raises(Exception, match="Missing Access"):
            await channel.typing()
        h.violations.clear()

    offline(scenario)


def test_a_conversation_takes_five_follow_ups_per_interaction_and_own_edits(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        ids = {"webhook_id": str(h.application_id), "webhook_token": "token-x"}
        h.interactions["token-x"] = Pending(h.next_id(), "token-x", alice, dm, None, h.now())
        interactions.callback(h, ids, {"type": 5, "data": {}}, [])
        interactions.followup(h, ids, {"content": "fills the thinking"}, [])
        made = [interactions.followup(h, ids, {"content": f"{n}"}, []) for n in range(5)]
        with pytest.raises(Exception, match="Maximum follow-up"):
            interactions.followup(h, ids, {"content": "one too many"}, [])
        interactions.edit_message(h, {**ids, "message_id": made[0]["id"]}, {"content": "ok"}, [])
        someone_elses = h.message(dm, {"content": "another interaction's"}, [], 0)
        with pytest.raises(Exception, match="its own interaction"):
            interactions.edit_message(
                h, {**ids, "message_id": someone_elses["id"]}, {"content": "x"}, []
            )
        h.violations.clear()

    offline(scenario)


def test_a_challenge_in_a_server_without_the_app_is_refused(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        payload = h.command_payload(alice, "challenge", None, game="quorum", opponent=bob)
        payload["authorizing_integration_owners"] = {"1": str(alice.id)}  # her install only
        (answer,) = private(await h.run(payload, alice))
        assert say(t("places.not_in_server")) in answer.content
        assert await h.bot.store.match_ids() == []

    offline(scenario)


def test_the_computer_answers_in_a_dm_within_the_same_interaction(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        sent = await h.command(alice, "challenge", dm, game="razzle", opponent=h.bot_user, level=1)
        assert "add the app" not in " ".join(s.content for s in sent)  # nobody else to add it
        match_id = max(await h.bot.store.match_ids())
        for _ in range(3):
            match = await h.bot.service.cache.get(match_id)
            game, state = match.game, match.state
            text = game.format_move(state, game.legal_moves(state)[0])
            sent = await h.command(alice, "move", dm, move=text)
            (board,) = [s for s in public(sent) if s.pngs]
            assert board.channel_id == dm and "Computer (Black) replied" in board.content
            assert not [s for s in sent if s.kind == "typing"], "the app is no member here"

    offline(scenario, ai_nodes=40)


@pytest.mark.both_backends
def test_a_dm_match_is_listed_rated_apart_and_hidden_from_strangers(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        carol, dave = h.user("carol"), h.user("dave")
        h.install(carol)
        match_id = max(await h.bot.store.match_ids())
        (listed,) = private(await h.command(alice, "next"))  # in the server's channel
        assert "Quorum #1" in listed.content and "in your DM with bob" in listed.content
        (listed,) = private(await h.command(alice, "matches"))
        assert "in your DM with bob" in listed.content
        # a stranger, elsewhere, reads none of it
        elsewhere = h.conversation(carol, [dave])
        for command in ("board", "record", "replay", "analysis"):
            (answer,) = private(await h.command(carol, command, elsewhere, match=str(match_id)))
            assert "no match #1" in answer.content.lower(), (command, answer.content)
            # from the server, a stranger sees nothing either; alice learns where it lives
            (answer,) = private(await h.command(carol, command, match=str(match_id)))
            assert "no match #1" in answer.content.lower(), (command, answer.content)
        (answer,) = private(await h.command(alice, "board", match=str(match_id)))
        assert answer.content.startswith("Match #1 is played in your DM or group DM, not here.")
        await resign(h, alice, dm)
        (history,) = private(await h.command(carol, "history", elsewhere, user=alice))
        assert "Quorum #1" not in str(history.embeds) + history.content
        (history,) = private(await h.command(alice, "history", dm))
        assert "Quorum #1" in str(history.embeds) + history.content
        (profile,) = private(await h.command(alice, "profile", dm))
        (embed,) = profile.embeds
        assert "Direct messages" in embed["description"]
        assert embed["fields"][0]["name"] == "Quorum", "rated in the Direct messages pool"
        (profile,) = private(await h.command(alice, "profile"))  # the server's own pool
        assert "Direct messages" not in str(profile.embeds)
        (record,) = private(await h.command(alice, "record", dm, match=str(match_id)))
        assert record.files

    offline(scenario)


def test_a_rematch_in_a_dm_is_a_new_answer_there(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h, "boku")
        sent = await resign(h, alice, dm)
        (result,) = [s for s in public(sent) if "Rematch" in s.buttons]
        sent = await h.click(bob, result.message_id or 0, "Rematch")  # bob, without the app
        (challenge,) = [s for s in public(sent) if "Accept" in s.buttons]
        assert challenge.channel_id == dm and "A rematch of match #1" in challenge.content
        sent = await h.click(alice, challenge.message_id or 0, "Accept")
        (board,) = [s for s in public(sent) if s.pngs]
        assert board.channel_id == dm and "Boku #2" in board.content

    offline(scenario)


def test_a_conversation_is_posted_to_only_by_a_fresh_interaction_of_its_own(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        await h.command(alice, "challenge", dm, game="quorum", opponent=bob)
        match = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        conversations = h.bot.announcer.conversations
        clock = h.bot.clock
        assert conversations.reachable(match) is None  # no interaction under way
        here = Heard(cast(Any, SimpleNamespace(channel_id=dm)), clock.now())
        elsewhere = Heard(cast(Any, SimpleNamespace(channel_id=h.channel_id)), clock.now())
        for heard, reachable in ((here, True), (elsewhere, False)):
            token = HEARD.set(heard)
            assert (conversations.reachable(match) is heard) == reachable
            HEARD.reset(token)
        token = HEARD.set(here)
        here.follow_ups = 4  # one is left for the command's own answer
        assert conversations.reachable(match) is None
        here.follow_ups = 0
        assert isinstance(clock, ManualClock)
        clock.advance(14.5 * 60)  # the token would run out before a board got there
        assert conversations.reachable(match) is None
        HEARD.reset(token)

    offline(scenario)


def test_an_offline_session_plays_in_a_dm_and_a_group_dm(tmp_path: Path) -> None:
    out = session(
        tmp_path,
        "install alice\n"
        "alice in dm bob: /challenge game:quorum opponent:@bob\n"
        "bob in dm alice: /board\n"
        "bob in dm alice: click Accept\n"
        "alice in group bob carol: /rules game:boost\n"
        "carol in group alice bob: click Accept\n"
        "alice in dm: /board\n",
    )
    assert "install alice\n   ~ alice added the app to their account\n" in out
    assert "   [DM alice, bob] bot: @alice challenges @bob to Quorum" in out
    assert "?? bob has not added the app to their account" in out
    assert "   [DM alice, bob] bot: Quorum #1 (standard) begins" in out
    assert "[group alice, bob, carol] bot (only alice sees this)" in out
    assert "?? no message you can see has that" in out  # no challenge in the group
    assert "?? no place called 'dm'" in out
    assert "Traceback" not in out and "went wrong" not in out


def test_nobody_clicks_in_a_conversation_they_are_not_in(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        mallory = h.user("mallory")
        (challenge,) = public(await h.command(alice, "challenge", dm, game="quorum", opponent=bob))
        with pytest.raises(OfflineError, match="not in that conversation"):
            await h.click(mallory, challenge.message_id or 0, "Accept")

    offline(scenario)


def test_a_vacation_note_for_a_dm_match_goes_by_dm_when_taken_elsewhere(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h, "quorum")
        sent = await h.command(alice, "vacation", days=2)  # in the server: not the DM
        assert "You are on vacation" in private(sent)[0].content
        assert not [s for s in sent if s.channel_id == dm]
        notes = [s for s in sent if s.channel_id in (h.dm_channel(alice), h.dm_channel(bob))]
        assert len(notes) == 2 and all("alice is on vacation" in s.content for s in notes)
        assert not any("shows in" in s.content for s in notes), "no board waits for it"

    offline(scenario)


def test_a_vacation_note_while_a_dm_board_waits_leaves_the_board_its_own_dm(
    offline: Any,
) -> None:
    """alice's board failed to post in their DM; before its retry bob takes a vacation
    elsewhere. Both get the note by DM, and the retry still brings them the board, so bob's
    clock starts with the board he got, not with a note about his vacation."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h, "quorum")
        h.fail_posts(HOUR)
        await h.command(alice, "move", dm, move="a1e3")
        h.fail_posts(None)
        sent = await h.command(bob, "vacation", days=2)  # in the server: not the DM
        notes = [s for s in sent if s.channel_id in (h.dm_channel(alice), h.dm_channel(bob))]
        assert len(notes) == 2 and all("bob is on vacation" in s.content for s in notes)
        assert not any("shows in" in s.content for s in notes), "the note shows nowhere later"
        later = await h.advance(HOUR)
        boards = [s for s in later if s.channel_id == h.dm_channel(bob) and s.pngs]
        assert len(boards) == 1 and "alice played **a1e3**" in boards[0].content
        match_id = max(await h.bot.store.match_ids())
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) is not None

    offline(scenario)


def test_a_match_against_the_computer_alone_names_its_conversation(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        await h.command(alice, "challenge", dm, game="quorum", opponent=h.bot_user, level=1)
        (listed,) = private(await h.command(alice, "matches"))
        assert say(t("places.at", place=t("places.its_conversation"), link="")) in listed.content

    offline(scenario, ai_nodes=40)


def test_a_dm_match_left_unrated_by_a_stop_is_counted_at_the_next_start(
    database_url: str,
) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        service = MatchService(store)
        request = service.challenges.prepare(
            guild_id=None, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
        )
        match_id = (await service.challenges.open(request)).id
        await service.challenges.accept(match_id, BOB.user_id)
        service.turns.finished = None  # the process stops between the result and the rating
        await service.turns.resign(match_id, BOB.user_id)
        assert await store.unrated_matches() == [match_id]
        assert await MatchService(store).ratings.catch_up() == 1
        pool = await store.leaderboard(DIRECT_MESSAGES, "quorum", 10)
        assert [(r.user_id, r.wins, r.losses) for r in pool] == [
            (ALICE.user_id, 1, 0),
            (BOB.user_id, 0, 1),
        ]
        await store.close()

    asyncio.run(main())


@pytest.mark.parametrize("used", ["matches", "help"])
def test_a_challenge_in_a_dm_asks_to_add_the_app_only_those_not_seen_using_it(
    offline: Any, used: str
) -> None:
    """bob added the app but has not used it yet: the challenge cannot know, and tells him
    how; once he has used a command through it (any command), the next challenge does not."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        h.install(bob)
        (first,) = public(await h.command(alice, "challenge", dm, game="quorum", opponent=bob))
        assert "add the app to your account" in first.content
        await h.command(bob, used, dm)
        carol = h.user("carol")
        group = h.conversation(alice, [bob, carol])
        (second,) = public(
            await h.command(alice, "challenge", group, game="boost", opponent=bob, opponent2=carol)
        )
        line = [s for s in second.content.splitlines() if "add the app" in s]
        assert len(line) == 1 and f"<@{carol.id}>" in line[0] and f"<@{bob.id}>" not in line[0]

    offline(scenario)


def test_a_dm_is_the_same_whoever_opened_it_first(offline: Any) -> None:
    """bob's line opens the DM, then alice challenges him in it: Discord lists bob among the
    recipients alice sees, so the challenge stands."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.install(alice)
        h.install(bob)
        dm = h.conversation(bob, [alice])
        await h.command(bob, "matches", dm)
        (challenge,) = public(await h.command(alice, "challenge", dm, game="quorum", opponent=bob))
        assert challenge.channel_id == dm and challenge.buttons[0] == "Accept"

    offline(scenario)


def test_a_challenge_in_a_dm_names_only_people_in_it(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = alice_and_bob(h)
        carol = h.user("carol")
        sent = await h.command(alice, "challenge", dm, game="quorum", opponent=carol)
        (answer,) = private(sent)
        assert "carol is not in this conversation" in answer.content
        assert await h.bot.store.match_ids() == []
        group = h.conversation(alice, [bob, carol])
        await h.command(alice, "challenge", group, game="quorum", opponent=carol)
        assert len(await h.bot.store.match_ids()) == 1

    offline(scenario)


def test_analysis_and_replay_of_a_dm_match_answer_in_the_dm(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h, "quorum")
        await h.command(alice, "move", dm, move="a1e3")
        await resign(h, alice, dm)
        sent = await h.command(alice, "analysis", dm)
        assert {s.channel_id for s in sent} == {dm}
        (graph,) = [s for s in public(sent) if s.pngs]
        assert graph.embeds and graph.files[0][0] == "quorum-1-analysis.png"
        progress = [s for s in sent if s.kind == "edit" and not s.ephemeral]
        assert progress and "all 3 positions judged" in progress[-1].content
        (replay,) = private(await h.command(alice, "replay", dm))
        assert replay.channel_id == dm and replay.pngs

    offline(scenario, ai_nodes=40)


def test_a_command_in_a_dm_means_that_conversation_s_match(offline: Any) -> None:
    """alice also plays bob in a server: `/move` without a match in their DM plays the DM's."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        server_match = max(await h.bot.store.match_ids())
        await h.click(bob, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        assert (await h.bot.service.cache.get(server_match)).status == "active"
        (board,) = [s for s in public(await h.command(alice, "move", dm, move="a1e3")) if s.pngs]
        assert board.channel_id == dm and "alice played **a1e3**" in board.content
        assert "\n\n" not in board.content, "no empty line where no rating changed"

    offline(scenario)


@pytest.mark.both_backends
def test_a_board_waiting_in_a_dm_is_posted_there_after_a_restart(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        h.install(bob)
        await h.command(alice, "move", dm, move="a1e3")
        await h.command(bob, "move", dm, move="h8h4")
        told = await h.advance(4 * DAY)  # alice's clock runs out, no interaction in the DM
        assert len([s for s in told if "Game over" in s.content]) == 2  # by DM, to each
        assert isinstance(h.bot.clock, ManualClock)
        start = len(h.sent)
        await h.restart(new_bot(database, clock=h.bot.clock))
        assert not [s for s in h.sent[start:] if "Game over" in s.content], "told once only"
        sent = await h.command(alice, "board", dm)
        (result,) = [s for s in public(sent) if "Game over" in s.content]
        assert result.channel_id == dm and result.pngs
        assert say(t("places.caught_up")) in result.content
        again = await h.command(alice, "board", dm)
        assert not [s for s in public(again) if "Game over" in s.content], "posted once"

    offline(scenario)


@pytest.mark.both_backends
def test_a_dm_board_discord_fails_starts_no_clock_until_its_players_get_it(
    offline: Any, database: str
) -> None:
    """Discord fails every post for two hours, the conversation's follow-ups and DMs alike:
    alice's move is saved and she is told so in her own reply; bob's clock waits for the
    DM that brings him the board after the outage (a restart during it loses nothing), and
    the board shows in the DM at the next command there."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        match_id = max(await h.bot.store.match_ids())
        clock = h.bot.clock
        assert isinstance(clock, ManualClock)
        outage_starts = clock.now()
        h.fail_posts(2 * HOUR)
        sent = await h.command(alice, "move", dm, move="a1e3")
        assert not [s for s in sent if s.kind == "message"]  # Discord took none
        (told,) = [s for s in sent if s.kind == "edit" and "clock starts only then" in s.content]
        assert told.for_user == alice.id
        assert "could not post the board in your DM with bob because Discord is" in told.content
        await h.advance(HOUR)
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) is None
        await h.restart(new_bot(database, clock=clock))
        got_at = None
        async for step in h.advancing(2 * HOUR):
            if got_at is None and [s for s in step if s.channel_id == h.dm(bob)]:
                got_at = int(clock.now())
        assert got_at is not None and got_at >= outage_starts + 2 * HOUR
        dms = [s for s in h.sent if s.channel_id in (h.dm(alice), h.dm(bob))]
        assert sorted(s.channel_id for s in dms) == sorted([h.dm(alice), h.dm(bob)])
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) == got_at + 3 * DAY
        (board,) = [s for s in public(await h.command(alice, "board", dm)) if s.pngs]
        assert board.channel_id == dm and "alice played **a1e3**" in board.content

    offline(scenario)


def test_a_move_played_with_buttons_during_an_outage_is_told_in_its_picker(offline: Any) -> None:
    """bob, without the app, plays with the picker while Discord fails posts: his move is
    saved and the picker (his alone) says so, since Discord takes edits still."""
    quorum = get_game("quorum")

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        (board,) = [s for s in public(await h.command(alice, "move", dm, move="a1e3")) if s.pngs]
        match_id = max(await h.bot.store.match_ids())
        (picker,) = private(await h.click(bob, board.message_id or 0, "Move"))
        state = (await h.bot.service.cache.get(match_id)).state
        first = quorum.legal_moves(state)[0]
        for token in quorum.move_tokens(state, first):
            await h.choose(bob, picker.message_id or 0, token)
        shown = picker.message_id
        play = h.latest(lambda s: s.message_id == shown).buttons
        label = next(label for label in play if quorum.format_move(state, first) in label)
        h.fail_posts(HOUR)
        sent = await h.click(bob, picker.message_id or 0, label)
        told = [s for s in sent if s.kind == "edit" and "clock starts only then" in s.content]
        assert [s.message_id for s in told] == [shown] and not told[0].buttons  # nothing left
        assert (await h.bot.service.cache.get(match_id)).row.ply == 2

    offline(scenario)


def test_a_dm_that_failed_is_sent_again_only_to_those_who_did_not_get_it(offline: Any) -> None:
    """A conversation out of reach: alice's DM goes, bob's fails. The position is not told
    (the next try is due), and that try sends bob his only; once all got it, no more."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dm = await dm_match(h)
        await h.command(alice, "move", dm, move="a1e3")
        match = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        got: list[int] = []
        failing = {bob.id}

        async def send_dm(user_id: int, text: str, picture: Any) -> bool:
            if user_id in failing:
                return False
            got.append(user_id)
            return True

        async def post_missing(match_id: int, late: Any) -> bool:
            return True

        def board() -> discord.File:
            return discord.File(io.BytesIO(b"a board"), filename="quorum-1-1.png")

        languages = h.bot.service.settings.member_language
        conversations = Conversations(h.bot.clock, send_dm, post_missing, h.bot.store, languages)
        assert not await conversations.missed(match, "alice played a1e3.", board())
        assert got == [alice.id]
        failing.clear()
        assert await conversations.missed(match, "alice played a1e3.", board())
        assert got == [alice.id, bob.id]
        assert await conversations.missed(match, "alice played a1e3.", board())
        assert got == [alice.id, bob.id]
        # a note (no picture: an abort's news) tried again goes to the one who missed it
        got.clear()
        failing.add(bob.id)
        assert not await conversations.missed(match, "Quorum #1 is aborted.", MISSING)
        failing.clear()
        assert await conversations.missed(match, "Quorum #1 is aborted.", MISSING)
        assert got == [alice.id, bob.id]

    offline(scenario)


def test_a_command_in_a_dm_without_a_match_says_so_without_naming_a_server(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, _, dm = alice_and_bob(h)
        (told,) = private(await h.command(alice, "board", dm))
        assert told.content.startswith("You have no match in progress.")
        assert "server" not in told.content and "thread" not in told.content

    offline(scenario)


def test_a_dm_board_given_up_after_days_of_failed_dms_is_forgotten_and_caught_up(
    offline: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord fails every post and DM for three days: the BOARD job gives up after about
    two, nobody's clock has run, the bot keeps no memory of whom it told, and the board
    still shows in the DM at the next command there."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, _, dm = await dm_match(h)
        match_id = max(await h.bot.store.match_ids())
        h.fail_posts(3 * DAY)
        await h.command(alice, "move", dm, move="a1e3")
        await h.advance(3 * DAY)
        assert f"match #{match_id}: gave up posting its board" in caplog.text
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) is None
        assert match_id not in h.bot.announcer.conversations._sent
        (board,) = [s for s in public(await h.command(alice, "board", dm)) if s.pngs]
        assert board.channel_id == dm and "alice played **a1e3**" in board.content

    offline(scenario)
