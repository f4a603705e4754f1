"""`/healthz`, `/readyz` and `/metrics` over HTTP (aiohttp), when HEALTH_PORT is set.

- `/healthz`: the process and its event loop answer; the body carries the loop's lag. A
  supervisor that gets no answer in a few seconds should restart the bot.
- `/readyz`: 200 when every shard of this process is connected, the database answers and
  the scheduler is not behind by more than BEHIND_LIMIT; else 503 with the reasons. From
  the moment a stop begins it answers 503 at once.
- `/metrics`: Prometheus's text format (bot.operations.metrics, and the process's own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.clock import MINUTE
from bot.operations.metrics import EVENT_LOOP_LAG, SHARD_LATENCY, count_running
from bot.texts import Text, t

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)

BEHIND_LIMIT = MINUTE  # the scheduler may be this late before the bot reads as not ready
DATABASE_PATIENCE = 5.0  # seconds the database has to answer a readiness probe
LAG_EVERY = 1.0  # seconds between two measures of the event loop's lag


async def problems(bot: BoardBot) -> list[Text]:
    """Why the bot is not ready to serve; empty when it is."""
    if bot.in_flight.stopping:
        return [t("operations.ready_stopping")]
    found: list[Text] = []
    if not bot.is_ready():
        found.append(t("operations.ready_no_gateway"))
    else:
        found += [
            t("operations.ready_shard_down", shard=number)
            for number, shard in sorted(bot.shards.items())
            if shard.is_closed()
        ]
    try:
        due = await asyncio.wait_for(bot.scheduler.next_due(), DATABASE_PATIENCE)
    except Exception as error:  # any failure means the same: no answer to rely on
        found.append(t("operations.ready_database", error=type(error).__name__))
    else:
        behind = 0.0 if due is None else bot.clock.now() - due
        if behind > BEHIND_LIMIT:
            found.append(t("operations.ready_behind", count=int(behind)))
    return found


class HealthServer:
    """The HTTP server for supervisors and Prometheus, started and stopped with the bot."""

    def __init__(self, bot: BoardBot, port: int, host: str = "0.0.0.0") -> None:
        self.bot = bot
        self.host = host
        self.wanted_port = port
        self.lag = 0.0
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        self._lag_task: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        """The port it listens on (the one the system chose, when asked for port 0)."""
        return int(self._runner.addresses[0][1])

    async def start(self) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.wanted_port).start()
        self._lag_task = asyncio.create_task(self._measure_lag(), name="event-loop-lag")
        log.info("health, readiness and metrics on port %d", self.port)

    async def stop(self) -> None:
        if self._lag_task is not None:
            self._lag_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag_task
        await self._runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "loop_lag_seconds": round(self.lag, 4)})

    async def readyz(self, request: web.Request) -> web.Response:
        found = await problems(self.bot)
        body = {"ready": not found, "problems": [str(p) for p in found]}
        return web.json_response(body, status=503 if found else 200)

    async def metrics(self, request: web.Request) -> web.Response:
        SHARD_LATENCY.clear()
        for shard, latency in self.bot.latencies:
            SHARD_LATENCY.labels(str(shard)).set(latency)
        running = await self.bot.store.running_matches(self.bot.settings.shards)
        count_running(running, self.bot.shard_count)
        response = web.Response(body=generate_latest(REGISTRY))
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def _measure_lag(self) -> None:
        """How much later than asked a sleep wakes: the time the loop was busy elsewhere."""
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.lag = max(0.0, loop.time() - asked)
            EVENT_LOOP_LAG.set(self.lag)
