"""Posts kept as due work until Discord takes them (issue 36, points 1 and 2): a board that
fails to post is retried by a job with a growing backoff, the player to move is charged no
time while it was missing, and an analysis is finished only once its results are posted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.clock import DAY, HOUR, MINUTE, ManualClock
from bot.offline import OfflineDiscord, Sent
from bot.service.delivery import GIVE_UP_AFTER, retry_delay
from bot.store import JobKind
from tests.bot.support import START, new_bot, private, public, resign, start_match

LATE = "I could not post the board"
NODES = 200  # the analysis's search per position: quick, and the same every run


def clock_of(h: OfflineDiscord) -> ManualClock:
    assert isinstance(h.bot.clock, ManualClock)
    return h.bot.clock


def test_retries_back_off_from_a_minute_to_half_an_hour() -> None:
    waits = [retry_delay(attempts) // MINUTE for attempts in range(8)]
    assert waits == [1, 2, 4, 8, 16, 30, 30, 30]
    assert retry_delay(10_000) == 30 * MINUTE
    # Given up after about two days of trying.
    total = sum(retry_delay(attempts) for attempts in range(GIVE_UP_AFTER))
    assert 2 * DAY - HOUR < total < 2 * DAY + HOUR


@pytest.mark.both_backends
def test_a_board_that_fails_for_two_hours_starts_the_clock_when_it_is_posted(
    offline: Any, database: str
) -> None:
    """bob's board fails to post for two hours after alice's move: bob is not timed out a
    day after alice's move, his deadline and reminders count from the post, the board
    arrives once the outage ends (and survives a restart during it), and alice is told
    once."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        clock = clock_of(h)
        moved_at = int(clock.now())
        h.fail_posts(2 * HOUR)
        (told,) = private(await h.command(alice, "move", move="a1e3"))
        assert told.for_user == alice.id
        assert "bob's clock starts only then" in told.content
        store = h.bot.store
        assert await store.due_time(match_id, JobKind.TIMEOUT, 1) is None  # no clock yet
        (shown,) = private(await h.command(bob, "board"))
        assert "Deadline" not in shown.content  # nothing runs while the board is missing
        assert "No clock runs yet: it starts when this turn's board is posted" in shown.content
        (waiting,) = private(await h.command(bob, "next"))
        assert "your move, no clock yet: it starts when this turn's board is posted" in (
            waiting.content
        )

        await h.advance(HOUR)  # three retries so far, each refused
        await h.restart(new_bot(database, clock=clock))  # a stop loses no post
        store = h.bot.store
        posted_at: int | None = None
        boards: list[Sent] = []
        async for step in h.advancing(2 * HOUR):
            late = [s for s in public(step) if "alice played **a1e3**" in s.content]
            if late and posted_at is None:
                posted_at, boards = int(clock.now()), late
        assert posted_at is not None and len(boards) == 1
        assert moved_at + 2 * HOUR <= posted_at <= moved_at + 2 * HOUR + 30 * MINUTE
        (board,) = boards
        due = posted_at + DAY
        assert f"Deadline: <t:{due}:R>." in board.content and "Posted late" in board.content
        assert await store.due_time(match_id, JobKind.TIMEOUT, 1) == due
        assert await store.due_time(match_id, JobKind.REMINDER, 1) == due - DAY // 4

        clock_now = int(clock.now())
        await h.advance(moved_at + DAY + HOUR - clock_now)  # a day after alice's move
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "active" and match.row.ply == 1  # bob has not lost on time
        sent = await h.advance(due - int(clock.now()))
        assert any("bob did not make a first move in time" in s.content for s in public(sent))
        assert [s.for_user for s in h.sent if LATE in s.content] == [alice.id]  # told once

    offline(scenario)


