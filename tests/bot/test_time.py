"""Time limits through the offline Discord: deadlines, reminders, DMs, timeouts, expiry,
restarts and races. The bot's clock is a ManualClock: tests move it, nothing sleeps."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.clock import DAY, HOUR, ManualClock, describe_duration, parse_duration
from bot.offline import OfflineDiscord, Sent
from bot.service import ServiceError
from bot.store import JobKind
from tests.bot.support import (
    OPENING,
    START,
    ended_process,
    new_bot,
    opening,
    private,
    public,
    start_match,
)
from tests.bot.test_cli import bot_command


def said(sent: list[Sent], *, channel_id: int | None = None) -> list[str]:
    """The public messages (text only) the bot sent, optionally in one channel."""
    return [s.content for s in public(sent) if channel_id is None or s.channel_id == channel_id]


def clock_of(h: OfflineDiscord) -> ManualClock:
    assert isinstance(h.bot.clock, ManualClock)
    return h.bot.clock


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("20h", 20 * HOUR),
        ("3d", 3 * DAY),
        ("1d12h", 36 * HOUR),
        ("30m", 1800),
        ("1d 2h", 26 * HOUR),
    ],
)
def test_durations_read_as_offline_mode_writes_them(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "20", "h", "2 weeks", "1x", "-3d"])
def test_a_bad_duration_says_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match="like 20h, 3d, 1d12h or 30m"):
        parse_duration(text)


def test_durations_are_described_for_players() -> None:
    assert str(describe_duration(36 * HOUR + 59)) == "1 day 12 hours"
    assert str(describe_duration(DAY + 120)) == "1 day 2 minutes"
    assert str(describe_duration(HOUR)) == "1 hour"
    assert str(describe_duration(5)) == "less than a minute"


def test_every_board_shows_the_deadline_and_the_clock_restarts_each_turn(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=2)
        first = h.latest(lambda s: "Move" in s.buttons)
        assert f"Deadline: <t:{int(START) + 2 * DAY}:R>." in first.content
        await h.advance(10 * HOUR)
        sent = await h.command(alice, "move", move="a1e3")
        assert f"<t:{int(START) + 10 * HOUR + 2 * DAY}:R>" in public(sent)[0].content
        due = int(START) + 10 * HOUR + 2 * DAY
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 1) == due
        (shown,) = private(await h.command(bob, "board"))
        assert f"Deadline: <t:{due}:R>." in shown.content

    offline(scenario)


def test_no_limit_means_no_deadline_and_nothing_scheduled(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=0)
        board = h.latest(lambda s: "Move" in s.buttons)
        assert "Deadline" not in board.content
        assert (await h.bot.service.cache.get(match_id)).row.days_per_move == 0
        assert await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 0) is None
        assert said(await h.advance(30 * DAY)) == []
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


def test_an_unoffered_number_of_days_is_refused(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        sent = await h.command(
            h.user("alice"), "challenge", game="quorum", opponent=h.user("bob"), days=4
        )
        assert private(sent)[0].content.startswith("4 is not a choice for days.")

    offline(scenario)


def test_reminders_once_per_threshold_then_the_timeout(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        (thread,) = h.threads()
        where = int(thread["id"])
        await opening(h, alice, bob)
        assert said(await h.advance(17 * HOUR)) == []
        (reminder,) = said(await h.advance(2 * HOUR), channel_id=where)  # a quarter left at 18h
        assert reminder.startswith(f"<@{bob.id}>, reminder: your move is due <t:")
        assert said(await h.advance(3 * HOUR)) == []  # not again
        (last,) = said(await h.advance(90 * 60), channel_id=where)  # one hour left at 23h
        assert "reminder" in last and f"<@{bob.id}>" in last
        ending, replay = said(await h.advance(HOUR), channel_id=where)
        assert "bob ran out of time" in ending and "alice wins (timeout)" in ending
        assert replay.startswith("Replay of Quorum #1")
        assert h.channels[where]["thread_metadata"]["archived"]
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "finished" and match.row.outcome == {
            "winners": [1],
            "reason": "timeout",
        }
        assert [m.notation for m in await h.bot.store.moves(match_id)] == [*OPENING, "timeout 2"]
        assert await h.bot.service.audit.check() == []
        assert said(await h.advance(10 * DAY)) == []

    offline(scenario)


@pytest.mark.both_backends
def test_a_timeout_is_rated_once_and_its_result_carries_the_replay(
    offline: Any, database: str
) -> None:
    """A timeout ends the match through the same path as any ending: rated exactly once (a
    restart rates nothing again), the replay follows the result post, and the reminders
    and the result ping only the player they address."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await opening(h, alice, bob)
        already = len(h.requests)
        await h.advance(2 * DAY)
        ending = h.latest(lambda s: "Game over" in s.content)
        assert "alice wins (timeout)" in ending.content
        replay = h.latest(lambda s: s.content.startswith("Replay of Quorum"))
        (gif,) = [data for name, data in replay.files if name.endswith(".gif")]
        with Image.open(io.BytesIO(gif)) as image:
            assert getattr(image, "n_frames", 1) == 5  # the setup, three moves, the timeout
        pinged = [
            {int(u) for u in body["allowed_mentions"].get("users", [])}
            for _, _, body in h.requests[already:]
            if body and "allowed_mentions" in body
        ]
        assert pinged.count({bob.id}) == 2 and all(users <= {bob.id} for users in pinged)
        match = await h.bot.service.cache.get(match_id)
        guild = match.row.guild_id
        assert guild is not None
        won = await h.bot.store.rank_of(guild, "quorum", alice.id)
        lost = await h.bot.store.rank_of(guild, "quorum", bob.id)
        assert won is not None and (won[0], won[1].wins, won[1].games) == (1, 1, 1)
        assert lost is not None and (lost[1].losses, lost[1].games) == (1, 1)
        await h.restart(new_bot(database, clock=clock_of(h)))
        assert await h.bot.store.unrated_matches() == []
        assert not await h.bot.service.ratings.rate(match)
        again = await h.bot.store.rank_of(guild, "quorum", alice.id)
        assert again is not None and again[1].games == 1

    offline(scenario)


