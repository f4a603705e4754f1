"""The stores (SQLite and PostgreSQL, every test on both) and the service's checks, below
the Discord layer."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.service import MatchService, Player, ServiceError
from bot.store import (
    MIGRATIONS,
    OPEN_SEAT,
    TABLES,
    JobKind,
    PreferenceRow,
    PremoveRow,
    ServerRow,
    StaleWrite,
    Store,
    StoreError,
    open_store,
)
from bot.store.copy import copy_database, differences
from bot.store.postgres import numbered
from bot.store.sqlite import SqliteStore
from fixtures import postgres as throwaway
from tests.bot.support import execute_raw

ALICE, BOB, CAROL = Player(11, "alice"), Player(12, "bob"), Player(13, "carol")
RACERS = 4  # separate connections (SQLite) or pools (PostgreSQL), as separate processes have

# Raising a database's recorded schema version behind the store's back.
NEWER_SCHEMA = {
    "sqlite": f"PRAGMA user_version = {len(MIGRATIONS) + 1}",
    "postgresql": f"INSERT INTO schema_version VALUES ({len(MIGRATIONS) + 1})",
}


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def started(database_url: str) -> tuple[Store, MatchService, int]:
    store = await open_store(database_url)
    service = MatchService(store, seeds=lambda: 5)
    request = service.challenges.prepare(
        guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
    )
    match = await service.challenges.open(request)
    await service.challenges.accept(match.id, BOB.user_id)
    return store, service, match.id


async def turn(store: Store, match_id: int, ply: int, notation: str) -> str:
    """One turn written straight to the store, as a racing process would."""
    return await store.append_moves(
        match_id,
        ply,
        [(ply % 2 + 1, notation)],
        snapshot=json.dumps({"ply": ply + 1}),
        status="active",
        outcome=None,
        draw_offer=None,
    )


def test_sqlite_open_sets_pragmas(tmp_path: Path) -> None:
    """The writing connection's settings, and the reading one's: it may not write."""

    async def main() -> None:
        store = await SqliteStore.open(tmp_path / "nested" / "db.sqlite3")
        names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "query_only")
        try:
            writer = [await pragma(store._db, name) for name in names]
            assert store._read_db is not None
            reader = [await pragma(store._read_db, name) for name in ("busy_timeout", "query_only")]
        finally:
            await store.close()
        assert writer == ["wal", 1, 1, 5000, 0]  # synchronous 1: NORMAL
        assert reader == [5000, 1]

    run(main())


async def pragma(db: aiosqlite.Connection, name: str) -> Any:
    async with db.execute(f"PRAGMA {name}") as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


class RolledBack(Exception):
    """Ends a test's transaction by rolling it back."""


def test_a_read_during_a_transaction_sees_only_what_was_committed(database_url: str) -> None:
    """Another task's read made while a transaction is open sees the state before it, as
    it does once the transaction rolled back; after a commit the next read sees the commit."""

    async def main() -> None:
        store, _, match_id = await started(database_url)

        async def seen() -> tuple[Any, ...]:
            row = await store.get_match(match_id)
            assert row is not None
            moves = await store.moves(match_id)
            return row.status, row.ply, [m.notation for m in moves], await store.match_ids()

        try:
            before = await seen()
            with pytest.raises(RolledBack):
                async with store._transaction() as db:
                    await db.execute(
                        "UPDATE matches SET status = 'finished', ply = 1 WHERE id = ?", match_id
                    )
                    await db.execute(
                        "INSERT INTO moves (match_id, ply, seat, notation, played_at) "
                        "VALUES (?, 1, 1, 'a1e3', 'now')",
                        match_id,
                    )
                    await db.execute(
                        "INSERT INTO matches (channel_id, game, variant, seed, status, snapshot, "
                        "created_at, updated_at) VALUES (2, 'quorum', 'standard', 1, 'pending', "
                        "'{}', 'now', 'now')"
                    )
                    during = await asyncio.create_task(seen())
                    raise RolledBack
            assert during == before == ("active", 0, [], [match_id])
            assert await seen() == before
            await turn(store, match_id, 0, "a1e3")
            assert await seen() == ("active", 1, ["a1e3"], [match_id])
        finally:  # an open connection would keep a failing test's process alive
            await store.close()

    run(main())