def test_a_deleted_thread_stops_the_retries_and_the_players_are_told_by_dm(offline: Any) -> None:
    """Discord answers 404 for the match's thread: the board job gives up at once, each
    player gets a DM saying so, and nobody's clock runs."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        match = await h.bot.service.cache.get(match_id)
        h.fail_posts(5 * MINUTE)
        private(await h.command(alice, "move", move="a1e3"))
        del h.channels[match.channel_id]  # the thread is deleted
        h.fail_posts(None)
        sent = await h.advance(3 * DAY)
        told = [s.channel_id for s in sent if "stopped trying to post the board" in s.content]
        assert sorted(told) == sorted([h.dm(alice), h.dm(bob)])
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) is None
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


def _graphs(sent: list[Sent]) -> list[Sent]:
    return [s for s in public(sent) if any(n.endswith("-analysis.png") for n, _ in s.files)]


def test_analysis_retried_by_its_job_and_resumed_by_asking_again(offline: Any) -> None:
    """The graph's first post fails: the analysis stays unfinished, its job posts it once
    Discord takes posts again, and asking again meanwhile resumes the post instead of
    answering that it is done."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await resign(h, bob)
        await h.advance(0)  # the replay
        store = h.bot.store
        h.fail_posts(10 * MINUTE)
        await h.command(alice, "analysis")
        row = await store.analysis(match_id)
        assert row is not None and not row.finished and len(row.readings) == row.positions
        assert _graphs(h.sent) == []
        ply = (await h.bot.service.cache.get(match_id)).row.ply
        assert await store.due_time(match_id, JobKind.ANALYSIS, ply) is not None
        sent = await h.advance(15 * MINUTE)
        assert len(_graphs(sent)) == 1
        row = await store.analysis(match_id)
        assert row is not None and row.finished
        (answer,) = private(await h.command(alice, "analysis"))
        assert "has been analysed already" in answer.content

    offline(scenario, ai_nodes=NODES)


def test_asking_again_after_a_failed_post_resumes_it(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await resign(h, bob)
        await h.advance(0)
        h.fail_posts(10 * MINUTE)
        await h.command(alice, "analysis")
        assert _graphs(h.sent) == []
        h.fail_posts(None)
        (answer,) = private(await h.command(bob, "analysis"))
        assert "is being analysed already" in answer.content  # not "analysed already"
        assert len(_graphs(h.sent)) == 1  # posted by asking, at once
        await h.advance(HOUR)  # its job finds it posted: no second graph
        assert len(_graphs(h.sent)) == 1
        row = await h.bot.store.analysis(match_id)
        assert row is not None and row.finished

    offline(scenario, ai_nodes=NODES)


def test_without_embed_links_the_analysis_posts_as_text_and_images(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "embed_links")
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await resign(h, bob)
        await h.command(alice, "analysis")
        (graph,) = _graphs(h.sent)
        assert graph.embeds == []
        assert "**Computer analysis:" in graph.content and "Accuracy" in graph.content
        row = await h.bot.store.analysis(match_id)
        assert row is not None and row.finished

    offline(scenario, ai_nodes=NODES)


def test_the_computers_reply_refused_by_discord_arrives_when_the_outage_ends(
    offline: Any,
) -> None:
    """alice moves against the computer during an outage: she is told once, the computer's
    reply is saved, and one board with both turns arrives when Discord takes posts again,
    her clock counting from it."""

    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "challenge", game="quorum", opponent=h.bot_user, level=1, days=1)
        match_id = max(await h.bot.store.match_ids())
        h.fail_posts(30 * MINUTE)
        (told,) = private(await h.command(alice, "move", move="a1e3"))
        assert LATE in told.content
        match = await h.bot.service.cache.get(match_id)
        assert match.row.ply == 2 and match.to_move is not None  # the reply is saved
        sent = await h.advance(HOUR)
        (board,) = [s for s in public(sent) if s.pngs]
        assert "alice played **a1e3**.\nComputer (Black) played" in board.content
        due = await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 2)
        assert due is not None and due >= START + 30 * MINUTE + DAY
        assert [s.for_user for s in h.sent if LATE in s.content] == [alice.id]

    offline(scenario, ai_nodes=NODES)


