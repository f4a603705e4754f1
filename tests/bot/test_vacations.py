"""Vacations through the offline Discord: a player's clocks stop in every server while they
are away, and start again when they are back (early or on time, the bot running or not)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import DAY, HOUR
from bot.offline import OfflineDiscord
from bot.store import JobKind
from tests.bot.support import START, new_bot, private, start_match
from tests.bot.test_time import clock_of, said


async def deadline(h: OfflineDiscord, match_id: int) -> int | None:
    match = await h.bot.service.cache.get(match_id)
    return await h.bot.store.due_time(match_id, JobKind.TIMEOUT, match.row.ply)


def timed_out(said: list[str]) -> list[str]:
    """The matches alice's clock ended: lost on time (by the title in their replay), or
    aborted at her first move."""
    endings = [text for text in said if "alice ran out of time" in text]
    replays = [
        text.split(":")[0].removeprefix("Replay of ") for text in said if "Replay of" in text
    ]
    assert len(endings) == len(replays)
    aborted = [
        text.split("**")[1].removesuffix(" is aborted")
        for text in said
        if "alice did not make a first move in time" in text
    ]
    return replays + aborted


def test_a_three_day_vacation_carries_a_one_day_match_past_three_days(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        due = int(START) + DAY
        assert await deadline(h, match_id) == due

        (answer,) = private(await h.command(alice, "vacation", days=3))
        back = int(START) + 3 * DAY
        assert f"You are on vacation until <t:{back}:f>" in answer.content
        assert "27 vacation days left" in answer.content
        (told,) = said(h.sent[-2:])
        moved = due + 3 * DAY
        assert (
            told
            == f"alice is on vacation until <t:{back}:f>, so their move is now due <t:{moved}:R>."
        )
        assert await deadline(h, match_id) == due + 3 * DAY

        assert said(await h.advance(3 * DAY)) == []  # no reminder, no timeout
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "active" and match.to_move is not None
        assert match.to_move.user_id == alice.id
        (board,) = private(await h.command(alice, "board"))
        assert f"Deadline: <t:{due + 3 * DAY}:R>." in board.content
        assert "on vacation" not in board.content  # it ended on time

        sent = said(await h.advance(DAY))
        assert timed_out(sent) == ["Quorum #1"]  # the moved deadline holds

    offline(scenario)


def test_boards_show_the_vacation_and_the_opponent_plays_on(offline: Any) -> None:
    """A turn reaching the vacationer starts its clock when they are back; a board posted
    meanwhile says until when they are away; the opponent's own clock runs as usual."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=2)
        await h.command(alice, "move", move="a1e3")
        await h.command(alice, "vacation", days=5)
        back = int(START) + 5 * DAY
        assert await deadline(h, match_id) == int(START) + 2 * DAY  # bob's clock runs
        await h.advance(HOUR)
        sent = await h.command(bob, "move", move="h8h4")
        board = h.latest(lambda s: "Move" in s.buttons)
        assert board in sent
        assert f"alice is on vacation until <t:{back}:f>." in board.content
        assert f"Deadline: <t:{back + 2 * DAY}:R>." in board.content
        assert said(await h.advance(5 * DAY)) == []
        assert timed_out(said(await h.advance(2 * DAY))) == ["Quorum #1"]

    offline(scenario)


@pytest.mark.both_backends
def test_ending_early_returns_the_unused_days_and_restarts_the_clocks(
    offline: Any, database: str
) -> None:
    """Days 0 brings every deadline the vacation put off forward by the time left: one that
    fell during the vacation and one after it, in matches in two different turns."""

    async def scenario(h: OfflineDiscord) -> None:
        first, (alice, bob) = await start_match(h, days=1)  # alice to move: due in 1 day
        await h.command(bob, "challenge", game="boku", opponent=alice, days=14)
        await h.click(alice, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        second = max(await h.bot.store.match_ids())
        await h.command(bob, "move", move="e5", match=str(second))
        later = await deadline(h, second)  # due in 14 days, after the vacation
        assert later == int(START) + 14 * DAY

        await h.command(alice, "vacation", days=10)
        assert await deadline(h, first) == int(START) + 11 * DAY
        assert await deadline(h, second) == int(START) + 24 * DAY
        await h.advance(2 * DAY + 12 * HOUR)
        (answer,) = private(await h.command(alice, "vacation", days=0))
        assert "Welcome back" in answer.content and "27 vacation days left" in answer.content
        away = 2 * DAY + 12 * HOUR
        assert await deadline(h, first) == int(START) + DAY + away
        assert await deadline(h, second) == int(START) + 14 * DAY + away
        (settings,) = private(await h.command(alice, "settings"))
        assert "27 vacation days left" in settings.content
        assert "On vacation" not in settings.content
        assert timed_out(said(await h.advance(DAY))) == ["Quorum #1"]  # not Boku yet

    offline(scenario)


@pytest.mark.both_backends
def test_a_vacation_ending_while_the_bot_is_down_needs_nothing_done(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")  # alice has moved: her timeout is a loss
        await h.command(alice, "vacation", days=2)
        clock = clock_of(h)
        clock.advance(4 * DAY)  # the bot is down through the end of the vacation and past
        start = len(h.sent)
        await h.restart(new_bot(database, clock=clock))
        await h.advance(0)
        assert timed_out(said(h.sent[start:])) == ["Quorum #1"]  # once, on starting
        assert (await h.bot.service.cache.get(match_id)).status == "finished"

    offline(scenario)


@pytest.mark.parametrize(
    ("days", "refusal"),
    [
        (31, "31 is out of range for days.\n-# give days 0 to 30"),
        (-1, "-1 is out of range for days.\n-# give days 0 to 30"),
        (0, "You are not on vacation"),
    ],
)
def test_bad_vacations_are_refused_and_change_nothing(
    offline: Any, days: int, refusal: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _bob) = await start_match(h, days=1)
        (answer,) = private(await h.command(alice, "vacation", days=days))
        assert answer.content.startswith(refusal)
        assert await deadline(h, match_id) == int(START) + DAY
        assert await h.bot.store.vacations(alice.id, 0) == []

    offline(scenario)


def test_thirty_days_in_any_365_and_one_vacation_at_a_time(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "vacation", days=20)
        (again,) = private(await h.command(alice, "vacation", days=3))
        assert again.content.startswith("You are on vacation until")
        await h.advance(21 * DAY)
        (refused,) = private(await h.command(alice, "vacation", days=11))
        assert refused.content.startswith("You have 10 vacation days left, not 11")
        await h.command(alice, "vacation", days=10)
        await h.advance(363 * DAY)  # a day of the first vacation is within the last 365
        (settings,) = private(await h.command(alice, "settings"))
        assert "19 vacation days left" in settings.content
        await h.advance(DAY)  # it ended 365 days ago: its days are back
        (settings,) = private(await h.command(alice, "settings"))
        assert "20 vacation days left" in settings.content

    offline(scenario)


def test_a_vacation_note_discord_does_not_take_is_said_in_the_answer(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, days=1)
        h.fail_posts(HOUR)
        (answer,) = private(await h.command(alice, "vacation", days=3))
        assert answer.content.startswith("You are on vacation until")
        assert answer.content.endswith(
            "Discord did not take the note saying so in Quorum #1: alice vs bob; the deadlines"
            " moved anyway."
        )
        due = await h.bot.store.due_time(match_id, JobKind.TIMEOUT, 0)
        assert due is not None and due > START + 3 * DAY

    offline(scenario)