@pytest.mark.both_backends
def test_a_restart_between_reminder_and_timeout_neither_loses_nor_repeats(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await opening(h, alice, bob)
        (reminder,) = said(await h.advance(20 * HOUR))
        assert "reminder" in reminder

        await h.restart(new_bot(database, clock=clock_of(h)))

        sent = said(await h.advance(5 * HOUR))
        assert len(sent) == 3 and "reminder" in sent[0]  # only the one-hour reminder
        assert "alice wins (timeout)" in sent[1] and sent[2].startswith("Replay of")
        assert (await h.bot.service.cache.get(match_id)).status == "finished"

    offline(scenario)


@pytest.mark.both_backends
def test_a_deadline_missed_while_the_bot_was_down_is_not_lost(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await opening(h, alice, bob)
        clock = clock_of(h)
        clock.advance(2 * DAY)  # time passes and no job runs, as if the bot were down
        start = len(h.sent)
        await h.restart(new_bot(database, clock=clock))
        await h.advance(0)
        ending, replay = said(h.sent[start:])  # late reminders are skipped, not the timeout
        assert "alice wins (timeout)" in ending and replay.startswith("Replay of")

    offline(scenario)


@pytest.mark.both_backends
def test_jobs_claimed_but_unfinished_at_a_stop_run_again_only_when_guarded(
    offline: Any, database: str
) -> None:
    """A process that claimed jobs and died: after a restart the timeout runs (its write is
    ply-checked, so running twice cannot act twice); the reminders count as done, since a
    repeated reminder is worse than a lost one."""

    async def scenario(h: OfflineDiscord) -> None:
        await start_match(h, days=1)
        store, owner = h.bot.store, ended_process()
        later = int(START) + 2 * DAY
        claimed = [await store.claim_job(owner, later) for _ in range(3)]
        assert [job.kind for job in claimed if job] == [
            JobKind.REMINDER,
            JobKind.LAST_REMINDER,
            JobKind.TIMEOUT,
        ]
        await h.restart(new_bot(database, clock=clock_of(h)))
        (ending,) = said(await h.advance(2 * DAY))  # alice's first move: an abort, no replay
        assert ending.startswith("**Quorum #1 is aborted**: alice did not make a first move")
        assert await h.bot.store.claim_job(owner, int(START) + 3 * DAY) is None  # all done

    offline(scenario)


@pytest.mark.both_backends
def test_a_replay_left_unposted_by_a_stop_is_made_at_the_next_start_once(
    offline: Any, database: str
) -> None:
    """The process claimed the replay job and died before posting it: the next start
    posts it, and only once."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")  # a game without turns has no replay
        await h.bot.scheduler.stop()

        async def nothing_runs() -> int:
            return 0

        h.bot.scheduler.run_due = nothing_runs  # type: ignore[method-assign]
        sent = await h.command(alice, "resign")
        await h.click(alice, private(sent)[0].message_id or 0, "Resign")
        assert not [s for s in h.sent if s.content.startswith("Replay of")]
        store, owner = h.bot.store, ended_process()
        job = await store.claim_job(owner, int(START))
        assert job is not None and job.kind == JobKind.REPLAY and job.match_id == match_id
        await h.restart(new_bot(database, clock=clock_of(h)))
        await h.advance(DAY)
        replays = [s for s in h.sent if s.content.startswith("Replay of Quorum #1")]
        assert len(replays) == 1 and replays[0].files[0][0] == "quorum-1-replay.gif"

    offline(scenario)


@pytest.mark.both_backends
def test_the_claim_gives_each_due_job_to_exactly_one_claimer(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        await start_match(h, days=1)
        store = h.bot.store
        claims = await asyncio.gather(
            *(store.claim_job(f"process-{n}", int(START) + DAY) for n in range(10))
        )
        got = [c.kind for c in claims if c is not None]
        assert sorted(got) == sorted([JobKind.REMINDER, JobKind.LAST_REMINDER, JobKind.TIMEOUT])

    offline(scenario)


@pytest.mark.both_backends
@pytest.mark.parametrize("move_first", [True, False])
def test_a_move_racing_its_timeout_has_exactly_one_winner(offline: Any, move_first: bool) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        clock_of(h).advance(DAY)  # the deadline is now; no job has run yet
        service = h.bot.service
        # Both read the match at ply 0 and write with that ply: no lock, a true race.
        move = service.turns.move(match_id, alice.id, "a1e3")
        timeout = service.deadlines.time_out(match_id, 0)
        first, second = (move, timeout) if move_first else (timeout, move)
        results = await asyncio.gather(first, second, return_exceptions=True)
        moves = [m.notation for m in await h.bot.store.moves(match_id)]
        assert len(moves) == 1 and moves[0] in ("a1e3", "timeout 1")
        # Which lands is up to the database (on PostgreSQL the writes race on separate
        # pooled connections); the other is refused, and says so.
        won_by_move = moves == ["a1e3"]
        moved, timed_out = results if move_first else results[::-1]
        assert isinstance(moved, ServiceError) != won_by_move
        assert (timed_out is None) == won_by_move
        assert await service.audit.check() == []

    offline(scenario)


@pytest.mark.both_backends
def test_a_timeout_after_the_move_landed_changes_nothing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.advance(DAY - 60)
        await h.command(alice, "move", move="a1e3")
        assert await h.bot.service.deadlines.time_out(match_id, 0) is None
        assert said(await h.advance(120)) == []
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


def test_a_timeout_in_three_player_boost_removes_the_player_and_play_goes_on(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob, carol) = await start_match(h, "boost", 3, days=1)
        (thread,) = h.threads()
        for user in (alice, bob, carol):  # each makes a first move: no abort
            match = await h.bot.service.cache.get(match_id)
            move = match.game.format_move(match.state, match.game.legal_moves(match.state)[0])
            await h.command(user, "move", move=move)
        *reminders, ending = said(await h.advance(DAY))
        assert len(reminders) == 2 and all(f"<@{alice.id}>, reminder" in r for r in reminders)
        assert "alice ran out of time and is out of the game; the others play on." in ending
        assert f"<@{bob.id}>, your move" in ending
        assert f"<t:{int(START) + 2 * DAY}:R>" in ending  # bob's clock started
        assert not h.channels[int(thread["id"])]["thread_metadata"]["archived"]
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "active" and match.to_move is not None
        assert match.to_move.user_id == bob.id
        assert await h.bot.service.audit.check() == []

    offline(scenario)


@pytest.mark.both_backends
def test_an_unanswered_challenge_expires_after_seven_days(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        assert said(await h.advance(7 * DAY - 60)) == []
        sent = await h.advance(60)
        (edit,) = [s for s in sent if s.kind == "edit"]
        assert edit.message_id == challenge.message_id and edit.buttons == []
        assert "expired" in edit.content
        (told,) = said(sent)
        assert told.startswith(f"<@{alice.id}>, your challenge") and "expired unanswered" in told
        # A client that still shows the old buttons clicks Accept anyway.
        payload = h.component_payload(bob, challenge.message_id or 0, "bg:accept:1")
        payload["message"] = {**payload["message"], "components": challenge.components}
        (refusal,) = private(await h.run(payload, bob, challenge.message_id))
        assert "This challenge expired unanswered after 7 days" in refusal.content
        assert "ask alice for a new one" in refusal.content
        assert (await h.bot.service.cache.get(1)).status == "withdrawn"
        assert await h.bot.store.claim_job("anyone", int(START) + 30 * DAY) is None

    offline(scenario)


def test_a_challenge_expiring_during_an_outage_tells_its_challenger_after_it(
    offline: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "challenge", game="quorum", opponent=bob)
        await h.advance(7 * DAY - HOUR)
        h.fail_posts(3 * HOUR)
        assert said(await h.advance(2 * HOUR)) == []
        assert (await h.bot.service.cache.get(1)).status == "withdrawn"
        (told,) = said(await h.advance(2 * HOUR))
        assert told.startswith(f"<@{alice.id}>, your challenge") and "expired unanswered" in told
        assert not [r for r in caplog.records if r.levelname == "ERROR"]

    offline(scenario)


def test_an_answered_challenge_does_not_expire(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, _ = await start_match(h, days=0)
        assert said(await h.advance(8 * DAY)) == []
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


@pytest.mark.both_backends
def test_settings_dm_is_stored_and_shown(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        bob = h.user("bob")
        (shown,) = private(await h.command(bob, "settings"))
        assert "Direct messages: **off**" in shown.content
        (saved,) = private(await h.command(bob, "settings", dm="on"))
        assert saved.content.startswith("Saved. Direct messages: **on**")
        assert (await h.bot.store.preferences(bob.id)).dm

    offline(scenario)


def test_turns_and_reminders_come_by_dm_to_who_opted_in(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(bob, "settings", dm="on")
        match_id, _ = await start_match(h, days=1)
        assert h.dm_channel(alice) is None
        sent = await h.command(alice, "move", move="a1e3")
        dm = h.dm_channel(bob)
        (turn,) = [s for s in sent if s.channel_id == dm]
        assert turn.content.startswith("Your move in Quorum #1") and turn.pngs
        assert "https://discord.com/channels/" in turn.content
        sent = await h.advance(20 * HOUR)
        (reminder,) = public(sent)
        assert reminder.channel_id == dm and reminder.content.startswith("Reminder: your move")
        assert reminder.pngs

    offline(scenario)


@pytest.mark.both_backends
def test_a_refused_dm_falls_back_to_the_mention_and_says_so_once(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(bob, "settings", dm="on")
        h.closed_dms.add(bob.id)
        match_id, _ = await start_match(h, days=1)
        (thread,) = h.threads()
        where = int(thread["id"])
        sent = await h.command(alice, "move", move="a1e3")
        board, notice = said(sent, channel_id=where)
        assert f"<@{bob.id}>, your move" in board
        assert notice.startswith(f"<@{bob.id}>, Discord would not let me send you a direct")
        assert (await h.bot.store.preferences(bob.id)).dm_refused
        (reminder,) = said(await h.advance(20 * HOUR))  # the mention, no second notice
        assert reminder.startswith(f"<@{bob.id}>, reminder") and public(sent)[0].channel_id == where
        (shown,) = private(await h.command(bob, "settings"))
        assert "Discord refused the last one" in shown.content
        h.closed_dms.clear()
        await h.command(bob, "settings", dm="on")  # open again: DMs resume
        (dm,) = [
            s for s in await h.advance(3 * HOUR + 30 * 60) if s.channel_id == h.dm_channel(bob)
        ]
        assert dm.content.startswith("Reminder")

    offline(scenario)


def test_offline_script_reminds_bob_then_alice_wins_on_time(tmp_path: Path) -> None:
    script = (
        "alice: /challenge game:quorum opponent:@bob days:1\n"
        "bob: click Accept\n"
        "alice: /move move:a1e3\n"
        "bob: /move move:h8h4\n"
        "alice: /move move:a2a6\n"
        "advance 20h\n"
        "advance 5h\n"
        "advance soon\n"
    )
    result = bot_command(tmp_path, "--offline", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first, _, rest = out.partition("advance 20h\n")
    second, _, third = rest.partition("advance 5h\n")
    assert "Deadline: in 1 day." in first
    assert "@bob, reminder: your move is due in 6 hours." in second
    assert "alice wins" not in second and "~ 20 hours later" in second
    assert "@bob, reminder: your move is due in 1 hour." in third
    assert "bob ran out of time." in third and "Game over: alice wins (timeout)." in third
    assert "~ thread archived" in third
    assert "?? 'soon' is not a duration" in third
    assert "Traceback" not in result.stderr
