"""What a tournament posts for players to read: its entry message, tables, round and final
posts. Only words are made here, from the catalogue (bot/texts/en.toml [tournaments]); the
tournament cog posts them (bot/posts/match_texts.py holds the matches' words).

A table of 64 entrants is longer than one Discord message, so tables come as several
messages split between lines, never cut inside one."""

from __future__ import annotations

from collections.abc import Sequence

from bot.posts import limits
from bot.posts.match_texts import Line, clock_pace, mention, rated, worded
from bot.service.pairing import TIEBREAKS, Standing, System
from bot.service.tournaments import MIN_PLAYERS, Tournament
from bot.store import Stage
from bot.texts import Text, say, t

TIEBREAK_NAMES = {  # the names pairing.TIEBREAKS gives, in words
    "Buchholz": t("tournaments.tiebreaks.buchholz"),
    "Sonneborn-Berger": t("tournaments.tiebreaks.sonneborn_berger"),
    "head-to-head": t("tournaments.tiebreaks.head_to_head"),
}


def points_text(points: float) -> str:
    """`2`, `2½`, `½`, `0`."""
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole or ''}½"
    return str(whole)


def tiebreak_text(value: float) -> str:
    """Tie-breaks are sums of halves and quarters: `2½`, `1.75`."""
    return points_text(value) if (value * 2).is_integer() else f"{value:g}"


def standing_line(standing: Standing, tournament: Tournament, locale: str | None = None) -> str:
    """`1. @alice · **2½** · 3 games, 1 bye · Buchholz 4 · Sonneborn-Berger 3.25`."""
    breaks = " · ".join(
        say(
            t(
                "tournaments.standing.tiebreak",
                name=TIEBREAK_NAMES[name],
                value=tiebreak_text(value),
            ),
            locale,
        )
        for name, value in zip(TIEBREAKS[tournament.system], standing.tiebreaks, strict=True)
    )
    games: Text = t("tournaments.standing.games", count=standing.games)
    if standing.byes:
        byes = t("tournaments.standing.byes", count=standing.byes)
        games = t("tournaments.standing.games_byes", games=games, byes=byes)
    entrant = tournament.entrant(standing.player)
    withdrawn = entrant is not None and entrant.withdrawn
    line = t(
        "tournaments.standing.line_withdrawn" if withdrawn else "tournaments.standing.line",
        rank=standing.rank,
        player=mention(standing.player),
        points=points_text(standing.points),
        games=games,
        tiebreaks=breaks,
    )
    return say(line, locale)


MORE_ROOM = 120  # characters the entry message keeps for the line pointing to the rest


def table_lines(tournament: Tournament, locale: str | None = None) -> list[str]:
    return [standing_line(s, tournament, locale) for s in tournament.standings()]


def messages(lines: Sequence[Line], locale: str | None = None) -> list[str]:
    """The lines as messages that each fit Discord's limit, split only between lines."""
    return ["\n".join(page) for page in limits.pages([say(line, locale) for line in lines])]


def summary(tournament: Tournament) -> Text:
    """One line of settings: rounds, time per move, field size, rated or not."""
    row = tournament.row
    if row.stage is not Stage.OPEN:
        rounds = t("tournaments.round_of", round=row.round, rounds=row.rounds)
    elif tournament.system is System.ROUND_ROBIN and row.double:
        rounds = t("tournaments.meets_everyone_twice")
    elif tournament.system is System.ROUND_ROBIN:
        rounds = t("tournaments.meets_everyone")
    elif row.rounds:
        rounds = t("tournaments.rounds", count=row.rounds)
    else:
        rounds = t("tournaments.rounds_to_separate")
    return t(
        "tournaments.summary",
        rounds=rounds,
        pace=clock_pace(row),
        players=t("tournaments.up_to", count=row.max_players),
        rated=rated(row.rated),
    )


def entry_lines(tournament: Tournament, locale: str | None = None) -> list[Line]:
    """Who has entered while it is open, the table once it runs, a line each."""
    row = tournament.row
    head: list[Line] = [t("tournaments.title", title=tournament.title), summary(tournament)]
    if row.stage is Stage.OPEN:
        names = ", ".join(mention(e.user_id) for e in tournament.entrants)
        entrants = t("tournaments.entrants", count=len(tournament.entrants), names=names)
        join = t("tournaments.join", creator=mention(row.creator_id), least=MIN_PLAYERS)
        return [*head, entrants, join]
    finished = row.stage is Stage.FINISHED
    heading = t("tournaments.final_standings") if finished else t("tournaments.standings")
    if row.cancelled_at is not None:
        heading = t("lifecycle.tournament.cancelled_standings")
    return [*head, heading, *table_lines(tournament, locale)]


def entry_text(tournament: Tournament, locale: str | None = None) -> str:
    """The entry message, one message edited as the tournament goes on: the lines that fit
    whole, then how many more `/tournament standings` shows."""
    lines = [say(line, locale) for line in entry_lines(tournament, locale)]
    first = limits.pages(lines, limits.CONTENT - MORE_ROOM)[0]
    if len(first) == len(lines):
        return "\n".join(lines)
    more = t("tournaments.table_continues", count=len(lines) - len(first))
    return worded([*first, more], locale)


def standings_messages(tournament: Tournament, locale: str | None = None) -> list[str]:
    """`/tournament standings`: the entry message's words whole, over as many messages as
    they need."""
    return messages(entry_lines(tournament, locale), locale)


def listing_line(tournament: Tournament) -> Text:
    """`#3 · Quorum standard, swiss · round 2 of 3 · 5 entrants`."""
    row = tournament.row
    if row.stage is Stage.OPEN:
        stage = t("tournaments.taking_entries")
    else:
        stage = t("tournaments.round_of", round=row.round, rounds=row.rounds)
    return t(
        "tournaments.listing",
        tournament=row.id,
        what=tournament.title.partition(": ")[2],
        stage=stage,
        entrants=len(tournament.entrants),
    )


NONE_LISTED = t("tournaments.none_listed")


def round_begins(tournament: Tournament, number: int, byes: list[int]) -> Text:
    title, rounds = tournament.title, tournament.row.rounds
    if byes:
        bye = mention(byes[0])
        return t(
            "tournaments.round_begins_bye", title=title, round=number, rounds=rounds, player=bye
        )
    return t("tournaments.round_begins", title=title, round=number, rounds=rounds)


def round_match(
    tournament: Tournament, number: int, players: list[int], locale: str | None = None
) -> str:
    """The message a round's match thread opens from: the tournament and round label it."""
    versus = say(t("posts.vs"), locale).join(map(mention, players))
    label = t("tournaments.round_match", tournament=tournament.id, round=number, players=versus)
    return say(label, locale)


def started(tournament: Tournament) -> Text:
    return t("tournaments.started", title=tournament.title, count=tournament.row.rounds)


def finished(
    tournament: Tournament, winners: list[int], early: bool, locale: str | None = None
) -> list[str]:
    """The final post: who won, then the whole table, over as many messages as it needs."""
    champions = say(t("posts.and"), locale).join(map(mention, winners))
    over = t(
        "tournaments.finished_early" if early else "tournaments.finished",
        title=tournament.title,
        champions=champions,
    )
    heading = t("tournaments.final_standings")
    return messages([over, heading, *table_lines(tournament, locale)], locale)


def left(tournament_id: int, started: bool, resigned: int) -> Text:
    if not started:
        return t("tournaments.left", tournament=tournament_id)
    if resigned:
        return t("tournaments.withdrawn_resigned", tournament=tournament_id, count=resigned)
    return t("tournaments.withdrawn", tournament=tournament_id)
