"""Tournaments: entries while open, then rounds of boards, each board's match and result
written once, however many processes finish games at the same moment."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Database, Row, marks, now
from bot.store.rows import BoardRow, EntrantRow, Shards, Stage, TournamentRow

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, creator_id, game, variant, system, rounds, days_per_move, "
    "max_players, rated, double_round, stage, round, entry_message_id, created_at, cancelled_at, "
    "clock_increment, clock_cap, weekends_off"
)
BOARD_COLUMNS = "round, board, first_id, second_id, match_id, points"


class Tournaments(Database):
    """A tournament moves open, running, finished; every step is a guarded write that only
    the first of racing callers makes."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        game: str,
        variant: str,
        system: str,
        rounds: int,
        days_per_move: int,
        max_players: int,
        rated: bool,
        double: bool,
        clock: tuple[int, int, bool] = (0, 0, False),
    ) -> int:
        """`clock`: its matches' bank increment and cap in days (0: no bank), weekends off."""
        async with self._writer() as db:
            (row,) = await db.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, game, variant, "
                "system, rounds, days_per_move, max_players, rated, double_round, created_at, "
                "clock_increment, clock_cap, weekends_off) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id,
                channel_id,
                creator_id,
                game,
                variant,
                system,
                rounds,
                days_per_move,
                max_players,
                int(rated),
                int(double),
                now(),
                clock[0],
                clock[1],
                int(clock[2]),
            )
        return int(row[0])

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._reader().fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
        )
        return tournament_row(rows[0]) if rows else None

    async def tournaments_in(self, guild_id: int, stages: Sequence[Stage]) -> list[TournamentRow]:
        """The server's tournaments at these stages, newest first."""
        rows = await self._reader().fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
            f"WHERE guild_id = ? AND stage IN ({marks(len(stages))}) ORDER BY id DESC",
            guild_id,
            *map(str, stages),
        )
        return [tournament_row(row) for row in rows]

    async def running_tournaments(self, shards: Shards | None = None) -> list[int]:
        """The tournaments under way (on these shards' servers)."""
        return await self._ids_on(
            "SELECT id FROM tournaments m WHERE stage = 'running' AND {shards} ORDER BY id", shards
        )

    async def set_entry_message(self, tournament_id: int, message_id: int) -> None:
        await self._once(
            "UPDATE tournaments SET entry_message_id = ? WHERE id = ?", message_id, tournament_id
        )

    async def enter(self, tournament_id: int, user_id: int, name: str) -> bool:
        """Add an entrant while entries are open and the field is not full; False if not."""
        async with self._transaction() as db:
            # A write to the tournament's row first holds it, so racing entries are counted
            # one after the other and the field never overfills.
            await db.execute(
                "UPDATE tournaments SET max_players = max_players WHERE id = ?", tournament_id
            )
            entered = await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, entered_at) "
                "SELECT id, ?, ?, ? FROM tournaments t WHERE id = ? AND stage = 'open' "
                "AND (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id)"
                " < max_players "
                "ON CONFLICT (tournament_id, user_id) DO NOTHING",
                user_id,
                name,
                now(),
                tournament_id,
            )
            return entered == 1

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Remove an entrant before the start; False if they were not in or it started."""
        return await self._once(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? "
            "AND tournament_id IN (SELECT id FROM tournaments WHERE stage = 'open')",
            tournament_id,
            user_id,
        )

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Mark an entrant withdrawn, once."""
        return await self._once(
            "UPDATE tournament_entrants SET withdrawn = 1 "
            "WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0",
            tournament_id,
            user_id,
        )

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """In order of entry: the seeds."""
        rows = await self._reader().fetch(
            "SELECT user_id, name, withdrawn FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY id",
            tournament_id,
        )
        return [
            EntrantRow(int(row[0]), str(row[1]), seed, bool(row[2]))
            for seed, row in enumerate(rows, 1)
        ]

    async def start_tournament(self, tournament_id: int, rounds: int) -> bool:
        """Close entries and fix the number of rounds; False if it had started already."""
        return await self._once(
            "UPDATE tournaments SET stage = 'running', rounds = ? WHERE id = ? AND stage = 'open'",
            rounds,
            tournament_id,
        )

    async def begin_round(
        self,
        tournament_id: int,
        number: int,
        boards: Sequence[tuple[int, int | None, float | None]],
    ) -> bool:
        """Write round `number`'s boards, (first, second, points) in board order, if the
        tournament is still at round `number - 1`; False, and nothing written, if not: of
        two processes finishing a round's last game at once, one pairs the next round."""
        async with self._transaction() as db:
            moved = await db.execute(
                "UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND stage = 'running'",
                number,
                tournament_id,
                number - 1,
            )
            if moved != 1:
                return False
            if boards:
                await db.executemany(
                    "INSERT INTO tournament_boards (tournament_id, round, board, first_id, "
                    "second_id, points) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (tournament_id, number, board, first, second, points)
                        for board, (first, second, points) in enumerate(boards, 1)
                    ],
                )
            return True

    async def boards(self, tournament_id: int) -> list[BoardRow]:
        """Every board of every round so far, in order."""
        rows = await self._reader().fetch(
            f"SELECT {BOARD_COLUMNS} FROM tournament_boards WHERE tournament_id = ? "
            "ORDER BY round, board",
            tournament_id,
        )
        return [board_row(row) for row in rows]

    async def set_board_match(
        self, tournament_id: int, number: int, board: int, match_id: int
    ) -> bool:
        """Give a board its match, once; False if another process did first."""
        return await self._once(
            "UPDATE tournament_boards SET match_id = ? WHERE tournament_id = ? "
            "AND round = ? AND board = ? AND match_id IS NULL",
            match_id,
            tournament_id,
            number,
            board,
        )

    async def board_of_match(self, match_id: int) -> tuple[int, BoardRow] | None:
        """The tournament and board a match was opened for, if any."""
        rows = await self._reader().fetch(
            f"SELECT tournament_id, {BOARD_COLUMNS} FROM tournament_boards WHERE match_id = ?",
            match_id,
        )
        return (int(rows[0]["tournament_id"]), board_row(rows[0])) if rows else None

    async def score_board(self, tournament_id: int, number: int, board: int, points: float) -> bool:
        """Write a board's result, once."""
        return await self._once(
            "UPDATE tournament_boards SET points = ? WHERE tournament_id = ? "
            "AND round = ? AND board = ? AND points IS NULL",
            points,
            tournament_id,
            number,
            board,
        )

    async def cancel_tournament(self, tournament_id: int) -> bool:
        """End it with no winner, once; False if it was over already."""
        return await self._once(
            "UPDATE tournaments SET stage = 'finished', cancelled_at = ? "
            "WHERE id = ? AND stage IN ('open', 'running')",
            now(),
            tournament_id,
        )

    async def finish_tournament(self, tournament_id: int) -> bool:
        """Mark it over, once; False if it was not running."""
        return await self._once(
            "UPDATE tournaments SET stage = 'finished' WHERE id = ? AND stage = 'running'",
            tournament_id,
        )


def tournament_row(row: Row) -> TournamentRow:
    message = row["entry_message_id"]
    return TournamentRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        creator_id=int(row["creator_id"]),
        game=str(row["game"]),
        variant=str(row["variant"]),
        system=str(row["system"]),
        rounds=int(row["rounds"]),
        days_per_move=int(row["days_per_move"]),
        max_players=int(row["max_players"]),
        rated=bool(row["rated"]),
        double=bool(row["double_round"]),
        stage=Stage(row["stage"]),
        round=int(row["round"]),
        entry_message_id=None if message is None else int(message),
        created_at=str(row["created_at"]),
        cancelled_at=row["cancelled_at"],
        clock_increment=int(row["clock_increment"]),
        clock_cap=int(row["clock_cap"]),
        weekends_off=bool(row["weekends_off"]),
    )


def board_row(row: Row) -> BoardRow:
    second, match, points = row["second_id"], row["match_id"], row["points"]
    return BoardRow(
        round=int(row["round"]),
        board=int(row["board"]),
        first_id=int(row["first_id"]),
        second_id=None if second is None else int(second),
        match_id=None if match is None else int(match),
        points=None if points is None else float(points),
    )
