"""The clock model alone (bot/service/clocks.py): deadlines, weekends in a zone, banks."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock import DAY, HOUR
from bot.service import clocks
from bot.service.clocks import ClockTerms

BERLIN = clocks.zone("Europe/Berlin")
ZONES = [clocks.UTC, BERLIN, clocks.zone("America/New_York"), clocks.zone("Pacific/Auckland")]
FRIDAY = int(datetime(2027, 1, 15, 12, tzinfo=clocks.UTC).timestamp())  # noon UTC
BANK = ClockTerms(increment=1, cap=7)


def test_without_weekends_off_a_deadline_is_the_plain_sum() -> None:
    assert clocks.deadline_after(FRIDAY, 3 * DAY, None) == FRIDAY + 3 * DAY
    assert clocks.running(FRIDAY, FRIDAY + 5 * DAY, None) == 5 * DAY


def test_a_clock_started_on_friday_stops_for_the_weekend() -> None:
    """Friday noon UTC plus a day and a half: 12 hours on Friday, then Monday 00:00 + 24 h."""
    due = clocks.deadline_after(FRIDAY, DAY + 12 * HOUR, clocks.UTC)
    assert due == FRIDAY + 12 * HOUR + 2 * DAY + DAY
    assert clocks.running(FRIDAY, due, clocks.UTC) == DAY + 12 * HOUR


def test_the_weekend_is_the_players_own() -> None:
    """In Berlin (UTC+1 in January) Saturday begins at 23:00 UTC on Friday."""
    due = clocks.deadline_after(FRIDAY, 12 * HOUR, BERLIN)
    saturday_berlin = FRIDAY + 11 * HOUR
    assert due == saturday_berlin + 2 * DAY + HOUR
    assert clocks.deadline_after(FRIDAY, 12 * HOUR, clocks.UTC) == FRIDAY + 12 * HOUR + 2 * DAY


def test_a_clock_started_on_a_weekend_starts_on_monday() -> None:
    sunday = FRIDAY + 2 * DAY
    monday = FRIDAY + 2 * DAY + 12 * HOUR
    assert clocks.deadline_after(sunday, HOUR, clocks.UTC) == monday + HOUR
    assert clocks.paused(sunday, clocks.UTC) and not clocks.paused(monday, clocks.UTC)
    assert not clocks.paused(sunday, None)


def test_turn_times_put_reminders_at_three_quarters_and_an_hour_before() -> None:
    times = clocks.turn_times(FRIDAY, 4 * DAY, None)
    assert times == clocks.TurnTimes(FRIDAY + 3 * DAY, FRIDAY + 4 * DAY - HOUR, FRIDAY + 4 * DAY)
    short = clocks.turn_times(FRIDAY, HOUR, None)
    assert short.last_reminder is None and short.timeout == FRIDAY + HOUR


def test_a_bank_gains_its_increment_up_to_the_cap() -> None:
    assert clocks.after_move(2 * DAY, BANK) == 3 * DAY
    assert clocks.after_move(6 * DAY + HOUR, BANK) == 7 * DAY
    assert clocks.after_move(9 * DAY, BANK) == 9 * DAY  # given time above the cap is kept
    assert clocks.allowance(3, BANK, None) == 3 * DAY
    assert clocks.allowance(3, BANK, 5 * HOUR) == 5 * HOUR
    assert clocks.allowance(3, ClockTerms(), 2 * DAY) == 5 * DAY  # days per move, plus a gift


def test_zone_names_are_checked() -> None:
    assert clocks.zone(None) is clocks.UTC
    assert "Europe/Berlin" in clocks.zone_names()
    for wrong in ("Mars/Olympus", "../etc", "Europe/"):
        try:
            clocks.zone(wrong)
        except ValueError:
            continue
        raise AssertionError(f"{wrong} was taken for a zone")


def test_banks_are_kept_per_seat() -> None:
    banks = clocks.with_held((), 2, 2, DAY)
    assert banks == (None, DAY)
    assert clocks.held(banks, 1) is None and clocks.held(banks, 2) == DAY
    assert clocks.held((), 2) is None


starts = st.integers(min_value=1_700_000_000, max_value=2_100_000_000)
spans = st.integers(min_value=0, max_value=40 * DAY)


@settings(max_examples=300, deadline=None)
@given(start=starts, seconds=spans, where=st.sampled_from(ZONES))
def test_a_deadline_never_falls_on_a_paused_day(start: int, seconds: int, where: object) -> None:
    weekends = clocks.zone(str(where))
    due = clocks.deadline_after(start, seconds, weekends)
    assert not clocks.paused(due, weekends)
    assert due >= start + seconds
    assert clocks.running(start, due, weekends) == seconds
    assert clocks.deadline_after(start, seconds, None) == start + seconds


@settings(max_examples=300, deadline=None)
@given(
    moves=st.lists(st.integers(min_value=0, max_value=10 * DAY), max_size=30),
    increment=st.integers(min_value=0, max_value=7),
    cap=st.integers(min_value=1, max_value=30),
)
def test_a_bank_never_exceeds_its_cap(moves: list[int], increment: int, cap: int) -> None:
    terms = ClockTerms(increment=increment, cap=cap)
    held = clocks.allowance(min(cap, 3), terms, None)
    for spent in moves:
        held = clocks.after_move(max(0, held - spent), terms)
        assert 0 <= held <= cap * DAY
