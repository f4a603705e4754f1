"""What a record says about a match, read from the store: seats with colours and ratings, the
turns with who made each, the tournament round, the dates. The caller names the server (only
Discord knows its name)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import rules
from bot.clock import Clock
from bot.records.export import Export, Player, json_record, text_record
from bot.service.cache import MatchCache
from bot.service.rating_model import shown
from bot.service.tournaments import Tournament
from bot.store import CorruptMatch, MatchRow, Status
from bot.texts import say, t
from rules import RulesError
from rules.outcomes import outcome_from_json

ServerName = Callable[[int], str]
"""A server's name by its id."""


def stamp(seconds: float) -> str:
    """A Unix time as the ISO 8601 date-time the stored dates use."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


class Exporter:
    """Builds the Export of a stored match."""

    def __init__(self, cache: MatchCache, clock: Clock) -> None:
        self.cache = cache
        self.clock = clock

    async def export(self, row: MatchRow, server: ServerName) -> Export:
        """From the match's row alone (its position is not loaded: an archive of many
        matches costs the event loop no parsing)."""
        store = self.cache.store
        game = rules.get_game(row.game)
        moves = await store.moves(row.id)
        players = []
        for seat in row.seats:
            rating = None
            if row.guild_id is not None and seat.engine is None:
                ranked = await store.rank_of(row.guild_id, game.name, seat.user_id)
                rating = None if ranked is None else shown(ranked[1])
            colour = game.seat_phrase(seat.seat)
            players.append(Player(seat.name, seat.user_id, colour, seat.engine is not None, rating))
        event = number = None
        board = await store.board_of_match(row.id)
        if board is not None:
            tournament = await store.get_tournament(board[0])
            if tournament is not None:
                event, number = Tournament(tournament, (), ()).title, board[1].round
        finished = row.status is Status.FINISHED
        return Export(
            match_id=row.id,
            game=game,
            variant=row.variant,
            seed=row.seed,
            players=tuple(players),
            turns=tuple(m.notation for m in moves),
            seats=tuple(m.seat for m in moves),
            started=row.created_at,
            ended=row.updated_at if finished else None,
            generated=stamp(self.clock.now()),
            days=row.days_per_move,
            rated=row.rated,
            result=outcome_from_json(row.outcome) if finished else None,
            server=None if row.guild_id is None else server(row.guild_id),
            event=event,
            round=number,
            position=row.start,
        )


@dataclass(frozen=True)
class Written:
    """What `write_all` did: the files written, the matches unreadable (by id)."""

    files: int
    broken: tuple[int, ...]


async def write_all(cache: MatchCache, clock: Clock, folder: Path) -> Written:
    """Every played match of the database (running or finished) as record files in
    `folder`, for an admin (`python -m bot --export DIR`); servers are named by id, as only
    Discord knows their names."""
    folder.mkdir(parents=True, exist_ok=True)
    exporter = Exporter(cache, clock)
    files, broken = 0, []
    for match_id in await cache.store.match_ids():
        try:
            row = await cache.store.get_match(match_id)
            if row is None or row.status not in (Status.ACTIVE, Status.FINISHED):
                continue
            rules.get_game(row.game)
        except (CorruptMatch, RulesError):
            broken.append(match_id)
            continue
        export = await exporter.export(row, by_id)
        for name, text in record_files(export):
            (folder / name).write_text(text, encoding="utf-8")
            files += 1
    return Written(files, tuple(broken))


def by_id(guild_id: int) -> str:
    """A server named by its id, where its name is not known."""
    return say(t("records.server", server=guild_id))


def record_files(export: Export) -> list[tuple[str, str]]:
    """The (file name, text) of a match's records: the text, and the JSON once finished."""
    files = [(f"{export.stem}.txt", text_record(export))]
    if export.finished:
        files.append((f"{export.stem}.json", json_record(export)))
    return files