def test_an_in_memory_store_reads_between_transactions() -> None:
    """In memory there is no second connection to read through: a read waits for the
    transaction in progress, so it sees what that left committed (here: nothing of it)."""

    async def main() -> None:
        store = await open_store(Path(":memory:"))
        try:
            service = MatchService(store, seeds=lambda: 5)
            request = service.challenges.prepare(
                guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
            )
            match_id = (await service.challenges.open(request)).id
            await service.challenges.accept(match_id, BOB.user_id)
            with pytest.raises(RolledBack):
                async with store._transaction() as db:
                    finished = "UPDATE matches SET status = 'finished' WHERE id = ?"
                    await db.execute(finished, match_id)
                    reading = asyncio.create_task(store.get_match(match_id))
                    await asyncio.sleep(0)  # the read starts, and waits
                    raise RolledBack
            row = await reading
            assert row is not None and row.status == "active"
            await service.turns.move(match_id, ALICE.user_id, "a1e3")
            assert [m.notation for m in await store.moves(match_id)] == ["a1e3"]
        finally:
            await store.close()

    run(main())


def test_migrates_once_and_refuses_a_newer_schema(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        assert await store.schema_version() == len(MIGRATIONS)
        await store.close()
        store = await open_store(database_url)  # a second open finds nothing to migrate
        assert await store.schema_version() == len(MIGRATIONS)
        await execute_raw(database_url, NEWER_SCHEMA[store.backend])
        await store.close()
        with pytest.raises(StoreError, match="newer than this bot"):
            await open_store(database_url)

    run(main())


def test_database_urls_choose_the_backend(tmp_path: Path) -> None:
    async def main() -> None:
        store = await open_store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
        assert store.backend == "sqlite" and (tmp_path / "a.sqlite3").is_file()
        await store.close()
        with pytest.raises(StoreError, match="sqlite:///path/to/file or postgresql://"):
            await open_store("mysql://localhost/db")

    run(main())


def test_a_write_at_a_stale_ply_is_refused_whole(database_url: str) -> None:
    async def main() -> None:
        store, service, match_id = await started(database_url)
        await store.append_moves(
            match_id,
            0,
            [(1, "a1e3")],
            snapshot="{}",
            status="active",
            outcome=None,
            draw_offer=None,
        )
        with pytest.raises(StaleWrite):
            await store.append_moves(
                match_id, 0, [(1, "b1b3")], snapshot="{}", status="x", outcome=None, draw_offer=2
            )
        # the second turn fails: neither lands
        with pytest.raises((sqlite3.IntegrityError, asyncpg.NotNullViolationError)):
            await store.append_moves(
                match_id,
                1,
                [(2, "h8h4"), (1, None)],  # type: ignore[list-item]
                snapshot="{}",
                status="active",
                outcome=None,
                draw_offer=None,
            )
        row = await store.get_match(match_id)
        assert row is not None and (row.ply, row.status, row.draw_offer) == (1, "active", None)
        assert [m.notation for m in await store.moves(match_id)] == ["a1e3"]
        await store.close()

    run(main())


def test_turn_writes_racing_from_separate_connections_land_once(database_url: str) -> None:
    """Several stores (as several processes would hold) write every turn of one match at
    once: each turn lands exactly once, and the log is the winners' moves in order."""

    async def main() -> None:
        first, _, match_id = await started(database_url)
        racers = [first, *[await open_store(database_url) for _ in range(RACERS - 1)]]
        winners = []
        for ply in range(12):
            results = await asyncio.gather(
                *(turn(store, match_id, ply, f"r{n}p{ply}") for n, store in enumerate(racers)),
                return_exceptions=True,
            )
            landed = [n for n, result in enumerate(results) if isinstance(result, str)]
            assert len(landed) == 1, results
            assert all(isinstance(r, StaleWrite) for r in results if not isinstance(r, str))
            winners.append(f"r{landed[0]}p{ply}")
        assert [m.notation for m in await first.moves(match_id)] == winners
        row = await first.get_match(match_id)
        assert row is not None and (row.ply, json.loads(row.snapshot)) == (12, {"ply": 12})
        for store in racers:
            await store.close()

    run(main())


def test_a_due_job_is_claimed_by_exactly_one_of_many_racers(database_url: str) -> None:
    """Several stores (as several processes would hold) claim due jobs at once until none
    is left: every job goes to exactly one of them, and only its claimer can finish it."""

    async def main() -> None:
        first, service, _ = await started(database_url)
        racers = [first, *[await open_store(database_url) for _ in range(RACERS - 1)]]
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[CAROL]
        )
        for due in range(10):
            match = await service.challenges.open(request)
            await first.schedule(match.id, 0, [(JobKind.EXPIRY, 100 + due)])
        later = await service.challenges.open(request)
        await first.schedule(later.id, 0, [(JobKind.EXPIRY, 5000)])  # not due: left unclaimed

        async def claim_all(store: Store, owner: str) -> list[tuple[int, str]]:
            claimed = []
            while (job := await store.claim_job(owner, 1000)) is not None:
                claimed.append((job.id, owner))
                await asyncio.sleep(0)  # let the others race for the next one
            return claimed

        results = await asyncio.gather(
            *(claim_all(store, f"process-{n}") for n, store in enumerate(racers))
        )
        claims = dict(claim for claimed in results for claim in claimed)
        assert len(claims) == sum(map(len, results)) == 10  # each job once, none left out
        job_id, owner = next(iter(claims.items()))
        await first.finish_job(job_id, "someone-else", 1001)  # not theirs: ignored
        await first.finish_job(job_id, owner, 1002)
        columns, rows = await first.export_rows("jobs")
        jobs = {row[columns.index("id")]: dict(zip(columns, row, strict=True)) for row in rows}
        assert (jobs[job_id]["claimed_by"], jobs[job_id]["done_at"]) == (owner, 1002)
        assert sorted(job["done_at"] or 0 for job in jobs.values()) == [0] * 10 + [1002]
        assert await first.next_due(lease=60) == 1000 + 60  # the oldest unfinished claim
        for store in racers:
            await store.close()

    run(main())


