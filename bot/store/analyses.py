"""Computer analyses: asked for once per match, read position by position in a worker,
and resumed where a stopped process left them."""

from __future__ import annotations

from bot.store.database import Database, now
from bot.store.rows import AnalysisRow, Shards

# Analyses a stopped process left incomplete, oldest first (few rows: no index needed).
UNFINISHED_ANALYSES = """
    SELECT a.match_id FROM analyses a JOIN matches m ON m.id = a.match_id
    WHERE a.finished_at IS NULL AND {shards}
    ORDER BY a.created_at, a.match_id
"""


class Analyses(Database):
    """An analysis and its readings, one per position, each stored once."""

    async def start_analysis(self, match_id: int, user_id: int, positions: int) -> bool:
        """Record that a match is to be analysed; False (and nothing changes) if it was
        already, so two requests share one analysis."""
        async with self._writer() as db:
            created = await db.execute(
                "INSERT INTO analyses (match_id, requested_by, positions, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
                match_id,
                user_id,
                positions,
                now(),
            )
        return created == 1

    async def analysis(self, match_id: int) -> AnalysisRow | None:
        reader = self._reader()
        rows = await reader.fetch(
            "SELECT requested_by, message_id, positions, finished_at FROM analyses "
            "WHERE match_id = ?",
            match_id,
        )
        if not rows:
            return None
        steps = await reader.fetch(
            "SELECT step, reading FROM analysis_readings WHERE match_id = ?", match_id
        )
        row = rows[0]
        return AnalysisRow(
            match_id,
            int(row[0]),
            None if row[1] is None else int(row[1]),
            int(row[2]),
            {int(step[0]): str(step[1]) for step in steps},
            row[3] is not None,
        )

    async def set_analysis_message(self, match_id: int, message_id: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE analyses SET message_id = ? WHERE match_id = ?", message_id, match_id
            )

    async def save_reading(self, match_id: int, step: int, reading: str) -> None:
        """Store one position's reading (a second write of the same position is ignored)."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO analysis_readings (match_id, step, reading) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, step) DO NOTHING",
                match_id,
                step,
                reading,
            )

    async def save_second_look(self, match_id: int, step: int, reading: str) -> None:
        """Replace a position's reading by its second look (ai.analysis.second_look)."""
        async with self._writer() as db:
            await db.execute(
                "UPDATE analysis_readings SET reading = ? WHERE match_id = ? AND step = ?",
                reading,
                match_id,
                step,
            )

    async def finish_analysis(self, match_id: int) -> None:
        async with self._writer() as db:
            await db.execute(
                "UPDATE analyses SET finished_at = ? WHERE match_id = ? AND finished_at IS NULL",
                now(),
                match_id,
            )

    async def unfinished_analyses(self, shards: Shards | None = None) -> list[int]:
        """Analyses a stopped process left incomplete on these shards, oldest first."""
        return await self._ids_on(UNFINISHED_ANALYSES, shards)
