"""/server status for those who may manage the server; Discord's error answers and the waits
its 429s ask for, counted from discord.py's HTTP trace."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client import REGISTRY

from bot.offline import OfflineDiscord
from bot.operations.metrics import discord_trace, set_queue
from tests.bot.support import private


def test_server_status_privately_for_managers_only(offline: Any, tmp_path: Path) -> None:
    backups = tmp_path / "backups"

    async def scenario(h: OfflineDiscord) -> None:
        while h.bot.backups is None or not h.bot.backups.made():  # one at once: none yet
            await asyncio.sleep(0.01)
        set_queue("replay", 2)
        try:
            (status,) = private(await h.command(h.user("owner"), "server status"))
        finally:
            set_queue("replay", 0)
        title, gateway, matches, queues, backup = status.content.splitlines()
        assert title.startswith("**Board games bot** 0.1.0 · up ")
        assert gateway == "Gateway latency: not connected to Discord's gateway"
        assert matches == "Matches running: 0"
        assert queues == "Waiting for a worker: 0 computer moves, 2 replays, 0 analyses"
        (made,) = h.bot.backups.made()
        assert backup.startswith("Last backup: <t:") and backup.endswith(f":R> ({made.name})")
        mallory = h.user("mallory", manager=False)
        (refused,) = private(await h.command(mallory, "server status"))
        assert refused.content.startswith(
            "Only members who may manage the server can see the bot's status."
        )

    offline(scenario, backup_dir=backups)


def test_status_says_when_no_backups_are_scheduled(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        (status,) = private(await h.command(h.user("owner"), "server status"))
        assert status.content.splitlines()[-1] == "Last backup: none scheduled (set BACKUP_DIR)"

    offline(scenario)


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_discord_errors_and_rate_limit_waits_are_counted() -> None:
    async def answer(request: web.Request) -> web.Response:
        status = int(request.match_info["status"])
        headers = {"Retry-After": "2"} if status == 429 else {}
        return web.json_response({"retry_after": 2}, status=status, headers=headers)

    async def main() -> None:
        app = web.Application()
        app.router.add_get("/{status}", answer)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        try:
            async with aiohttp.ClientSession(trace_configs=[discord_trace()]) as session:
                for status in (200, 404, 429, 503, 429):
                    async with session.get(f"http://127.0.0.1:{port}/{status}") as response:
                        assert response.status == status
        finally:
            await runner.cleanup()

    errors = "boardgames_discord_http_errors_total"
    waits = "boardgames_discord_rate_limit_wait_seconds"
    before = [value(errors, status=s) for s in ("200", "404", "429", "503")]
    waited = (value(f"{waits}_count"), value(f"{waits}_sum"))
    asyncio.run(main())
    after = [value(errors, status=s) for s in ("200", "404", "429", "503")]
    assert [b - a for a, b in zip(before, after, strict=True)] == [0, 1, 2, 1]
    assert value(f"{waits}_count") - waited[0] == 2 and value(f"{waits}_sum") - waited[1] == 4