def test_placeholders_become_numbered_outside_quoted_text() -> None:
    assert numbered("SELECT '?', 'it''s ?' FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT '?', 'it''s ?' FROM t WHERE a = $1 AND b IN ($2, $3)"
    )


def test_claims_recover_with_no_kind_to_retry(database_url: str) -> None:
    """An empty list of kinds (an empty IN list, which PostgreSQL refuses as SQL) releases
    nothing and still drops the lost claims."""

    async def main() -> None:
        store, _, match_id = await started(database_url)
        await store.schedule(match_id, 0, [(JobKind.TIMEOUT, 10), (JobKind.REMINDER, 5)])
        assert await store.claim_job("dead", 20) is not None
        assert await store.recover_claims([], at=100, lease=60) == 1
        columns, rows = await store.export_rows("jobs")
        jobs = sorted((row[columns.index("kind")], row[columns.index("done_at")]) for row in rows)
        assert jobs == [("reminder", 100), ("timeout", None)]
        await store.close()

    run(main())


def test_the_registered_command_hash_is_kept_per_scope(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        try:
            assert await store.registered_hash("application:1:global") is None
            await store.set_registered_hash("application:1:global", "a" * 64)
            await store.set_registered_hash("application:1:guild:5", "b" * 64)
            await store.set_registered_hash("application:1:global", "c" * 64)
            assert await store.registered_hash("application:1:global") == "c" * 64
            assert await store.registered_hash("application:1:guild:5") == "b" * 64
            assert await store.registered_hash("application:2:global") is None
        finally:
            await store.close()

    run(main())


def test_premove_lines_are_kept_per_seat_replaced_and_go_with_a_rewind(database_url: str) -> None:
    async def main() -> None:
        store, service, match_id = await started(database_url)
        assert await store.premoves(match_id, 2) is None
        await store.set_premoves(match_id, 2, 0, [["a1e3", "h8h4"], ["a1b2", "h8g7"]])
        await store.set_premoves(match_id, 1, 0, [["h8h4", "a1e3"]])
        row = await store.premoves(match_id, 2)
        assert row is not None and row.ply == 0
        assert row.lines == (("a1e3", "h8h4"), ("a1b2", "h8g7"))
        await store.set_premoves(match_id, 2, 3, [["a1b2", "h8g7"]])
        assert await store.premoves(match_id, 2) == PremoveRow(3, (("a1b2", "h8g7"),))
        await store.set_premoves(match_id, 2, 3, [])
        assert await store.premoves(match_id, 2) is None
        await service.turns.move(match_id, ALICE.user_id, "a1e3")
        await store.rewind(match_id, 1, 0, snapshot="{}", status="active", outcome=None)
        assert await store.premoves(match_id, 1) is None
        await store.close()

    run(main())


def test_a_position_is_claimed_for_telling_by_dm_once_and_again_after_a_takeback(
    database_url: str,
) -> None:
    async def main() -> None:
        store, service, match_id = await started(database_url)
        await service.turns.move(match_id, ALICE.user_id, "a1e3")
        claims = await asyncio.gather(*(store.claim_telling(match_id, 1) for _ in range(4)))
        assert sorted(claims) == [False, False, False, True]  # racing callers: one claims
        assert not await store.claim_telling(match_id, 0)  # the match has moved on
        await store.release_telling(match_id, 0)  # not the position claimed: no change
        assert not await store.claim_telling(match_id, 1)
        await store.release_telling(match_id, 1)  # its DMs failed: the next try claims it
        assert await store.claim_telling(match_id, 1)
        await store.rewind(match_id, 1, 0, snapshot="{}", status="active", outcome=None)
        await turn(store, match_id, 0, "a1b2")  # ply 1 again, another position
        assert await store.claim_telling(match_id, 1)
        await store.close()

    run(main())


def test_copy_database_copies_every_row_and_ids_continue(database_url: str, tmp_path: Path) -> None:
    """From an SQLite file into each backend: identical rows, a refusal to copy into a
    database that has rows, and new matches numbered after the copied ones."""

    async def main() -> None:
        source, service, match_id = await started(f"sqlite:///{tmp_path / 'source.sqlite3'}")
        await service.turns.move(match_id, ALICE.user_id, "a1e3")
        await service.turns.resign(match_id, BOB.user_id)  # rated: the ratings tables get rows
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="boku", opponents=[CAROL]
        )
        pending = await service.challenges.open(request)
        await source.schedule(pending.id, 0, [(JobKind.EXPIRY, 1_800_000_000)])
        await source.vote_takeback(match_id, 1, 2)
        await source.set_dm(ALICE.user_id, True)
        await source.set_premoves(match_id, 1, 2, [["h8h4", "a1e3"]])
        await source.set_server_settings(ServerRow(1, theme="dark", games=("boku", "kyo")))
        await source.set_registered_hash("application:1:global", "0" * 64)
        vacation = await source.start_vacation(ALICE.user_id, 1_800_000_000, 1_800_086_400)
        await source.follow(match_id, CAROL.user_id, True)
        tournament = await service.tournaments.open(
            service.tournaments.prepare(
                guild_id=1, channel_id=2, creator=ALICE, game="quorum", system="swiss"
            )
        )
        await source.enter(tournament.id, BOB.user_id, BOB.name)
        await source.start_tournament(tournament.id, 3)
        await source.begin_round(tournament.id, 1, [(ALICE.user_id, BOB.user_id, 1.0)])
        await source.start_analysis(match_id, CAROL.user_id, 3)
        await source.save_reading(match_id, 0, '{"chances": [0.5, 0.5]}')
        await source.set_note(match_id, ALICE.user_id, "watch the centre")
        target = await open_store(database_url)
        copied = await copy_database(source, target)
        assert copied == {
            **{"matches": 2, "seats": 4, "moves": 2, "preferences": 1, "jobs": 1},
            **{"ratings": 2, "rated_matches": 1, "rating_changes": 2},
            **{"takeback_votes": 1, "command_registrations": 1},
            **{"vacations": 1, "followers": 1},
            **{"tournaments": 1, "tournament_entrants": 2, "tournament_boards": 1},
            **{"premoves": 1},
            **{"analyses": 1, "analysis_readings": 1},
            **{"server_settings": 1, "notes": 1},
        }
        assert set(copied) == set(TABLES)
        assert await differences(source, target) == []
        assert await MatchService(target).audit.check() == []
        with pytest.raises(StoreError, match="already has rows in matches"):
            await copy_database(source, target)
        copy = MatchService(target, seeds=lambda: 5)
        assert (await copy.challenges.open(request)).id == pending.id + 1
        assert (await differences(source, target))[
            0
        ] == "matches: 2 rows in the source, 3 in the copy"
        assert vacation is not None
        assert await target.start_vacation(BOB.user_id, 0, 10) == vacation + 1
        await source.close()
        await target.close()

    run(main())


