"""Two bot processes on one PostgreSQL, four shards: each acts only for the servers on its
own shards, and neither acts on a match it remembers after the other changed it."""

from __future__ import annotations

import asyncio

from bot.clock import DAY, ManualClock
from bot.offline import OfflineDiscord
from bot.store import shard_of
from fixtures.postgres import ThrowawayPostgres
from tests.bot.spec import check_request
from tests.bot.support import (
    START,
    log_in_beside,
    new_bot,
    opening,
    private,
    public,
    start_match,
    through,
)

SHARDS = 4


def test_board_right_after_the_other_process_timed_the_match_out_shows_it_finished(
    postgres: ThrowawayPostgres,
) -> None:
    """Process A runs the harness server's shard, B the other two: A times the match out
    (once; B never claims it), and B, which had the match in memory as running, shows it
    finished on the next /board."""

    async def main() -> None:
        url = await postgres.create_schema("test_two_processes")
        clock = ManualClock(START)
        h = OfflineDiscord(new_bot(url, clock=clock), check_request=check_request)
        home = shard_of(h.guild_id, SHARDS)
        mine = tuple(sorted({home, (home + 1) % SHARDS}))
        others = tuple(n for n in range(SHARDS) if n not in mine)
        h.bot = new_bot(url, clock=clock, shard_count=SHARDS, shard_ids=mine)
        other = new_bot(url, clock=clock, shard_count=SHARDS, shard_ids=others)
        async with h:
            await log_in_beside(h, other)
            match_id, (alice, bob) = await start_match(h, days=1)
            await opening(h, alice, bob)  # bob's timeout is then a loss, not an abort
            with through(h, other):
                (board,) = private(await h.command(bob, "board", match=str(match_id)))
            assert "Move" in board.buttons  # B now remembers the match as running
            assert await other.scheduler.next_due() is None  # not B's to run
            ending = public(await h.advance(DAY + 1))
            assert await other.scheduler.run_due() == 0
            assert sum("ran out of time" in sent.content for sent in ending) == 1
            with through(h, other):
                (board,) = private(await h.command(bob, "board", match=str(match_id)))
            assert "Move" not in board.buttons and "timeout" in board.content, board.content
            await other.close()

    asyncio.run(main())
