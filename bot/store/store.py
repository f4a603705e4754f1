"""The `Store`: every concern's methods in one object, the one interface the service and the
admin tools speak to, so the same code runs on the embedded SQLite file and on a shared
PostgreSQL."""

from __future__ import annotations

from bot.store.analyses import Analyses
from bot.store.commands import Commands
from bot.store.jobs import Jobs
from bot.store.matches import Matches
from bot.store.notes import Notes
from bot.store.people import People
from bot.store.ratings import Ratings
from bot.store.tournaments import Tournaments
from bot.store.turns import Turns


class Store(Matches, Turns, Jobs, Ratings, Tournaments, Analyses, People, Notes, Commands):
    """Matches, their seats and move logs, scheduled jobs, ratings, tournaments, analyses,
    preferences, settings, vacations, followers and notes. Abstract: a backend (`SqliteStore`,
    `PostgresStore`) supplies its connections (see `Database`).

    Every write that changes a match names the ply (log length) it expects, so of two writes
    racing on one match, from one process or many, only the first lands; the other raises
    StaleWrite and changes nothing. Reads see only what was committed.
    """
