"""Private notes: each player keeps one note per match, shown to them alone (with their
/board and /note), kept after the match ends."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError
from bot.texts import t

NOTE_TEXT = 1000  # characters: a few paragraphs of plans, well inside one message
DELETE = "-"  # the text that deletes a note (a slash command's text cannot be empty)


@dataclass(frozen=True)
class Note:
    match: Match
    text: str | None  # None: no note (or deleted)
    deleted: bool = False  # a note was there and is gone


class Notes:
    def __init__(self, cache: MatchCache) -> None:
        self.cache = cache

    async def read(self, match: Match, user_id: int) -> str | None:
        """The user's note on the match; a note is never read for anyone else."""
        return await self.cache.store.note(match.id, user_id)

    async def keep(self, match: Match, user_id: int, text: str | None) -> Note:
        """Keep `text` as the user's note (DELETE deletes it; None only reads it back). Only
        the match's players keep notes on it, in any status."""
        if match.seat_of(user_id) is None:
            raise ServiceError(t("clocks.note.players_only", match=match.describe()))
        if text is None:
            return Note(match, await self.read(match, user_id))
        text = text.strip()
        if len(text) > NOTE_TEXT:
            raise ServiceError(
                t("clocks.note.too_long", most=NOTE_TEXT, count=len(text)),
                t("clocks.note.too_long_hint"),
            )
        if text == DELETE:
            deleted = await self.cache.store.set_note(match.id, user_id, "")
            return Note(match, None, deleted=deleted)
        await self.cache.store.set_note(match.id, user_id, text)
        return Note(match, text)
