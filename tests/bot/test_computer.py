"""Playing the computer: challenging the bot itself, its turns after each human turn, its
seats in a Boost game with people, the restart that resumes its turn, the worker crash
fallback, and an offline script against `@bot`.

The computer searches by a node budget (AI_NODES) and its seed is the match's, so every game
here plays out the same way each run."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import Settings, create_bot
from bot.clock import DAY, ManualClock
from bot.offline import OfflineDiscord, User, run_offline
from bot.service import MatchService, Player
from bot.settings import SettingsError, load_settings
from bot.store import MIGRATIONS, JobKind, JobRow, Status, open_store, parse_url
from bot.store.copy import copy_database, differences
from bot.store.migrations import pending
from tests.ai.searches import crashing_search, late_search
from tests.bot.support import START, execute_raw, new_bot, private, public, resign

NODES = 40  # level 1's own cap: quick and deterministic
ENGINE_SEATS = 5  # the migration that gave seats their engine column


async def challenge_bot(h: OfflineDiscord, game: str, **options: Any) -> tuple[int, User]:
    """alice challenges the bot; returns the match and alice."""
    alice = h.user("alice")
    await h.command(alice, "challenge", game=game, opponent=h.bot_user, **options)
    return max(await h.bot.store.match_ids()), alice


def test_a_whole_game_against_the_bot(offline: Any) -> None:
    rng = random.Random(3)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, alice = await challenge_bot(h, "razzle", level=1)
        match = await h.bot.service.cache.get(match_id)
        assert match.status == Status.ACTIVE, "the bot accepts at once"
        assert not match.row.rated and match.at(2).engine == 1
        assert any(s.kind == "thread" for s in h.sent), "the match gets its thread"
        for _ in range(400):
            if match.outcome is not None:
                break
            assert match.to_move is not None and match.to_move.user_id == alice.id
            game, state = match.game, match.state
            text = game.format_move(state, rng.choice(game.legal_moves(state)))
            sent = await h.command(alice, "move", move=text)
            match = await h.bot.service.cache.get(match_id)
            boards = [s for s in public(sent) if s.pngs]
            if match.outcome is None:
                assert len(boards) == 1, "one board for alice's move and the bot's reply"
                (board,) = boards
                assert board.content.startswith(f"alice played **{text}")
                assert "Computer (Black) replied" in board.content
                assert f"<@{alice.id}>, your move" in board.content
                assert any(s.kind == "typing" for s in sent), "the bot types while it thinks"
                assert not private(sent), "no private note: the thread says it"
        assert match.outcome is not None and match.status == Status.FINISHED
        log = await h.bot.store.moves(match_id)
        assert {m.seat for m in log} == {1, 2}
        assert await h.bot.service.audit.check() == []

    offline(scenario, ai_nodes=NODES)


def test_the_bot_takes_two_seats_of_a_boost_game_with_people(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(
            alice,
            "challenge",
            game="boost",
            opponent=bob,
            opponent2=h.bot_user,
            opponent3=h.bot_user,
            level=3,
        )
        match_id = max(await h.bot.store.match_ids())
        match = await h.bot.service.cache.get(match_id)
        assert match.status == Status.PENDING and [s.name for s in match.waiting_for] == ["bob"]
        assert [s.engine for s in match.seats] == [None, None, 3, 3]
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        await h.click(bob, challenge.message_id or 0, "Accept")
        for user in (alice, bob):
            match = await h.bot.service.cache.get(match_id)
            game = match.game
            text = game.format_move(match.state, game.legal_moves(match.state)[0])
            sent = await h.command(user, "move", move=text)
        log = await h.bot.store.moves(match_id)
        assert [m.seat for m in log] == [1, 2, 3, 4], "the bot played both its seats"
        assert f"<@{alice.id}>, your move" in public(sent)[-1].content

    offline(scenario, ai_nodes=NODES)


def test_a_boost_game_without_a_person_ends_at_once(offline: Any) -> None:
    """alice against three computer seats: when she resigns the match ends with one result
    post, the computer seats sharing the win, instead of playing itself out."""

    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(
            alice,
            "challenge",
            game="boost",
            opponent=h.bot_user,
            opponent2=h.bot_user,
            opponent3=h.bot_user,
            level=1,
        )
        match_id = max(await h.bot.store.match_ids())
        match = await h.bot.service.cache.get(match_id)
        assert [s.name for s in match.seats] == [
            "alice",
            "Computer (Red)",
            "Computer (Green)",
            "Computer (Yellow)",
        ]
        text = match.game.format_move(match.state, match.game.legal_moves(match.state)[0])
        await h.command(alice, "move", move=text)
        before = len(await h.bot.store.moves(match_id))
        start = len(h.sent)
        await resign(h, alice)
        await h.settle()
        match = await h.bot.service.cache.get(match_id)
        assert match.status == Status.FINISHED and match.outcome is not None
        assert match.outcome.winners == (2, 3, 4)
        assert len(await h.bot.store.moves(match_id)) == before + 1, "no computer move after"
        posted = public(h.sent[start:])
        results = [s for s in posted if "Game over" in s.content]
        assert len(results) == 1 and not any("played" in s.content for s in posted)
        assert "Computer (Red) and Computer (Green) and Computer (Yellow) win" in results[0].content

    offline(scenario, ai_nodes=NODES)


@pytest.mark.both_backends
def test_a_restart_resumes_the_bots_turn(database: str) -> None:
    async def main() -> None:
        async with OfflineDiscord(new_bot(database, ai_nodes=NODES)) as h:
            match_id, alice = await challenge_bot(h, "quorum")
            # alice's move lands, but the bot stops before it could think (a crash, say)
            await h.bot.computer.close()
            await h.bot.service.turns.move(match_id, alice.id, "a1e3")
            await h.restart(new_bot(database, ai_nodes=NODES))
            await h.settle()
            log = await h.bot.store.moves(match_id)
            assert [m.seat for m in log] == [1, 2]
            board = public(h.sent)[-1]
            assert board.pngs and "Computer (Black) played" in board.content

    asyncio.run(main())


def test_a_slow_reply_follows_the_persons_board(database: str) -> None:
    """A reply slower than the wait: alice's board first, then the bot's."""

    async def main() -> None:
        bot = create_bot(Settings(token="offline", database_url=database), search=late_search)
        async with OfflineDiscord(bot) as h:
            h.bot.computer.reply_wait = 0.1  # the search takes a second (late_search)
            match_id, alice = await challenge_bot(h, "boku", level=1)
            sent = await h.command(alice, "move", move="e5")
            boards = [s for s in public(sent) if s.pngs]
            assert len(boards) == 2
            assert boards[0].content.startswith("alice played **e5**")
            assert "Computer (Light) is thinking" in boards[0].content
            assert "Computer (Light) played" in boards[1].content
            assert [m.seat for m in await h.bot.store.moves(match_id)] == [1, 2]

    asyncio.run(main())


def test_a_crashing_search_worker_still_gets_the_bot_a_legal_move(
    database: str, caplog: Any
) -> None:
    async def main() -> None:
        bot = create_bot(Settings(token="offline", database_url=database), search=crashing_search)
        async with OfflineDiscord(bot) as h:
            match_id, alice = await challenge_bot(h, "boku")
            sent = await h.command(alice, "move", move="e5")
            log = await h.bot.store.moves(match_id)
            assert [m.seat for m in log] == [1, 2]
            # replacing the crashed worker may take longer than the reply wait: then alice's
            # board comes first and the reply follows
            assert re.search(r"Computer \(Light\) (replied|played)", public(sent)[-1].content)

    asyncio.run(main())
    assert "the search worker crashed" in caplog.text


def test_other_bots_still_cannot_play(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        sent = await h.command(
            h.user("alice"), "challenge", game="boku", opponent=h.user("robo", bot=True)
        )
        assert "robo is a bot and cannot play" in sent[-1].content
        assert await h.bot.store.match_ids() == []

    offline(scenario)


def test_an_offline_script_waits_for_the_bots_reply(tmp_path: Path) -> None:
    script = "alice: /challenge game:quorum opponent:@bot level:1\nalice: /move move:a1e3\n"
    settings = Settings(database_path=tmp_path / "bot.sqlite3", ai_nodes=NODES)
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        asyncio.run(run_offline(settings, io.StringIO(script), out))
        outputs.append(out.getvalue())
    first = outputs[0]
    assert "begins: @alice (White) vs Computer (Black)" in first
    reply = first.index("Computer (Black) replied")
    assert first.index("alice: /move move:a1e3") < reply < first.index("End of input")
    assert outputs[0] == outputs[1], "the same script plays the same way"


def test_ai_settings() -> None:
    default = load_settings({}, None)
    assert default.ai_workers == 1 and default.ai_nodes is None
    chosen = load_settings({"AI_WORKERS": "3", "AI_NODES": "500"}, None)
    assert chosen.ai_workers == 3 and chosen.ai_nodes == 500
    for name, wrong in (("AI_WORKERS", "0"), ("AI_WORKERS", "two"), ("AI_NODES", "-5")):
        with pytest.raises(SettingsError, match=f"{name} must be a whole number"):
            load_settings({name: wrong}, None)


async def database_at(database_url: str, version: int) -> None:
    """A database an older bot left: migrated only up to `version`."""
    backend, target = parse_url(database_url)
    steps = pending(0, backend)[:version]
    if backend == "sqlite":
        with sqlite3.connect(target) as db:
            for number, script in steps:
                db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
        return
    db = await asyncpg.connect(target)
    try:
        await db.execute("CREATE TABLE schema_version (version INTEGER)")
        for number, script in steps:
            await db.execute(script)
            await db.execute("INSERT INTO schema_version VALUES ($1)", number)
    finally:
        await db.close()


def test_a_database_from_before_engine_seats_keeps_its_seats(database_url: str) -> None:
    """Migration 5 gives seats an engine column and lets one user hold several seats:
    people's seats survive, with no engine."""

    async def main() -> Any:
        await database_at(database_url, ENGINE_SEATS - 1)
        await execute_raw(
            database_url,
            "INSERT INTO matches (id, channel_id, game, variant, seed, status, snapshot, "
            "created_at, updated_at) VALUES (1, 5, 'quorum', 'standard', 1, 'pending', '{}', "
            "'t', 't')",
            "INSERT INTO seats (match_id, seat, user_id, name, accepted) "
            "VALUES (1, 1, 11, 'alice', 1), (1, 2, 12, 'bob', 0)",
        )
        store = await open_store(database_url)
        try:
            assert await store.schema_version() == len(MIGRATIONS)
            return await store.get_match(1)
        finally:
            await store.close()

    row = asyncio.run(main())
    assert [(s.user_id, s.name, s.accepted, s.engine) for s in row.seats] == [
        (11, "alice", True, None),
        (12, "bob", False, None),
    ]


