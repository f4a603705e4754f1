"""The bot's worker pool after a crash, seen by players: a replay worker killed while it
makes a finished match's GIF takes no later replay down with it."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from bot.offline import OfflineDiscord
from bot.workers.pool import Kind
from tests.bot.spec import check_request
from tests.bot.support import new_bot, public, resign, start_match

HANG_GUARD = 30  # seconds; only stops a broken test from hanging, never measured


def test_a_replay_worker_killed_mid_replay_leaves_the_next_replay_working(
    tmp_path: Path,
) -> None:
    """The replay worker is stopped, takes the first match's replay, and is killed before it
    answers: that replay is not posted. A fresh worker makes the second match's, and its GIF
    is posted."""

    async def main() -> None:
        bot = new_bot(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
        async with OfflineDiscord(bot, check_request=check_request) as h:
            pool = h.bot.workers
            pid = await pool.submit(Kind.REPLAY, None, 60, os.getpid)
            submit = pool.submit
            replaying = asyncio.Event()

            async def submitting(
                kind: Kind,
                owner: Any,
                seconds: float,
                function: Any,
                *args: Any,
                **kwargs: Any,
            ) -> Any:
                # The job is sent before the replay waits for the first time, and only then
                # can the test, woken by the event, act: the kill lands mid-replay.
                replaying.set()
                return await submit(kind, owner, seconds, function, *args, **kwargs)

            pool.submit = submitting  # type: ignore[assignment]
            os.kill(pid, signal.SIGSTOP)  # it never answers: the kill cannot come too late
            _, (alice, bob) = await start_match(h)
            await h.command(alice, "move", move="a1e3")  # a game without turns has no replay
            resigning = asyncio.create_task(resign(h, bob))
            await asyncio.wait_for(replaying.wait(), HANG_GUARD)
            os.kill(pid, signal.SIGKILL)
            first = public(await asyncio.wait_for(resigning, HANG_GUARD))
            assert any("bob resigned" in sent.content for sent in first)
            assert not any(sent.content.startswith("Replay of") for sent in first)
            pool.submit = submit  # type: ignore[method-assign]

            second_id, (alice, bob) = await start_match(h)
            await h.command(alice, "move", move="a1e3", match=str(second_id))
            second = public(await resign(h, bob))
            (replay,) = [sent for sent in second if sent.content.startswith("Replay of")]
            assert f"#{second_id}" in replay.content, replay.content
            ((name, gif),) = replay.files
            assert name.endswith(".gif") and gif.startswith(b"GIF89a")
            assert await pool.submit(Kind.REPLAY, None, 60, os.getpid) != pid

    asyncio.run(main())
