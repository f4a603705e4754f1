"""Private notes: one per person and match, read only by the person who wrote it."""

from __future__ import annotations

from bot.store.database import Database, now


class Notes(Database):
    """A person's note on a match, kept after the match ends (deleted with the match)."""

    async def note(self, match_id: int, user_id: int) -> str | None:
        found = await self._value(
            "SELECT text FROM notes WHERE match_id = ? AND user_id = ?", match_id, user_id
        )
        return None if found is None else str(found)

    async def set_note(self, match_id: int, user_id: int, text: str) -> bool:
        """Keep `text` as the note (an empty text deletes it); whether a note was written or
        deleted (False: there was none to delete)."""
        async with self._writer() as db:
            if not text:
                deleted = await db.execute(
                    "DELETE FROM notes WHERE match_id = ? AND user_id = ?", match_id, user_id
                )
                return deleted == 1
            await db.execute(
                "INSERT INTO notes (match_id, user_id, text, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, user_id) DO UPDATE SET text = excluded.text, "
                "updated_at = excluded.updated_at",
                match_id,
                user_id,
                text,
                now(),
            )
            return True