def test_board_preferences_and_server_settings_round_trip(database_url: str) -> None:
    """Each field kept as written on both backends; a member's DM choice survives a change
    of theme, and a server never set reads as the defaults."""

    async def main() -> None:
        store = await open_store(database_url)
        assert await store.preferences(ALICE.user_id) == PreferenceRow()
        await store.set_dm(ALICE.user_id, True)
        await store.set_board_preferences(ALICE.user_id, "high-contrast", False, large=True)
        assert await store.preferences(ALICE.user_id) == PreferenceRow(
            dm=True, theme="high-contrast", flip=False, large=True
        )
        assert await store.server_settings(7) == ServerRow(7)
        chosen = ServerRow(7, "dark", "mover", 0, ("quorum", "razzle"), 2**62)
        await store.set_server_settings(chosen)
        assert await store.server_settings(7) == chosen
        await store.set_server_settings(ServerRow(7))
        assert await store.server_settings(7) == ServerRow(7)
        await store.close()

    run(main())


def test_challenge_rules_in_the_service(database_url: str) -> None:
    async def main() -> None:
        store = await open_store(database_url)
        service = MatchService(store, seeds=lambda: 5)
        with pytest.raises(ServiceError, match="is played by 2 players, not 3"):
            service.challenges.prepare(
                guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[], players=3
            )
        named_nobody = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[]
        )
        assert [p.user_id for p in named_nobody.players] == [ALICE.user_id, OPEN_SEAT]
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
        )
        match = await service.challenges.open(request)
        assert match.row.seed == 5 and match.status == "pending"
        with pytest.raises(ServiceError, match="has not started"):
            await service.turns.move(match.id, ALICE.user_id, "a1e3")
        with pytest.raises(ServiceError, match="not you"):
            await service.challenges.accept(match.id, CAROL.user_id)
        with pytest.raises(ServiceError, match="Only alice"):
            await service.challenges.withdraw(match.id, BOB.user_id)
        result = await service.challenges.accept(match.id, BOB.user_id)
        assert result.started and result.match.status == "active"
        with pytest.raises(ServiceError, match="no longer open"):
            await service.challenges.withdraw(match.id, ALICE.user_id)
        with pytest.raises(ServiceError, match="already accepted|no longer open"):
            await service.challenges.accept(match.id, BOB.user_id)
        await store.close()

    run(main())


