"""The SQLite store and the service's checks, below the Discord layer."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service import MatchService, Player, ServiceError
from bot.store import MIGRATIONS, StaleWrite, Store, StoreError

ALICE, BOB, CAROL = Player(11, "alice"), Player(12, "bob"), Player(13, "carol")


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def started(path: Path) -> tuple[Store, MatchService, int]:
    store = await Store.open(path)
    service = MatchService(store, seeds=lambda: 5)
    request = service.prepare_challenge(
        guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
    )
    match = await service.challenge(request)
    await service.accept(match.id, BOB.user_id)
    return store, service, match.id


def test_open_sets_pragmas_and_migrates_once(tmp_path: Path) -> None:
    async def main() -> None:
        path = tmp_path / "nested" / "db.sqlite3"
        store = await Store.open(path)
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "user_version"):
            async with store._db.execute(f"PRAGMA {name}") as cursor:
                row = await cursor.fetchone()
                pragmas[name] = row[0] if row else None
        await store.close()
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 1,  # NORMAL
            "foreign_keys": 1,
            "busy_timeout": 5000,
            "user_version": len(MIGRATIONS),
        }
        await (await Store.open(path)).close()  # a second open finds nothing to migrate
        with sqlite3.connect(path) as db:
            db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        with pytest.raises(StoreError, match="newer than this bot"):
            await Store.open(path)

    run(main())


def test_a_write_at_a_stale_ply_is_refused_whole(tmp_path: Path) -> None:
    async def main() -> None:
        store, service, match_id = await started(tmp_path / "db.sqlite3")
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
        with pytest.raises(sqlite3.IntegrityError):  # the second turn fails: neither lands
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


def test_challenge_rules_in_the_service(tmp_path: Path) -> None:
    async def main() -> None:
        store = await Store.open(tmp_path / "db.sqlite3")
        service = MatchService(store, seeds=lambda: 5)
        with pytest.raises(ServiceError, match="cannot be played by 1"):
            service.prepare_challenge(
                guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[]
            )
        request = service.prepare_challenge(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
        )
        match = await service.challenge(request)
        assert match.row.seed == 5 and match.status == "pending"
        with pytest.raises(ServiceError, match="has not started"):
            await service.move(match.id, ALICE.user_id, "a1e3")
        with pytest.raises(ServiceError, match="not you"):
            await service.accept(match.id, CAROL.user_id)
        with pytest.raises(ServiceError, match="only alice"):
            await service.withdraw(match.id, BOB.user_id)
        result = await service.accept(match.id, BOB.user_id)
        assert result.started and result.match.status == "active"
        with pytest.raises(ServiceError, match="no longer open"):
            await service.withdraw(match.id, ALICE.user_id)
        with pytest.raises(ServiceError, match="already accepted|no longer open"):
            await service.accept(match.id, BOB.user_id)
        await store.close()

    run(main())


def test_corrupt_rows_are_reported_and_skipped(tmp_path: Path) -> None:
    async def main() -> None:
        path = tmp_path / "db.sqlite3"
        store, service, first = await started(path)
        request = service.prepare_challenge(
            guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[CAROL]
        )
        second = (await service.challenge(request)).id
        third = (await service.challenge(request)).id
        await store.close()
        with sqlite3.connect(path) as db:
            db.execute("UPDATE matches SET snapshot = '{not json' WHERE id = ?", (second,))
            db.execute("UPDATE matches SET game = 'chess' WHERE id = ?", (third,))
        store = await Store.open(path)
        service = MatchService(store)
        listing = await service.listing(ALICE.user_id)
        assert [m.id for m in listing.matches] == [first] and listing.unreadable == 2
        with pytest.raises(ServiceError, match="damaged"):
            await service.get(second)
        problems = await service.check()
        assert [p.split(":")[0] for p in problems] == [f"match #{second}", f"match #{third}"]
        await store.close()

    run(main())


def test_check_finds_a_snapshot_that_differs_from_the_log(tmp_path: Path) -> None:
    async def main() -> None:
        path = tmp_path / "db.sqlite3"
        store, service, match_id = await started(path)
        await service.move(match_id, ALICE.user_id, "a1e3")
        await service.move(match_id, BOB.user_id, "h8h4")
        assert await service.check() == []
        await store.close()
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM moves WHERE ply = 2")
        store = await Store.open(path)
        (problem,) = await MatchService(store).check()
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


def test_a_player_with_no_move_passes_automatically(tmp_path: Path) -> None:
    async def main() -> None:
        store, service, match_id = await started(tmp_path / "db.sqlite3")
        game = (await service.get(match_id)).game
        position = game.dump(game.parse_diagram(PASS_POSITION))
        await store.update_match(match_id, 0, snapshot=json.dumps(position))
        service = MatchService(store)
        result = await service.move(match_id, ALICE.user_id, "place")
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
        store, service, started_id = await started(tmp_path / "db.sqlite3")
        try:
            with pytest.raises(ServiceError, match=r"no longer open \(in progress\)"):
                await service.withdraw(started_id, ALICE.user_id)
            request = service.prepare_challenge(
                guild_id=1, channel_id=2, challenger=ALICE, game="quorum", opponents=[BOB]
            )
            declined = await service.decline((await service.challenge(request)).id, BOB.user_id)
            with pytest.raises(ServiceError, match=r"no longer open \(declined\)"):
                await service.withdraw(declined.id, ALICE.user_id)
            with pytest.raises(ServiceError, match=r"is over \(declined\)"):
                await service.move(declined.id, ALICE.user_id, "a1e3")
        finally:  # an open connection would keep a failing test's process alive
            await store.close()

    run(main())


def test_a_row_with_an_unknown_status_is_reported(tmp_path: Path) -> None:
    async def main() -> None:
        path = tmp_path / "db.sqlite3"
        store, _, match_id = await started(path)
        await store.close()
        with sqlite3.connect(path) as db:  # only a hand edit past the CHECK can do this
            db.execute("PRAGMA ignore_check_constraints = ON")
            db.execute("UPDATE matches SET status = 'paused' WHERE id = ?", (match_id,))
        store = await Store.open(path)
        try:
            (problem,) = await MatchService(store).check()
        finally:
            await store.close()
        assert problem.startswith(f"match #{match_id}: unreadable") and "'paused'" in problem

    run(main())
