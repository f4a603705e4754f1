"""Turns: the move log (the truth a match's snapshot only caches), taking turns back, and
the votes and premove lines that wait on a ply."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store.database import Database, TurnWrite, now
from bot.store.errors import StaleWrite
from bot.store.rows import MoveRow, PremoveRow


class Turns(Database):
    """Turns land only at the ply their writer read (see `Store`)."""

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._reader().fetch(
            "SELECT ply, seat, notation, played_at FROM moves WHERE match_id = ? ORDER BY ply",
            match_id,
        )
        return [MoveRow(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[tuple[int, str]],
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
        draw_offer: int | None,
    ) -> str:
        """Log (seat, notation) turns after `expected_ply` with the match's new snapshot and
        fields in one atomic write, returning the time stamped on the match."""
        played = now()
        write = TurnWrite(
            match_id,
            expected_ply,
            [(ply, seat, notation) for ply, (seat, notation) in enumerate(moves, expected_ply + 1)],
            snapshot,
            status,
            None if outcome is None else json.dumps(outcome),
            draw_offer,
            played,
        )
        if not await self._write_turns(write):
            raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
        return played

    async def rewind(
        self,
        match_id: int,
        expected_ply: int,
        target_ply: int,
        *,
        snapshot: str,
        status: str,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Undo the turns after `target_ply` in one transaction: the log loses them, the match
        gets the earlier snapshot, and jobs, takeback votes, premoves from those plies and the
        record of positions told by DM (a ply may now hold another position) go. A board
        posted of an undone ply no longer counts as shown: the position it goes back to is
        one to post (until it is, its BOARD job finds it missing). StaleWrite if the match is
        no longer at `expected_ply`."""
        encoded = None if outcome is None else json.dumps(outcome)
        shown_before = target_ply - 1 if target_ply > 0 else None
        async with self._transaction() as db:
            rewound = await db.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, status = ?, outcome = ?, "
                "draw_offer = NULL, told_ply = NULL, "
                "board_ply = CASE WHEN board_ply > ? THEN ? ELSE board_ply END, "
                "updated_at = ? WHERE id = ? AND ply = ?",
                target_ply,
                snapshot,
                status,
                encoded,
                target_ply,
                shown_before,
                now(),
                match_id,
                expected_ply,
            )
            if rewound != 1:
                raise StaleWrite(f"match #{match_id} is no longer at ply {expected_ply}")
            await db.execute(
                "DELETE FROM moves WHERE match_id = ? AND ply > ?", match_id, target_ply
            )
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply >= ?", match_id, target_ply
            )
            await db.execute("DELETE FROM takeback_votes WHERE match_id = ?", match_id)
            await db.execute("DELETE FROM premoves WHERE match_id = ?", match_id)

    # -- takeback votes --------------------------------------------------------------------

    async def vote_takeback(self, match_id: int, ply: int, seat: int) -> frozenset[int]:
        """Record one seat's agreement to take back the turn that led to `ply`; returns
        every seat agreed so far."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO takeback_votes (match_id, ply, seat) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, ply, seat) DO NOTHING",
                match_id,
                ply,
                seat,
            )
            rows = await db.fetch(
                "SELECT seat FROM takeback_votes WHERE match_id = ? AND ply = ?", match_id, ply
            )
        return frozenset(int(row[0]) for row in rows)

    async def drop_takeback(self, match_id: int) -> None:
        async with self._writer() as db:
            await db.execute("DELETE FROM takeback_votes WHERE match_id = ?", match_id)

    # -- premove lines ---------------------------------------------------------------------

    async def premoves(self, match_id: int, seat: int) -> PremoveRow | None:
        rows = await self._reader().fetch(
            "SELECT ply, lines FROM premoves WHERE match_id = ? AND seat = ?", match_id, seat
        )
        if not rows:
            return None
        lines = tuple(tuple(str(move) for move in line) for line in json.loads(rows[0][1]))
        return PremoveRow(int(rows[0][0]), lines)

    async def set_premoves(
        self, match_id: int, seat: int, ply: int, lines: Sequence[Sequence[str]]
    ) -> None:
        """Keep a seat's premove lines for the match at `ply`; no lines deletes them."""
        async with self._writer() as db:
            if not lines:
                await db.execute(
                    "DELETE FROM premoves WHERE match_id = ? AND seat = ?", match_id, seat
                )
                return
            await db.execute(
                "INSERT INTO premoves (match_id, seat, ply, lines) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, seat) DO UPDATE SET ply = excluded.ply, "
                "lines = excluded.lines",
                match_id,
                seat,
                ply,
                json.dumps([list(line) for line in lines]),
            )