def test_corrupt_rows_are_reported_and_skipped(database_url: str) -> None:
    async def main() -> None:
        store, service, first = await started(database_url)
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[CAROL]
        )
        second = (await service.challenges.open(request)).id
        third = (await service.challenges.open(request)).id
        await store.close()
        await execute_raw(
            database_url,
            f"UPDATE matches SET snapshot = '{{not json' WHERE id = {second}",
            f"UPDATE matches SET game = 'chess' WHERE id = {third}",
        )
        store = await open_store(database_url)
        service = MatchService(store)
        listing = await service.queries.listing(ALICE.user_id)
        assert [m.id for m in listing.matches] == [first] and listing.unreadable == 2
        with pytest.raises(ServiceError, match="damaged"):
            await service.cache.get(second)
        problems = await service.audit.check()
        assert [p.split(":")[0] for p in problems] == [f"match #{second}", f"match #{third}"]
        await store.close()

    run(main())


def test_check_finds_a_snapshot_that_differs_from_the_log(database_url: str) -> None:
    async def main() -> None:
        store, service, match_id = await started(database_url)
        await service.turns.move(match_id, ALICE.user_id, "a1e3")
        await service.turns.move(match_id, BOB.user_id, "h8h4")
        assert await service.audit.check() == []
        await store.close()
        await execute_raw(database_url, "DELETE FROM moves WHERE ply = 2")
        store = await open_store(database_url)
        (problem,) = await MatchService(store).audit.check()
        assert problem.startswith(f"match #{match_id}: the snapshot differs")
        await store.close()

    run(main())


