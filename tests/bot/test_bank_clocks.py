"""Clocks through the offline Discord: a bank (Fischer in days), weekends off in each
player's time zone, /time give, and clocks with vacations, reminders and premoves. The tests
start on Friday 15 January 2027, 08:00 UTC (tests/bot/support.py's START)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import DAY, HOUR
from bot.offline import OfflineDiscord
from bot.store import JobKind
from tests.bot.support import START as STARTED
from tests.bot.support import private, public, start_match
from tests.bot.test_time import said

START = int(STARTED)
BANK: dict[str, Any] = {"clock": "bank", "days": 3, "increment": 1, "cap": 7}


async def deadline(h: OfflineDiscord, match_id: int) -> int | None:
    match = await h.bot.service.cache.get(match_id)
    return await h.bot.store.due_time(match_id, JobKind.TIMEOUT, match.row.ply)


def refusal(sent: list[Any]) -> str:
    (answer,) = private(sent)
    return str(answer.content)


@pytest.mark.both_backends
def test_a_bank_keeps_what_was_not_spent_plus_the_increment_up_to_the_cap(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, **BANK)
        challenge = h.latest(lambda s: "challenges" in s.content)
        assert "3 days in the bank, +1 per move up to 7" in challenge.content
        assert await deadline(h, match_id) == START + 3 * DAY
        first = h.latest(lambda s: "Move" in s.buttons)
        assert "Time left: alice 3 days (running) · bob 3 days." in first.content

        await h.advance(DAY)
        (board,) = public(await h.command(alice, "move", move="a1e3"))
        assert "Time left: alice 3 days · bob 3 days (running)." in board.content
        await h.advance(12 * HOUR)
        (board,) = public(await h.command(bob, "move", move="h8h4"))
        assert "alice 3 days (running) · bob 3 days 12 hours." in board.content
        for _ in range(4):  # quick moves fill alice's bank up to its cap, not past it
            await h.command(alice, "move", move=await _any_move(h, match_id))
            await h.command(bob, "move", move=await _any_move(h, match_id))
        match = await h.bot.service.cache.get(match_id)
        assert match.row.banks == (7 * DAY, 7 * DAY)
        assert await deadline(h, match_id) == START + DAY + 12 * HOUR + 7 * DAY

        (board,) = private(await h.command(alice, "board"))
        assert "Time left: alice 7 days (running) · bob 7 days." in board.content
        reminders = said(await h.advance(7 * DAY - 1))
        assert [text.split(": ")[0] for text in reminders] == [f"<@{alice.id}>, reminder"] * 2
        sent = said(await h.advance(2))
        assert any("alice ran out of time" in text for text in sent)

    offline(scenario)


async def _any_move(h: OfflineDiscord, match_id: int) -> str:
    match = await h.bot.service.cache.get(match_id)
    game = match.game
    move = next(m for m in game.legal_moves(match.state) if game.format_move(match.state, m))
    return game.format_move(match.state, move)


def test_weekends_off_stop_each_clock_in_its_players_own_time_zone(offline: Any) -> None:
    """alice (UTC) starts on Friday 08:00 with a day: 16 hours run on Friday, 8 on Monday.
    bob (Berlin, UTC+1) gets the turn on Sunday evening: his day starts on Monday 00:00 in
    Berlin, which is 23:00 UTC on Sunday."""

    async def scenario(h: OfflineDiscord) -> None:
        bob = h.user("bob")
        (answer,) = private(await h.command(bob, "settings", timezone="Europe/Berlin"))
        assert "Your time zone: Europe/Berlin" in answer.content
        match_id, (alice, bob) = await start_match(h, days=1, weekends="off")
        assert (
            "1 day per move, weekends off" in h.latest(lambda s: "challenges" in s.content).content
        )
        monday = START + 3 * DAY - 8 * HOUR  # 00:00 UTC
        assert await deadline(h, match_id) == monday + 8 * HOUR
        assert said(await h.advance(2 * DAY + 12 * HOUR)) == []  # Sunday 20:00 UTC: all quiet
        await h.command(alice, "move", move="a1e3")
        berlin_monday = monday - HOUR
        assert await deadline(h, match_id) == berlin_monday + DAY
        sent = said(await h.advance(DAY + 3 * HOUR))  # bob's first move: the match aborts
        assert any("bob did not make a first move in time" in text for text in sent)

    offline(scenario)


def test_a_time_zone_must_be_one_known_and_is_offered_as_typed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        answer = refusal(await h.command(alice, "settings", timezone="Mars/Olympus"))
        assert "“Mars/Olympus” is not a time zone I know" in answer
        assert "Your time zone: UTC, the default" in refusal(await h.command(alice, "settings"))
        choices = await h.autocomplete(alice, "settings", "timezone", timezone="new york")
        assert choices == ["America/New_York"]
        assert len(await h.autocomplete(alice, "settings", "timezone", timezone="")) == 25

    offline(scenario)


@pytest.mark.parametrize(
    ("options", "wrong"),
    [
        ({"clock": "bank", "days": 0}, "A bank clock needs days to start with"),
        ({"clock": "bank", "days": 14, "cap": 7}, "cap (7 days) cannot be less than the days"),
        ({"increment": 1}, "increment and cap are for a bank clock"),
        ({"days": 0, "weekends": "off"}, "Weekends off stop a clock, and days “no limit”"),
    ],
)
def test_a_clock_that_cannot_run_is_refused_and_nothing_is_stored(
    offline: Any, options: dict[str, Any], wrong: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        answer = refusal(
            await h.command(alice, "challenge", game="quorum", opponent=bob, **options)
        )
        assert wrong in answer
        assert await h.bot.store.match_ids() == []

    offline(scenario)


def test_time_given_extends_a_running_clock_or_waits_for_the_next_turn(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=2)
        (told,) = public(await h.command(bob, "time give", days=1))
        due = START + 3 * DAY
        assert (
            told.content == f"bob gave <@{alice.id}> 1 more day: their move is now due <t:{due}:R>."
        )
        assert await deadline(h, match_id) == due
        assert said(await h.advance(2 * DAY)) == []  # the reminder moved with the deadline

        (told,) = public(await h.command(alice, "time give", days=2))
        assert told.content == f"alice gave <@{bob.id}> 2 more days, added to their clock."
        await h.command(alice, "move", move="a1e3")
        assert await deadline(h, match_id) == START + 2 * DAY + 4 * DAY
        await h.command(bob, "move", move="h8h4")
        await h.command(alice, "move", move="e3e4")
        assert await deadline(h, match_id) == START + 2 * DAY + 2 * DAY  # used up

        carol = h.user("carol")
        assert "not playing" in refusal(
            await h.command(carol, "time give", match=str(match_id), days=1)
        )
        assert "out of range" in refusal(await h.command(bob, "time give", days=31))

    offline(scenario)


def test_a_bank_clock_with_a_vacation_a_premove_and_a_gift(offline: Any) -> None:
    """A vacation stops the bank (the days away are not spent); a premove answer spends
    nothing and earns the increment; time given to a bank is kept above its cap."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, **BANK)
        await h.advance(DAY)
        await h.command(alice, "vacation", days=2)
        assert await deadline(h, match_id) == START + 5 * DAY
        await h.advance(2 * DAY)
        await h.command(alice, "move", move="a1e3")  # 2 days left, +1
        await h.command(alice, "premove", line="h8h4 b1d3")
        await h.advance(HOUR)
        await h.command(bob, "move", move="h8h4")  # alice answers at once: 3 + 1 days
        match = await h.bot.service.cache.get(match_id)
        assert match.row.banks == (4 * DAY, 3 * DAY - HOUR + DAY)
        (told,) = public(await h.command(alice, "time give", days=5))
        assert "added to their clock" not in told.content  # bob's clock runs: due later
        await h.command(bob, "move", move="g8g4")
        match = await h.bot.service.cache.get(match_id)
        # above the cap: the gift is kept, the increment adds nothing
        assert match.row.banks[1] == 3 * DAY - HOUR + DAY + 5 * DAY

    offline(scenario)