@pytest.mark.both_backends
def test_a_last_reminder_discord_fails_is_sent_later_and_keeps_its_hour(
    offline: Any, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """alice's deadline falls while Discord fails every post for five hours: her last
    reminder is tried again (a restart in the middle loses nothing), she does not lose on
    time unwarned, and once the reminder reaches her she has the hour it promises."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        clock = clock_of(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        deadline = await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 2)
        assert deadline is not None
        await h.advance(20 * HOUR)  # her first reminder came
        outage = len(h.sent)
        h.fail_posts(6 * HOUR)  # her last reminder falls due after 3 hours of it
        await h.advance(deadline + HOUR - int(clock.now()))  # an hour past her deadline
        assert (await h.bot.service.cache.get(match_id)).row.ply == 2  # not timed out
        shown = await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 2)
        assert shown is not None and shown >= clock.now() + 30 * MINUTE  # not "in 1 minute"
        assert not [s for s in h.sent[outage:] if f"<@{alice.id}>, reminder" in s.content]
        await h.restart(new_bot(database, clock=clock))
        reminded_at: int | None = None
        async for step in h.advancing(2 * HOUR):
            if [s for s in public(step) if "reminder" in s.content]:
                reminded_at = int(clock.now())
                break
        assert reminded_at is not None and reminded_at >= deadline + 2 * HOUR  # outage's end
        due = reminded_at + HOUR
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 2) == due
        (reminder,) = [s for s in h.sent[outage:] if f"<@{alice.id}>, reminder" in s.content]
        assert f"<t:{due}:R>" in reminder.content
        await h.advance(due - 60 - int(clock.now()))
        assert (await h.bot.service.cache.get(match_id)).row.ply == 2  # her hour holds
        sent = await h.advance(120)
        assert any("alice ran out of time" in s.content for s in public(sent))
        assert "Traceback" not in caplog.text and not [
            r for r in caplog.records if r.levelname == "ERROR"
        ]

    offline(scenario)


def test_a_bank_waiting_for_its_board_is_not_said_to_run(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h, days=1, clock="bank", increment=1, cap=3)
        await h.command(alice, "move", move="a1e3")
        h.fail_posts(HOUR)
        await h.command(bob, "move", move="h8h4")
        (shown,) = private(await h.command(alice, "board"))
        assert "No clock runs yet" in shown.content
        assert "Time left: alice 2 days · bob 2 days." in shown.content  # 1 + 1 earned
        assert "(running)" not in shown.content

    offline(scenario)


def test_both_reminders_held_back_by_one_outage_come_once(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await h.advance(17 * HOUR)
        h.fail_posts(10 * HOUR)  # both of bob's reminders (18 and 23 hours) fall in it
        sent = await h.advance(12 * HOUR)
        reminders = [s for s in public(sent) if f"<@{bob.id}>, reminder" in s.content]
        assert len(reminders) == 1

    offline(scenario)


def test_a_held_back_reminder_keeps_its_hour_off_the_weekend(offline: Any) -> None:
    """Weekends off: bob's last reminder, due Friday 07:00 UTC, is held back by Discord until
    about midnight; the hour it gives him runs on Monday, not on Saturday."""

    async def scenario(h: OfflineDiscord) -> None:
        await h.advance(6 * DAY)  # from Friday 08:00 to Thursday 08:00
        match_id, (alice, bob) = await start_match(h, days=1, weekends="off")
        await h.command(alice, "move", move="a1e3")  # bob's day: to Friday 08:00
        await h.advance(22 * HOUR)  # Friday 06:00
        h.fail_posts(17 * HOUR + 30 * MINUTE)  # to Friday 23:30
        await h.advance(18 * HOUR + 10 * MINUTE)  # Saturday 00:10
        due = await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1)
        assert due is not None
        monday = datetime.fromtimestamp(START + 10 * DAY - 8 * HOUR, UTC)
        assert monday.weekday() == 0 and monday.hour == 0
        assert monday.timestamp() < due <= monday.timestamp() + HOUR
        await h.advance(2 * DAY)  # the weekend passes: bob is still to move
        assert (await h.bot.service.cache.get(match_id)).row.ply == 1
        assert any(f"<@{bob.id}>, reminder" in s.content for s in h.sent)

    offline(scenario)


def test_an_abort_in_a_deleted_thread_is_given_up_and_its_players_told_by_dm(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        match = await h.bot.service.cache.get(match_id)
        await h.command(alice, "move", move="a1e3")
        del h.channels[match.channel_id]  # the thread is deleted
        sent = await h.advance(2 * DAY)  # bob's first move times out: the match is aborted
        told = [s for s in sent if "ended without being played" in s.content]
        assert sorted(s.channel_id for s in told) == sorted([h.dm(alice), h.dm(bob)])
        assert told[0].content.startswith("I have stopped trying to post in <#")
        assert (await h.bot.service.cache.get(match_id)).row.aborted_at is not None

    offline(scenario)
