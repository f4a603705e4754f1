"""What a tournament posts for players to read: its entry message, tables, round and final
posts. Only words are made here; the tournament cog posts them (bot/posts/match_texts.py holds the
matches' words)."""

from __future__ import annotations

from bot.posts.match_texts import mention, pace
from bot.service.pairing import TIEBREAKS, Standing, System
from bot.service.tournaments import Tournament
from bot.store import Stage


def points_text(points: float) -> str:
    """`2`, `2½`, `½`, `0`."""
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole or ''}½"
    return str(whole)


def tiebreak_text(value: float) -> str:
    """Tie-breaks are sums of halves and quarters: `2½`, `1.75`."""
    return points_text(value) if (value * 2).is_integer() else f"{value:g}"


def standing_line(standing: Standing, tournament: Tournament) -> str:
    """`1. @alice · **2½** · 3 games, 1 bye · Buchholz 4 · Sonneborn-Berger 3.25`."""
    breaks = " · ".join(
        f"{name} {tiebreak_text(value)}"
        for name, value in zip(TIEBREAKS[tournament.system], standing.tiebreaks, strict=True)
    )
    entrant = tournament.entrant(standing.player)
    out = " (withdrawn)" if entrant is not None and entrant.withdrawn else ""
    games = f"{standing.games} game{'s' * (standing.games != 1)}"
    byes = f", {standing.byes} bye{'s' * (standing.byes != 1)}" if standing.byes else ""
    return (
        f"{standing.rank}. {mention(standing.player)}{out} · **{points_text(standing.points)}** "
        f"· {games}{byes} · {breaks}"
    )


def table_text(tournament: Tournament) -> str:
    return "\n".join(standing_line(s, tournament) for s in tournament.standings())


def summary(tournament: Tournament) -> str:
    """One line of settings: rounds, time per move, field size, rated or not."""
    row = tournament.row
    if row.stage is not Stage.OPEN:
        rounds = f"round {row.round} of {row.rounds}"
    elif tournament.system is System.ROUND_ROBIN:
        rounds = "every entrant meets every other" + (" twice" if row.double else "")
    elif row.rounds:
        rounds = f"{row.rounds} rounds"
    else:
        rounds = "rounds: enough to separate a winner (at least 3)"
    rated = "rated" if row.rated else "unrated"
    return f"{rounds} · {pace(row.days_per_move)} · up to {row.max_players} players · {rated}"


def entry_text(tournament: Tournament) -> str:
    """The entry message: who has entered while it is open, the table once it runs."""
    row = tournament.row
    head = [f"**{tournament.title}**", summary(tournament)]
    if row.stage is Stage.OPEN:
        names = ", ".join(mention(e.user_id) for e in tournament.entrants)
        return "\n".join(
            [
                *head,
                f"Entrants ({len(tournament.entrants)}): {names}",
                f"Press **Join** to enter. {mention(row.creator_id)} starts it with "
                "`/tournament start` (at least 3 entrants).",
            ]
        )
    heading = "Final standings:" if row.stage is Stage.FINISHED else "Standings:"
    return "\n".join([*head, heading, table_text(tournament)])


def listing_line(tournament: Tournament) -> str:
    """`#3 · Quorum standard, swiss · round 2 of 3 · 5 entrants`."""
    row = tournament.row
    stage = "taking entries" if row.stage is Stage.OPEN else f"round {row.round} of {row.rounds}"
    what = tournament.title.partition(": ")[2]
    return f"#{row.id} · {what} · {stage} · {len(tournament.entrants)} entrants"


NONE_LISTED = "No tournament is open or running here. `/tournament create` makes one."


def round_begins(tournament: Tournament, number: int, byes: list[int]) -> str:
    bye = f" Bye (counts as a win): {mention(byes[0])}." if byes else ""
    return f"**{tournament.title}**: round {number} of {tournament.row.rounds} begins.{bye}"


def round_match(tournament: Tournament, number: int, players: list[int]) -> str:
    """The message a round's match thread opens from: the tournament and round label it."""
    return f"Tournament #{tournament.id}, round {number}: {' vs '.join(map(mention, players))}"


def started(tournament: Tournament) -> str:
    return f"**{tournament.title}** has begun: {tournament.row.rounds} rounds."


def finished(tournament: Tournament, winners: list[int], early: bool) -> str:
    cut = " (no further round could be paired without a rematch)" if early else ""
    champions = " and ".join(map(mention, winners))
    return (
        f"**{tournament.title}** is over{cut}. Congratulations, {champions}!\n"
        f"Final standings:\n{table_text(tournament)}"
    )


def left(tournament_id: int, started: bool, resigned: int) -> str:
    if not started:
        return f"You have left tournament #{tournament_id}."
    games = f" {resigned} running game{'s' * (resigned != 1)} resigned." if resigned else ""
    return (
        f"You have withdrawn from tournament #{tournament_id}; you will not be paired again.{games}"
    )
