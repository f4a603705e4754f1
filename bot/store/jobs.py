"""Scheduled jobs (reminders, timeouts, expiries, replays): one row per (match, kind, ply),
claimed by one process at a time and finished by its claimer."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Database, marks, on_shards
from bot.store.rows import JobKind, JobRow, Shards

# Open challenges with no expiry (a stop between the challenge and its scheduling). A
# started match needs no such search: its clock is scheduled before its board is recorded as
# posted (`start_clock`), so a turn without its jobs is a board unposted, which the start-up
# finds by index `matches_unposted` and makes a BOARD job (`boards_due`).
UNSCHEDULED_MATCHES = """
    SELECT id FROM matches m
    WHERE m.status = 'pending' AND {shards} AND NOT EXISTS (
        SELECT 1 FROM jobs j WHERE j.match_id = m.id AND j.kind = 'expiry' AND j.ply = 0
    )
    ORDER BY id
"""

# Every started match whose latest turn is not shown (index `matches_unposted`, its WHERE
# repeated) gets a BOARD job due at once, unless it has one at that ply already (one that
# gave up stays given up: a restart does not retry a thread deleted for good).
BOARDS_DUE = """
    INSERT INTO jobs (match_id, kind, ply, due_at)
    SELECT id, 'board', ply, ? FROM matches m
    WHERE status IN ('active', 'finished') AND (board_ply IS NULL OR board_ply < ply)
        AND {shards}
    ON CONFLICT (match_id, kind, ply) DO NOTHING
"""

# A job's server, for `{shards}` over the jobs table.
JOB_GUILD = "(SELECT guild_id FROM matches WHERE matches.id = jobs.match_id)"

# Of the unclaimed jobs due by now, the earliest, marked claimed in the same statement;
# `{lock}` is the backend's CLAIM_LOCK. The inner SELECT reads index `jobs_claimable`
# (its WHERE repeats the index's), earliest first, and stops at the first of its shards.
CLAIM_JOB = """
    UPDATE jobs SET claimed_by = ?, claimed_at = ?
    WHERE id = (
        SELECT id FROM jobs
        WHERE claimed_by IS NULL AND done_at IS NULL AND due_at <= ? AND {shards}
        ORDER BY due_at, id LIMIT 1 {lock}
    )
    RETURNING id, match_id, kind, ply, due_at, attempts
"""

# The earliest unclaimed due time and the oldest running claim, each the first entry of its
# index (`jobs_claimable`, `jobs_claimed`) on these shards.
NEXT_DUE = """
    SELECT (
        SELECT due_at FROM jobs WHERE claimed_by IS NULL AND done_at IS NULL AND {shards}
        ORDER BY due_at LIMIT 1
    ), (
        SELECT claimed_at FROM jobs WHERE claimed_by IS NOT NULL AND done_at IS NULL
            AND {shards}
        ORDER BY claimed_at LIMIT 1
    )