PASS_POSITION = """
. . . . . w b b
. . . . . w b b
. . . . . w w w
. . . . . . . .
. . . . . . . .
. . . . . . . .
w . . . . . . .
w w . . . . . .
to move: white
"""


def test_a_player_with_no_move_passes_automatically(database_url: str) -> None:
    async def main() -> None:
        store, service, match_id = await started(database_url)
        game = (await service.cache.get(match_id)).game
        position = game.dump(game.parse_diagram(PASS_POSITION))
        await store.update_match(match_id, 0, snapshot=json.dumps(position))
        service = MatchService(store)
        result = await service.turns.move(match_id, ALICE.user_id, "place")
        assert [(t.seat, t.notation, t.automatic) for t in result.turns] == [
            (1, "place", False),
            (2, "pass", True),
        ]
        assert result.match.to_move is not None and result.match.to_move.user_id == ALICE.user_id
        assert [m.notation for m in await store.moves(match_id)] == ["place", "pass"]
        await store.close()

    run(main())


def test_a_closed_challenge_says_what_became_of_it(tmp_path: Path) -> None:
    async def main() -> None:
        store, service, started_id = await started(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        try:
            with pytest.raises(ServiceError, match=r"no longer open \(in progress\)"):
                await service.challenges.withdraw(started_id, ALICE.user_id)
            request = service.challenges.prepare(
                guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
            )
            declined = await service.challenges.decline(
                (await service.challenges.open(request)).id, BOB.user_id
            )
            with pytest.raises(ServiceError, match=r"no longer open \(declined\)"):
                await service.challenges.withdraw(declined.id, ALICE.user_id)
            with pytest.raises(ServiceError, match=r"is over \(declined\)"):
                await service.turns.move(declined.id, ALICE.user_id, "a1e3")
        finally:  # an open connection would keep a failing test's process alive
            await store.close()

    run(main())


def test_a_row_with_an_unknown_status_is_reported(tmp_path: Path) -> None:
    async def main() -> None:
        path = tmp_path / "db.sqlite3"
        store, _, match_id = await started(f"sqlite:///{path}")
        await store.close()
        with sqlite3.connect(path) as db:  # only a hand edit past the CHECK can do this
            db.execute("PRAGMA ignore_check_constraints = ON")
            db.execute("UPDATE matches SET status = 'paused' WHERE id = ?", (match_id,))
        store = await SqliteStore.open(path)
        try:
            (problem,) = await MatchService(store).audit.check()
        finally:
            await store.close()
        assert problem.startswith(f"match #{match_id}: unreadable") and "'paused'" in problem

    run(main())


def test_a_missing_postgresql_is_named_with_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the CI run fails with (and a developer's run skips with) on a bare machine."""
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr("glob.glob", lambda pattern: [])
    with pytest.raises(throwaway.PostgresMissing, match="apt-get install postgresql"):
        throwaway.server_binaries()
    monkeypatch.setattr(
        "glob.glob",
        lambda pattern: ["/usr/lib/postgresql/9.6/bin/pg_ctl", "/usr/lib/postgresql/15/bin/pg_ctl"],
    )
    assert throwaway.server_binaries() == Path("/usr/lib/postgresql/15/bin")


def test_a_note_deleted_says_whether_there_was_one(database_url: str) -> None:
    async def main() -> None:
        store, _, match_id = await started(database_url)
        assert await store.set_note(match_id, ALICE.user_id, "watch the centre")
        assert await store.set_note(match_id, ALICE.user_id, "")  # there was one
        assert not await store.set_note(match_id, ALICE.user_id, "")  # nothing left to delete
        assert await store.note(match_id, ALICE.user_id) is None
        await store.close()

    run(main())