@pytest.mark.both_backends
def test_a_private_note_is_shown_to_its_writer_alone_and_kept_after_the_game(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        saved = refusal(await h.command(alice, "note", text="take the centre by move 10"))
        assert "Note kept for" in saved and "take the centre by move 10" in saved
        (board,) = private(await h.command(alice, "board"))
        assert "Your note: take the centre by move 10" in board.content
        (board,) = private(await h.command(bob, "board"))
        assert "Your note" not in board.content
        assert "You have no note" in refusal(await h.command(bob, "note"))
        long = refusal(await h.command(alice, "note", text="x" * 1001))
        assert "at most 1000 characters; yours has 1001" in long
        assert "take the centre" in refusal(await h.command(alice, "note"))
        carol = h.user("carol")
        assert "Only the players" in refusal(
            await h.command(carol, "note", match=str(match_id), text="hi")
        )

        await h.command(alice, "move", move="a1e3")
        (question,) = private(await h.command(bob, "resign"))
        await h.click(bob, question.message_id or 0, "Resign")
        assert "take the centre" in refusal(await h.command(alice, "note", match=str(match_id)))
        assert "Note deleted" in refusal(
            await h.command(alice, "note", match=str(match_id), text="-")
        )
        assert "You have no note" in refusal(await h.command(alice, "note", match=str(match_id)))
        assert "You have no note" in refusal(  # deleting it again deletes nothing
            await h.command(alice, "note", match=str(match_id), text="-")
        )
        assert all("take the centre" not in s.content for s in public(h.sent))

    offline(scenario)


def test_a_tournaments_games_run_on_its_clock(offline: Any) -> None:
    """A round-robin on a bank clock with weekends off: its entry says so, and its games
    keep banks and stop for the weekend like any other."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "tournament create", game="quorum", format="round-robin",
                        clock="bank", days=1, increment=1, cap=3, weekends="off")  # fmt: skip
        entry = h.latest(lambda s: "Join" in s.buttons)
        assert "1 day in the bank, +1 per move up to 3, weekends off" in entry.content
        carol = h.user("carol")
        for user in (bob, carol):
            await h.click(user, entry.message_id or 0, "Join")
        await h.command(alice, "tournament start")
        match_id = max(await h.bot.store.match_ids())
        match = await h.bot.service.cache.get(match_id)
        assert (match.row.clock_cap, match.row.clock_increment, match.row.weekends_off) == (
            3,
            1,
            True,
        )
        mover = match.to_move
        assert mover is not None
        monday = START + 3 * DAY - 8 * HOUR
        assert await deadline(h, match_id) == monday + 8 * HOUR  # 16 h on Friday, 8 on Monday
        await h.advance(2 * DAY)  # Sunday: the bank stands still
        first = next(u for u in (alice, bob, carol) if u.id == mover.user_id)
        await h.command(first, "move", move=await _any_move(h, match_id), match=str(match_id))
        match = await h.bot.service.cache.get(match_id)
        # Friday's 16 hours spent, the weekend not: 8 hours left, and the increment
        assert match.row.banks[mover.seat - 1] == 8 * HOUR + DAY
        text = said(h.sent[-3:])
        assert any("Time left:" in line for line in text)

    offline(scenario)
