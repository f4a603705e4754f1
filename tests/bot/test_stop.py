"""A clean stop: SIGTERM (or SIGINT, or `close()`) refuses new work, reads as not ready at
once, lets what is under way finish within a bound, and releases the claims of jobs it had
to cut short. Nothing is lost, on either store."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from discord.http import Route

import bot.app
from bot.clock import DAY, ManualClock
from bot.offline import OfflineDiscord
from bot.operations.signals import stop_on_signals
from bot.store import JobKind, open_store
from tests.bot.support import new_bot, private, public, start_match
from tests.bot.test_cli import ROOT
from tests.bot.test_health import get

BOARD_POST = "/channels/{channel_id}/messages"


class Held:
    """Every message post to a channel waits, until `release`."""

    def __init__(self, h: OfflineDiscord) -> None:
        self.waiting = 0
        self.release = asyncio.Event()
        answer: Callable[..., Any] = h.bot.http.request

        async def slow(route: Route, **kwargs: Any) -> Any:
            if route.method == "POST" and route.path == BOARD_POST:
                self.waiting += 1
                await self.release.wait()
            return await answer(route, **kwargs)

        h.bot.http.request = slow  # type: ignore[method-assign]

    async def until(self, count: int) -> None:
        while self.waiting < count:
            await asyncio.sleep(0.01)


def clock_of(h: OfflineDiscord) -> ManualClock:
    assert isinstance(h.bot.clock, ManualClock)
    return h.bot.clock


async def sigterm(h: OfflineDiscord, number: int = signal.SIGTERM) -> asyncio.Task[None]:
    """Send this process SIGTERM (as a host does on every deploy) or another signal; the
    stop it began."""
    stop_on_signals(h.bot.stop)
    os.kill(os.getpid(), number)
    while not h.bot.in_flight.stopping:
        await asyncio.sleep(0.01)
    return h.bot.stop()


@pytest.mark.both_backends
def test_sigterm_during_a_move_reads_not_ready_at_once_and_lets_the_move_finish(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        held = Held(h)
        start = len(h.sent)
        h.dispatch(h.command_payload(alice, "move", move="a1e3"), alice)
        await held.until(1)  # saved; its board on its way
        stopping = await sigterm(h)
        status, body = await get(h, "/readyz")
        assert (status, body) == (503, {"ready": False, "problems": ["the bot is stopping"]})
        h.dispatch(h.command_payload(bob, "board"), bob)  # comes after the stop began
        await asyncio.sleep(0.05)
        held.release.set()
        await stopping
        answers = [s for s in h.sent[start:] if s.kind == "message"]
        (board,) = public(answers)
        assert "alice played **a1e3**" in board.content and board.pngs
        (refused,) = private(answers)
        assert refused.content.startswith("The bot is restarting and cannot take this now.")
        assert h.bot.is_closed()

    offline(scenario, health_port=0)


@pytest.mark.both_backends
def test_sigterm_cutting_a_move_and_a_job_short_loses_nothing_and_frees_the_claim(
    offline: Any, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posts that do not come within the bound: the stop ends anyway; the move stays saved
    and its board is posted at the next start, and the cut job's claim is free at once for
    any process to take (no lease to wait out)."""
    monkeypatch.setattr(bot.app, "STOP_GRACE", 0.2)

    async def scenario(h: OfflineDiscord) -> None:
        first, (alice, _) = await start_match(h)
        second = await challenge_accepted(h, "carol", "dave")
        for player, move in (("carol", "a1e3"), ("dave", "h8h4")):  # her timeout: a loss
            await h.command(h.user(player), "move", move=move, match=str(second))
        clock = clock_of(h)
        await h.advance(3 * DAY - 60)  # the reminders; both matches' deadlines a minute away
        held = Held(h)
        h.dispatch(h.command_payload(alice, "move", move="a1e3", match=str(first)), alice)
        await held.until(1)
        clock.advance(60)
        running = asyncio.create_task(h.bot.scheduler.run_due())  # second's timeout is due
        await held.until(2)  # ... claimed and under way
        await (await sigterm(h))
        assert running.done()
        other = await open_store(database)
        try:
            # Due too: the first match's jobs of the turn before the move, as the move's
            # board (which starts the next turn's clock) was never posted.
            claimed = []
            while job := await other.claim_job("another process", int(clock.now())):
                claimed.append((job.kind, job.match_id, job.ply))
            assert (JobKind.TIMEOUT, second, 2) in claimed
            # both saved, neither shown: the move, and carol's loss on time
            assert await other.unposted_boards() == [first, second]
            assert [m.notation for m in await other.moves(first)] == ["a1e3"]
        finally:
            await other.close()
        before = len(h.sent)
        await h.restart(new_bot(database, clock=ManualClock(clock.now())))
        replay, move, timeout = sorted(s.content for s in public(h.sent[before:]))
        assert "alice played **a1e3**" in move and timeout.startswith("carol ran out of time.")
        assert replay.startswith("Replay of Quorum #2")  # due once the result was posted

    offline(scenario)


async def challenge_accepted(h: OfflineDiscord, challenger: str, opponent: str) -> int:
    await h.command(h.user(challenger), "challenge", game="quorum", opponent=h.user(opponent))
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    await h.click(h.user(opponent), challenge.message_id or 0, "Accept")
    return max(await h.bot.store.match_ids())


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_close_and_the_signals_take_one_path(offline: Any, number: signal.Signals) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        stopping = await sigterm(h, number)
        assert h.bot.stop() is stopping  # begun once, whoever asks
        await h.bot.close()
        assert stopping.done() and h.bot.is_closed()

    offline(scenario)


def test_an_offline_session_stops_cleanly_on_sigterm_while_it_waits_for_a_line(
    tmp_path: Path,
) -> None:
    """`python -m bot --offline` waiting on a terminal that stays open: SIGTERM ends the
    session and closes its bot by the one stop path, and the process exits at once with 0."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    session = subprocess.Popen(
        [sys.executable, "-m", "bot", "--offline"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert session.stdin is not None and session.stdout is not None
    try:
        session.stdin.write("alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n")
        session.stdin.flush()
        for printed in session.stdout:
            if "file: data/offline/quorum-1-0.png" in printed:
                break
        session.send_signal(signal.SIGTERM)  # stdin still open: the session waits for a line
        out, err = session.communicate(timeout=30)
    finally:
        session.kill()
    assert session.returncode == 0
    assert out.endswith("Stopped by a signal; 1 file(s) saved under data/offline.\n")
    assert "Traceback" not in err
