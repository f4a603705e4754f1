"""What a start finds left undone by the last run, done in the background while the bot
already serves: matches finished but not yet rated (or not yet counted in their
tournament), tournament rounds left half begun, boards saved but never posted (each made a
BOARD job, due now), challenges without their expiry, and the computer's turns. Overdue
jobs are the scheduler's (it runs them, several at once, from its first look at the
database).

Only the matches of this process's shards are looked at: another process runs the rest.
"""

from __future__ import annotations

import logging

from bot.jobs.computer import Computer
from bot.service import MatchService
from bot.store import Shards

log = logging.getLogger(__name__)

TASK_NAME = "catch-up"  # the offline harness waits for it after logging in


class CatchUp:
    def __init__(
        self,
        service: MatchService,
        computer: Computer,
        shards: Shards | None,
    ) -> None:
        self.service = service
        self.computer = computer
        self.shards = shards

    async def run(self, *, play: bool = True) -> None:
        """Everything left undone; the computer plays only with `play` (a one-shot
        `--sync` run plays no turns). A failure is logged, and the next start tries again."""
        try:
            await self.service.ratings.catch_up(self.shards)
            await self.service.tournaments.catch_up(self.shards)
            await self.service.deadlines.catch_up(self.shards)
            if play:
                await self.computer.resume(self.shards)
                resumed = await self.service.analyses.resume(self.shards)
                if resumed:
                    log.info("resumed %d analysis(es) left unfinished by the last run", resumed)
        except Exception:
            log.exception("catching up on what the last run left undone failed")
