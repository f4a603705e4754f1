"""No process outlives a killed bot (issue 38): `kill -9` of `python -m bot --offline` while
the computer searches its reply leaves no worker (nor anything else it started) running 10 s
later."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bot.test_workers import gone, wait_until

needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
SCRIPT = "alice: /challenge game:quorum opponent:@bot level:3\nalice: /move move:a1e3\n"
HANG_GUARD = 60  # seconds; only stops a broken test from hanging, never measured


def children(pid: int) -> set[int]:
    """The processes `pid` started and that still run, as /proc lists them."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found |= {int(child) for child in task.read_text().split()}
        except OSError:  # the thread ended meanwhile
            continue
    return found


@needs_proc
def test_no_process_outlives_a_killed_bot(tmp_path: Path) -> None:
    environment = {**os.environ, "DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
    environment.pop("DATABASE_URL", None)
    environment.pop("AI_NODES", None)
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "--offline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
    )
    started: set[int] = set()
    try:
        assert bot.stdin is not None
        bot.stdin.write(SCRIPT)
        bot.stdin.flush()
        end = time.monotonic() + HANG_GUARD
        while not started and time.monotonic() < end:  # the search worker, once it starts
            started = children(bot.pid)
            time.sleep(0.05)
        assert started, "the computer's search started no worker"
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait()
        assert wait_until(lambda: all(gone(pid) for pid in started), 10.0), "a child outlived it"
    finally:
        bot.kill()
        bot.wait()
        if bot.stdin is not None:
            bot.stdin.close()
        for pid in started:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
