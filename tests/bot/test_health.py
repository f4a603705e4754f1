"""/healthz, /readyz and /metrics answering beside a running bot (HEALTH_PORT), and the
metrics moving as matches are played."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.clock import DAY, ManualClock
from bot.launch import StartupFailure
from bot.offline import OfflineDiscord
from bot.operations.health import problems
from tests.bot.support import log_in_beside, new_bot, start_match
from tests.bot.test_cli import ROOT


async def get(h: OfflineDiscord, path: str) -> tuple[int, Any]:
    """The status and body of a GET to the bot's health server (JSON, or the text)."""
    assert h.bot.health is not None
    url = f"http://127.0.0.1:{h.bot.health.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
        is_json = response.content_type == "application/json"
        return response.status, json.loads(text) if is_json else text


def sample(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus's text format; 0 when absent (nothing counted yet)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and all(found.labels.get(k) == v for k, v in labels.items()):
                return float(found.value)
    return 0.0


async def scrape(h: OfflineDiscord) -> str:
    status, text = await get(h, "/metrics")
    assert status == 200
    return str(text)


def test_health_readiness_and_metrics_answer_and_move_with_play(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        status, body = await get(h, "/healthz")
        assert status == 200 and body["status"] == "ok" and body["loop_lag_seconds"] >= 0
        assert await get(h, "/readyz") == (200, {"ready": True, "problems": []})
        before = await scrape(h)
        moves = ("boardgames_interactions_total", {"command": "move", "outcome": "ok"})
        boards = "boardgames_move_to_board_seconds_count"
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h3")  # refused: not a legal move
        await h.command(bob, "move", move="h8h4")
        after = await scrape(h)
        assert sample(after, moves[0], **moves[1]) - sample(before, moves[0], **moves[1]) == 2
        refused = {"command": "move", "outcome": "refused", "shard": "0"}
        gained = sample(after, moves[0], **refused) - sample(before, moves[0], **refused)
        assert gained == 1
        assert sample(after, boards, shard="0") - sample(before, boards, shard="0") == 2
        accepted = {"command": "component:accept", "outcome": "ok"}
        assert sample(after, moves[0], **accepted) - sample(before, moves[0], **accepted) == 1
        queries = "boardgames_database_query_seconds_count"
        assert sample(after, queries) > sample(before, queries)  # the store times each statement
        assert sample(before, "boardgames_matches_running", shard="0") == 0
        assert sample(after, "boardgames_matches_running", shard="0") == 1
        assert "process_cpu_seconds_total" in after

    offline(scenario, health_port=0)


def test_jobs_and_scheduler_lag_are_counted(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        await start_match(h)
        before = await scrape(h)
        await h.advance(3 * DAY)  # two reminders, then alice loses on time
        after = await scrape(h)
        done = {"kind": "timeout", "outcome": "done"}
        gained = sample(after, "boardgames_jobs_total", **done)
        assert gained - sample(before, "boardgames_jobs_total", **done) == 1
        lag = "boardgames_scheduler_lag_seconds_count"
        assert sample(after, lag) - sample(before, lag) >= 3  # two reminders and the timeout

    offline(scenario, health_port=0)


def test_readiness_names_what_is_wrong(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        await start_match(h)
        clock = h.bot.clock
        assert isinstance(clock, ManualClock)
        clock.advance(4 * DAY)  # the timeout fell due, and nothing has run it yet
        status, body = await get(h, "/readyz")
        assert status == 503
        assert body["problems"][0].startswith("the scheduler is ")
        assert body["problems"][0].endswith(" seconds behind")
        await h.advance(0)  # it runs
        assert (await get(h, "/readyz"))[0] == 200

        beside = new_bot(database, clock=ManualClock(clock.now()))
        await log_in_beside(h, beside)  # set up, never connected to the gateway
        try:
            assert [str(p) for p in await problems(beside)] == [
                "not connected to Discord's gateway yet"
            ]
            await beside.catching_up
            await beside.store.close()  # the database gone from under it
            gateway, database_problem = await problems(beside)
            assert str(gateway) == "not connected to Discord's gateway yet"
            assert str(database_problem).startswith("the database does not answer (")
        finally:
            await beside.close()

    offline(scenario, health_port=0)


def test_no_server_without_a_port(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        assert h.bot.health is None

    offline(scenario)


def test_an_offline_session_serves_health_while_it_waits_for_lines(tmp_path: Path) -> None:
    """`python -m bot --offline` with HEALTH_PORT: the endpoints answer between the lines a
    person types, and the metrics move as moves are played."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env |= {"PYTHONPATH": str(ROOT), "HEALTH_PORT": str(port)}
    session = subprocess.Popen(
        [sys.executable, "-m", "bot", "--offline"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert session.stdin is not None and session.stdout is not None

    def play(line: str, until: str) -> None:
        assert session.stdin is not None and session.stdout is not None
        session.stdin.write(line + "\n")
        session.stdin.flush()
        for printed in session.stdout:
            if until in printed:
                return
        raise AssertionError(f"the session ended before printing {until!r}")

    def fetch(path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    try:
        play("alice: /challenge game:quorum opponent:@bob", "[Accept]")
        play("bob: click Accept", "thread opened")
        assert fetch("/readyz") == (200, '{"ready": true, "problems": []}')
        moves = "boardgames_move_to_board_seconds_count"
        assert sample(fetch("/metrics")[1], moves, shard="0") == 0
        play("alice: /move move:a1e3", "alice played a1e3")
        assert sample(fetch("/metrics")[1], moves, shard="0") == 1
        assert json.loads(fetch("/healthz")[1])["status"] == "ok"
    finally:
        session.stdin.close()
        assert session.wait(timeout=60) == 0
        session.stdout.close()


def test_a_busy_health_port_is_named_in_one_sentence(database: str) -> None:
    async def main() -> None:
        with socket.socket() as taken:
            taken.bind(("0.0.0.0", 0))
            taken.listen()
            port = taken.getsockname()[1]
            bot = new_bot(database, health_port=port)
            wanted = f"Cannot serve health checks on HEALTH_PORT {port} (Address already in use)"
            try:
                with pytest.raises(StartupFailure, match=re.escape(wanted)):
                    await OfflineDiscord(bot).start()
            finally:
                await bot.close()

    asyncio.run(main())
