"""The bot's Prometheus metrics: module-level objects, recorded around the bot's work and
never inside its decisions.

Names are `boardgames_<thing>_<unit>`: `_total` counters, `_seconds` histograms. What belongs
to a server (interactions, boards, matches, the gateway) is labelled by `shard`; the rest
(jobs, workers, Discord's REST API, the database) belongs to the process, whose shards its
scrape target names. docs/operations.md says what each one means.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace

import aiohttp
from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

from bot.store.rows import shard_of

disable_created_metrics()  # type: ignore[no-untyped-call]  # a `_created` series: noise

INTERACTIONS = Counter(
    "boardgames_interactions_total",
    "Commands and component presses handled, by command and outcome",
    ["shard", "command", "outcome"],
)
MOVE_TO_BOARD = Histogram(
    "boardgames_move_to_board_seconds",
    "From a move's interaction to its board posted (the computer's reply included)",
    ["shard"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30),
)
MATCHES_RUNNING = Gauge(
    "boardgames_matches_running",
    "Matches in progress on this process's servers, counted at each scrape",
    ["shard"],
)
SHARD_LATENCY = Gauge(
    "boardgames_shard_latency_seconds",
    "Time between a gateway heartbeat and its acknowledgement",
    ["shard"],
)
WORKER_QUEUE = Gauge(
    "boardgames_worker_queue_jobs",
    "Jobs waiting for a worker process: the computer's moves, replays, analyses",
    ["kind"],
)
WORKER_JOB = Histogram(
    "boardgames_worker_job_seconds",
    "Time a worker process spent on one job (a search, a replay, a position analysed)",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)
SCHEDULER_LAG = Histogram(
    "boardgames_scheduler_lag_seconds",
    "How long after its due time a scheduled job started",
    buckets=(0.5, 1, 5, 15, 60, 300, 900, 3600, 86400),
)
JOBS = Counter(
    "boardgames_jobs_total",
    "Scheduled jobs run, by kind and outcome",
    ["kind", "outcome"],
)
DISCORD_ERRORS = Counter(
    "boardgames_discord_http_errors_total",
    "Answers of Discord's REST API with an error status, by status",
    ["status"],
)
RATE_LIMIT_WAIT = Histogram(
    "boardgames_discord_rate_limit_wait_seconds",
    "Waits Discord asked for with a 429 (the count is how many, the sum how long)",
    buckets=(0.1, 0.5, 1, 2, 5, 15, 60, 300),
)
DATABASE_QUERY = Histogram(
    "boardgames_database_query_seconds",
    "Time of each database statement",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5),
)
EVENT_LOOP_LAG = Gauge(
    "boardgames_event_loop_lag_seconds",
    "How late the event loop ran a timer, last measured",
)
LAST_BACKUP = Gauge(
    "boardgames_last_backup_timestamp_seconds",
    "When the newest backup in BACKUP_DIR was made (Unix time)",
)


def shard_label(guild_id: int | None, shard_count: int | None) -> str:
    """The shard a server's events arrive on, as a label (one shard when unsharded)."""
    return str(shard_of(guild_id, shard_count or 1))


def observe_query(seconds: float) -> None:
    """One database statement took `seconds`: the store calls this around each one."""
    DATABASE_QUERY.observe(seconds)


def observe_work(kind: str, seconds: float) -> None:
    """A worker process finished a job of `kind` (`computer`, `replay`, `analysis`)."""
    WORKER_JOB.labels(kind).observe(seconds)


def set_queue(kind: str, waiting: int) -> None:
    """How many jobs of `kind` now wait for a worker process."""
    WORKER_QUEUE.labels(kind).set(waiting)


def count_running(by_server: Mapping[int | None, int], shard_count: int | None) -> None:
    """Matches in progress, given per server, summed per shard (shards with none read 0)."""
    totals: dict[str, int] = {}
    for guild_id, count in by_server.items():
        label = shard_label(guild_id, shard_count)
        totals[label] = totals.get(label, 0) + count
    MATCHES_RUNNING.clear()
    for label, count in totals.items():
        MATCHES_RUNNING.labels(label).set(count)


def discord_trace() -> aiohttp.TraceConfig:
    """Handed to the client as `http_trace`: counts Discord's error answers by status, and
    the waits its 429s ask for (discord.py then sleeps that long and retries)."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_answered)
    return trace


async def _answered(
    session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
) -> None:
    status = params.response.status
    if status < 400:
        return
    DISCORD_ERRORS.labels(str(status)).inc()
    retry_after = params.response.headers.get("Retry-After")
    if status == 429 and retry_after is not None:
        try:
            RATE_LIMIT_WAIT.observe(float(retry_after))
        except ValueError:
            pass  # a date instead of seconds: Discord sends seconds; count the error only
