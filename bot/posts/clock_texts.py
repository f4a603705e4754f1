"""The words of clocks on boards: the time left in each bank, the repetition warning."""

from __future__ import annotations

from bot.clock import describe_duration
from bot.posts.match_texts import Line, shown
from bot.service import Match
from bot.service.timing import Left
from bot.texts import t


def banks_line(left: list[Left]) -> Line:
    """`Time left: alice 2 days 4 hours (running) · bob 3 days.`, or nothing (no bank)."""
    parts = [
        t(
            "clocks.left_paused"
            if held.paused
            else "clocks.left_running"
            if held.running
            else "clocks.left_one",
            player=shown(held.seat.name),
            time=describe_duration(held.seconds),
        )
        for held in left
    ]
    if not parts:
        return ""
    joined = parts[0]
    for part in parts[1:]:
        joined = t("clocks.and", first=joined, next=part)
    return t("clocks.left", banks=joined)


def repetition_line(match: Match) -> Line:
    """The warning, on a board whose position has occurred one time short of a draw."""
    game = match.game
    if game.repetition_draw is None or match.outcome is not None:
        return ""
    seen = game.repetitions(match.state)
    return t("clocks.repetition.warning", count=seen) if seen == game.repetition_draw - 1 else ""