def test_copy_db_keeps_the_computers_seats(database_url: str, tmp_path: Path) -> None:
    """`--copy-db` from SQLite into each backend carries the engine levels, the bot in two
    seats of one match included."""

    async def main() -> None:
        source = await open_store(f"sqlite:///{tmp_path / 'source.sqlite3'}")
        service = MatchService(source, seeds=lambda: 5)
        computer = Player(99, "Board Games", bot=True, engine=3)
        request = service.challenges.prepare(
            guild_id=1,
            channel_id=2,
            challenger=Player(11, "alice"),
            game="boost",
            opponents=[Player(12, "bob"), computer, computer],
        )
        match = await service.challenges.open(request)
        assert not match.row.rated, "a match with the computer seated is stored unrated"
        target = await open_store(database_url)
        try:
            await copy_database(source, target)
            assert await differences(source, target) == []
            copied = await target.get_match(match.id)
            assert copied is not None and not copied.rated
            assert [(s.user_id, s.engine) for s in copied.seats] == [
                (11, None),
                (12, None),
                (99, 3),
                (99, 3),
            ]
        finally:
            await source.close()
            await target.close()

    asyncio.run(main())


def test_against_the_computer_only_the_person_is_reminded_and_times_out(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, alice = await challenge_bot(h, "quorum", level=1, days=1)
        sent = await h.command(alice, "move", move="a1e3")
        reply = [s for s in public(sent) if s.pngs][-1]
        assert "Deadline: <t:" in reply.content, "alice's clock runs after the computer's reply"
        *reminders, ending, replay = [s.content for s in public(await h.advance(DAY))]
        assert replay.startswith("Replay of Quorum")
        assert len(reminders) == 2 and all(f"<@{alice.id}>, reminder" in r for r in reminders)
        assert "alice ran out of time" in ending
        assert f"<@{h.bot_user.id}>" not in "".join(reminders)
        match = await h.bot.service.cache.get(match_id)
        assert match.row.outcome == {"winners": [2], "reason": "timeout"}

    offline(scenario, ai_nodes=NODES)


def test_the_computer_to_move_is_never_reminded_nor_timed_out(database_url: str) -> None:
    """Its turns have deadlines like anyone's, but the jobs they schedule do nothing."""

    async def main() -> None:
        store = await open_store(database_url)
        clock = ManualClock(START)
        service = MatchService(store, clock=clock)
        try:
            request = service.challenges.prepare(
                guild_id=1,
                channel_id=2,
                challenger=Player(11, "alice"),
                game="quorum",
                opponents=[Player(99, "Board Games", bot=True, engine=1)],
                days=1,
            )
            match = await service.challenges.open(request)
            assert (await service.challenges.accept_engines(match.id)).started
            match = (await service.turns.move(match.id, 11, "a1e3")).match
            assert match.to_move is not None and match.to_move.engine == 1
            clock_shown = await service.deadlines.upcoming(match)  # as its board is posted
            assert clock_shown is not None
            deadline = await service.deadlines.start_clock(match, clock_shown)
            assert deadline == START + DAY == await service.deadlines.deadline(match)
            clock.advance(2 * DAY)
            for kind in (JobKind.REMINDER, JobKind.LAST_REMINDER):
                job = JobRow(0, match.id, kind, match.row.ply, deadline)
                assert await service.deadlines.remind(job) is None
            assert await service.deadlines.time_out(match.id, match.row.ply) is None
            assert (await service.cache.get(match.id)).status == Status.ACTIVE
        finally:
            service.offload.close()
            await store.close()

    asyncio.run(main())


def test_a_move_against_the_computer_cannot_be_taken_back(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, alice = await challenge_bot(h, "quorum", level=1)
        await h.command(alice, "move", move="a1e3")
        refused = private(await h.command(alice, "takeback"))[0].content
        assert "cannot be taken back in a game with the computer" in refused
        assert len(await h.bot.store.moves(match_id)) == 2

    offline(scenario, ai_nodes=NODES)
