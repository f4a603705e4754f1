"""What a start finds left undone by the last run, done in the background while the bot
already serves: matches finished but not yet rated (or not yet counted in their
tournament), tournament rounds left half begun, boards saved but never posted, turns
and challenges without their deadline jobs, and the computer's turns. Overdue timeouts are
the scheduler's (it runs them, several at once, from its first look at the database).

Only the matches of this process's shards are looked at: another process runs the rest.
Each kind of work goes in the order it was left, a few matches at once, so a thousand of
them neither queue behind one another for minutes nor flood the renderers and Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.jobs.computer import Computer
from bot.posts.notifications import Announcer
from bot.service import MatchService
from bot.store import Shards

log = logging.getLogger(__name__)

CONCURRENT = 4
TASK_NAME = "catch-up"  # the offline harness waits for it after logging in


async def in_order(
    items: Sequence[int], work: Callable[[int], Awaitable[bool]], limit: int = CONCURRENT
) -> int:
    """`work` on every item, started in order, at most `limit` at once; how many returned
    True."""
    slots = asyncio.Semaphore(limit)

    async def one(item: int) -> bool:
        try:
            return await work(item)
        finally:
            slots.release()

    tasks = []
    for item in items:
        await slots.acquire()
        tasks.append(asyncio.create_task(one(item), name=f"{TASK_NAME}-{item}"))
    return sum(await asyncio.gather(*tasks))


class CatchUp:
    def __init__(
        self,
        service: MatchService,
        announcer: Announcer,
        computer: Computer,
        shards: Shards | None,
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.computer = computer
        self.shards = shards

    async def run(self, *, play: bool = True) -> None:
        """Everything left undone; the computer plays only with `play` (a one-shot
        `--sync` run plays no turns). A failure is logged, and the next start tries again."""
        try:
            await self.service.ratings.catch_up(self.shards)
            await self.service.tournaments.catch_up(self.shards)
            store = self.service.store
            unposted = await store.unposted_boards(self.shards)
            posted = await in_order(unposted, self.announcer.post_missing_board)
            if posted:
                log.info("posted %d board(s) left unposted by the last run", posted)
            await self.service.deadlines.catch_up(self.shards)
            if play:
                await self.computer.resume(self.shards)
                resumed = await self.service.analyses.resume(self.shards)
                if resumed:
                    log.info("resumed %d analysis(es) left unfinished by the last run", resumed)
        except Exception:
            log.exception("catching up on what the last run left undone failed")