"""

# Claims never finished: older than the lease, or this process's own (it restarted).
LOST_CLAIMS = (
    "claimed_by IS NOT NULL AND done_at IS NULL AND (claimed_at <= ? OR claimed_by = ?) "
    "AND {shards}"
)


class Jobs(Database):
    """Of any number of claimers, in any number of processes, exactly one gets each job."""

    async def schedule(
        self,
        match_id: int,
        ply: int,
        jobs: Sequence[tuple[JobKind, int]],
        vacation_id: int | None = None,
    ) -> None:
        """Record (kind, due time) jobs for the match at this ply, once: scheduling again is a
        no-op, so the first call fixes the times. Unclaimed jobs of earlier plies go, unrun.
        `vacation_id`: the times were put off by this vacation (see `end_vacation`)."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM jobs WHERE match_id = ? AND ply < ? AND claimed_by IS NULL",
                match_id,
                ply,
            )
            await db.executemany(
                "INSERT INTO jobs (match_id, kind, ply, due_at, vacation_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, kind, ply) DO NOTHING",
                [(match_id, str(kind), ply, due, vacation_id) for kind, due in jobs],
            )
            await self._jobs_changed(db)

    async def move_jobs(self, match_id: int, ply: int, jobs: Sequence[tuple[JobKind, int]]) -> None:
        """Set new due times for the match's jobs at this ply, those not yet claimed (a
        turn given more time)."""
        async with self._transaction() as db:
            for kind, due in jobs:
                await db.execute(
                    "UPDATE jobs SET due_at = ? WHERE match_id = ? AND kind = ? AND ply = ? "
                    "AND claimed_by IS NULL AND done_at IS NULL",
                    due,
                    match_id,
                    str(kind),
                    ply,
                )
            await self._jobs_changed(db)

    async def post_later(self, match_id: int, kind: JobKind, ply: int, due: int) -> None:
        """A post Discord did not take (a BOARD or ANALYSIS job), due at `due`: recorded
        once per (match, kind, ply) while it waits or runs; one finished before (it gave up,
        or a takeback came back to this ply) is taken up again, its attempts counted anew."""
        async with self._writer() as db:
            await db.execute(
                "INSERT INTO jobs (match_id, kind, ply, due_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, kind, ply) DO UPDATE SET due_at = excluded.due_at, "
                "attempts = 0, claimed_by = NULL, claimed_at = NULL, done_at = NULL "
                "WHERE jobs.done_at IS NOT NULL",
                match_id,
                str(kind),
                ply,
                due,
            )
            await self._jobs_changed(db)

    async def boards_due(self, at: int, shards: Shards | None = None) -> int:
        """A BOARD job due at `at` for each started match (on these shards' servers) whose
        latest turn was saved but never shown; how many were added."""
        condition, values = on_shards(shards)
        async with self._writer() as db:
            added = await db.execute(BOARDS_DUE.format(shards=condition), at, *values)
            await self._jobs_changed(db)
        return added

    async def due_time(self, match_id: int, kind: JobKind, ply: int) -> int | None:
        due = await self._value(
            "SELECT due_at FROM jobs WHERE match_id = ? AND kind = ? AND ply = ?",
            match_id,
            str(kind),
            ply,
        )
        return None if due is None else int(due)

    async def progress(
        self, match_id: int, kind: JobKind, ply: int
    ) -> tuple[int | None, int] | None:
        """When the match's job at this ply finished (None while it waits or runs) and how
        often Discord refused it; None without one."""
        rows = await self._reader().fetch(
            "SELECT done_at, attempts FROM jobs WHERE match_id = ? AND kind = ? AND ply = ?",
            match_id,
            str(kind),
            ply,
        )
        if not rows:
            return None
        done_at, attempts = rows[0]
        return (None if done_at is None else int(done_at)), int(attempts)

    async def next_due(self, lease: int, shards: Shards | None = None) -> int | None:
        """The earliest time a job (of a match on these shards' servers) falls due, or a
        claim older than `lease` seconds goes stale (see `recover_claims`), if any job is
        unfinished."""
        condition, values = on_shards(shards, JOB_GUILD)
        rows = await self._reader().fetch(NEXT_DUE.format(shards=condition), *values, *values)
        due, claimed = rows[0][0], rows[0][1]
        times = [int(due)] if due is not None else []
        times += [int(claimed) + lease] if claimed is not None else []
        return min(times, default=None)

    async def claim_job(self, owner: str, at: int, shards: Shards | None = None) -> JobRow | None:
        """Claim the earliest unclaimed job due by `at`, of a match on these shards'
        servers, for `owner` (a process name), in one statement: of any number of claimers,
        in any number of processes, exactly one gets each job. None when nothing is due."""
        condition, values = on_shards(shards, JOB_GUILD)
        query = CLAIM_JOB.format(lock=self.CLAIM_LOCK, shards=condition)
        async with self._writer() as db:
            rows = await db.fetch(query, owner, at, at, *values)
        if not rows:
            return None
        row = rows[0]
        return JobRow(
            int(row[0]), int(row[1]), JobKind(row[2]), int(row[3]), int(row[4]), int(row[5])
        )

    async def renew_claims(self, owner: str, job_ids: Sequence[int], at: int) -> None:
        """Stamp `owner`'s claims on these running jobs with `at`, so no lease runs out
        while they work."""
        async with self._writer() as db:
            await db.execute(
                "UPDATE jobs SET claimed_at = ? WHERE claimed_by = ? AND done_at IS NULL "
                f"AND id IN ({marks(len(job_ids))})",
                at,
                owner,
                *job_ids,
            )

    async def retry_job(self, job_id: int, owner: str, due: int) -> None:
        """Put the job `owner` holds back in the queue, due at `due`, one more attempt
        counted (Discord did not take its post)."""
        async with self._writer() as db:
            await db.execute(
                "UPDATE jobs SET due_at = ?, attempts = attempts + 1, claimed_by = NULL, "
                "claimed_at = NULL WHERE id = ? AND claimed_by = ? AND done_at IS NULL",
                due,
                job_id,
                owner,
            )

    async def finish_job(self, job_id: int, owner: str, at: int) -> None:
        """Record that the job is done, if `owner` still holds its claim."""
        async with self._writer() as db:
            await db.execute(
                "UPDATE jobs SET done_at = ? WHERE id = ? AND claimed_by = ? AND done_at IS NULL",
                at,
                job_id,
                owner,
            )

    async def recover_claims(
        self,
        retry: Sequence[JobKind],
        *,
        at: int,
        lease: int,
        owner: str | None = None,
        shards: Shards | None = None,
    ) -> int:
        """Claims never finished, by a process that died: those older than `lease` seconds,
        and any by `owner` (this process, restarted), of matches on these shards' servers.
        Jobs of the `retry` kinds are released to run again (their writes are guarded, so a
        second run acts at most once); the rest count as done, since acting twice (a second
        reminder) is worse than not at all. Returns how many claims were recovered."""
        condition, values = on_shards(shards, JOB_GUILD)
        lost = LOST_CLAIMS.format(shards=condition)
        async with self._transaction() as db:
            released = await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_at = NULL "
                f"WHERE {lost} AND kind IN ({marks(len(retry))})",
                at - lease,
                owner,
                *values,
                *map(str, retry),
            )
            dropped = await db.execute(
                f"UPDATE jobs SET done_at = ? WHERE {lost}", at, at - lease, owner, *values
            )
        return released + dropped

    async def claimers(self, shards: Shards | None = None) -> list[str]:
        """The processes holding unfinished claims on jobs of these shards' servers (read
        from index `jobs_claimed`)."""
        condition, values = on_shards(shards, JOB_GUILD)
        rows = await self._reader().fetch(
            "SELECT DISTINCT claimed_by FROM jobs "
            f"WHERE claimed_by IS NOT NULL AND done_at IS NULL AND {condition}",
            *values,
        )
        return [str(row[0]) for row in rows]

    async def prune_jobs(self, before: int) -> int:
        """Forget the jobs finished before `before`; how many went."""
        async with self._writer() as db:
            return await db.execute("DELETE FROM jobs WHERE done_at < ?", before)

    async def unscheduled(self, shards: Shards | None = None) -> list[int]:
        """Open challenges (on these shards' servers) with no expiry job (a stop between
        the challenge and its scheduling)."""
        return await self._ids_on(UNSCHEDULED_MATCHES, shards)
