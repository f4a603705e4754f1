"""Command registrations: the hash of the slash-command payload last sent to Discord per
scope, so a start that changes nothing registers nothing."""

from __future__ import annotations

from bot.store.database import Database, now


class Commands(Database):
    """One hash per scope (an application, globally or on one server)."""

    async def registered_hash(self, scope: str) -> str | None:
        """The hash of the command payload last registered with Discord for this scope."""
        rows = await self._reader().fetch(
            "SELECT payload_hash FROM command_registrations WHERE scope = ?", scope
        )
        return str(rows[0][0]) if rows else None

    async def set_registered_hash(self, scope: str, payload_hash: str) -> None:
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO command_registrations (scope, payload_hash, registered_at) "
                "VALUES (?, ?, ?) ON CONFLICT (scope) DO UPDATE SET "
                "payload_hash = excluded.payload_hash, registered_at = excluded.registered_at",
                scope,
                payload_hash,
                now(),
            )
