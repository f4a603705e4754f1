"""The database check behind `python -m bot --check-db`: every snapshot against its log."""

from __future__ import annotations

from bot.service.cache import MatchCache
from bot.service.matches import ServiceError
from bot.service.queries import Queries
from bot.store import CorruptMatch
from rules import RulesError


async def check(cache: MatchCache, queries: Queries) -> list[str]:
    """Replay every match's move log; one line per match that does not add up."""
    problems: list[str] = []
    for match_id in await cache.store.match_ids():
        try:
            row = await cache.store.get_match(match_id)
            assert row is not None
            match = cache.load(row)
            record = await queries.record(match_id)
            replayed = match.game.dump(record.replay(match.game))
        except (CorruptMatch, ServiceError, RulesError, KeyError, TypeError) as error:
            problems.append(f"match #{match_id}: unreadable: {error}")
            continue
        if replayed != match.game.dump(match.state):
            problems.append(
                f"match #{match_id}: the snapshot differs from the replayed move log "
                f"({len(record.turns)} turns)"
            )
    return problems
