"""The loaded matches: read through from the store, kept while recently used, forgotten
around every write, and one lock per match so one command per match is in flight."""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import rules
from bot.service.matches import Match, ServiceError, no_match
from bot.store import CorruptMatch, MatchRow, StaleWrite, Status, Store
from bot.texts import Text, say, t
from rules import RulesError

log = logging.getLogger(__name__)

CACHED_MATCHES = 512
LIFECYCLE = tuple(Status)
CHANGED = t("service.match.changed")  # what a write refused by the ply check says


class MatchCache:
    """Recently used matches. With a store of its own (SQLite) the bot is the database's only
    writer, and every write either stores the match it produced here or forgets the entry,
    so a cached match is current and a move costs no read. (Were it ever stale, the ply
    check would refuse the write, which forgets the entry.) A shared store (PostgreSQL, where
    another process may have timed the match out or moved) is read on every `get`; the
    cache then only spares parsing the position again while it is unchanged."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._matches: OrderedDict[int, Match] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, match_id: int) -> asyncio.Lock:
        """Held by a command for its whole run, so one command per match is in flight."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    async def get(self, match_id: int) -> Match:
        cached = self._matches.get(match_id)
        if cached is not None and not self.store.shared:
            self._matches.move_to_end(match_id)
            return cached
        try:
            row = await self.store.get_match(match_id)
            if row is None:
                raise no_match(match_id)
            return self.load(row)
        except CorruptMatch as error:
            log.error("%s", error)
            raise ServiceError(
                t("service.match.damaged", match=match_id), t("service.match.damaged_hint")
            ) from error

    def load(self, row: MatchRow) -> Match:
        """A match from its row, reusing the cached state when the position is the same."""
        cached = self._matches.get(row.id)
        if cached is not None and not self.store.shared and _version(cached.row) > _version(row):
            return cached  # a read that was overtaken by a write of ours
        if cached is not None and cached.row.snapshot == row.snapshot:
            return self.remember(Match(row, cached.game, cached.state))
        try:
            game = rules.get_game(row.game)
            state = game.load(json.loads(row.snapshot))
        except (RulesError, ValueError) as error:
            problem = say(error) if isinstance(error, RulesError) else error
            raise CorruptMatch(f"match #{row.id} cannot be loaded: {problem}") from error
        return self.remember(Match(row, game, state))

    def remember(self, match: Match) -> Match:
        self._matches[match.id] = match
        self._matches.move_to_end(match.id)
        if len(self._matches) > CACHED_MATCHES:
            self._matches.popitem(last=False)
        return match

    @contextmanager
    def writing(self, match_id: int, conflict: Text = CHANGED) -> Iterator[None]:
        """Forget the cached match around a write; a stale write becomes `conflict` (by
        default: the match changed meanwhile)."""
        self._matches.pop(match_id, None)
        try:
            yield
        except StaleWrite as error:
            raise ServiceError(conflict, t("service.match.changed_hint")) from error

    async def set_messages(self, match: Match, **ids: Any) -> Match:
        """Remember where the bot posted (challenge, thread, board), for later edits."""
        with self.writing(match.id):
            await self.store.update_match(match.id, match.row.ply, **ids)
        return self.remember(Match(replace(match.row, **ids), match.game, match.state))


def _version(row: MatchRow) -> tuple[int, int]:
    """Orders a match's rows in time: moves raise the ply, and statuses only move forward."""
    return row.ply, LIFECYCLE.index(row.status)
