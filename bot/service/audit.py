"""The database check behind `python -m bot --check-db`: every snapshot against its log."""

from __future__ import annotations

from bot.service.cache import MatchCache
from bot.service.matches import ServiceError
from bot.service.queries import Queries
from bot.store import CorruptMatch
from bot.texts import Text, say, t
from rules import RulesError


class Audit:
    """Checks stored matches against their logs, through the cache's loading and the record."""

    def __init__(self, cache: MatchCache, queries: Queries) -> None:
        self.cache = cache
        self.queries = queries

    async def check(self) -> list[str]:
        """Replay every match's move log; one line per match that does not add up."""
        problems: list[Text] = []
        for match_id in await self.cache.store.match_ids():
            try:
                row = await self.cache.store.get_match(match_id)
                assert row is not None
                match = self.cache.load(row)
                record = await self.queries.record(match_id)
                replayed = match.game.dump(record.replay(match.game))
            except (CorruptMatch, ServiceError, RulesError, KeyError, TypeError) as error:
                problem = say(error) if isinstance(error, RulesError) else str(error)
                problems.append(t("service.check.unreadable", match=match_id, problem=problem))
                continue
            if replayed != match.game.dump(match.state):
                turns = len(record.turns)
                problems.append(t("service.check.differs", match=match_id, count=turns))
        return [say(problem) for problem in problems]
