"""The bot starting with a backlog: 1,000 matches whose deadlines passed while it was down.

    python -m benchmarks.catch_up [--backend sqlite|postgresql] [--matches 1000] [--url URL]

The matches (Quorum, the first player to move, a one-day limit that ran out an hour ago) are
written straight into a fresh database through the store's bulk copy, then the real bot
starts on the offline Discord, with the real clock. Printed: the time from the store being
open to the bot being ready (`setup_hook` returned: from then on it serves), the time until
every timeout was handled and posted, and the event loop's worst lag meanwhile, measured by
a task that asks to wake every 5 ms. Wall and CPU (this process's) time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from benchmarks.big_db import COLUMNS, database_options, empty_database
from bot import Settings, create_bot
from bot.clock import DAY, SystemClock
from bot.offline import OfflineDiscord
from bot.store import Store, open_store
from rules import get_game

TICK = 0.005


class LagMeter:
    """The worst delay of a 5 ms sleep beyond 5 ms: how long the event loop was busy."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(TICK)
            self.worst = max(self.worst, time.perf_counter() - began - TICK)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


async def fill(store: Store, guild_id: int, channel_id: int, matches: int, now: int) -> None:
    """Running matches, each with its board posted and its timeout an hour overdue."""
    game = get_game("quorum")
    snapshot = json.dumps(game.dump(game.new()))
    stamp = "2026-11-20T12:00:00.000+00:00"
    rows: dict[str, list[tuple[Any, ...]]] = {"matches": [], "seats": [], "jobs": []}
    for match_id in range(1, matches + 1):
        rows["matches"].append(
            (match_id, guild_id, channel_id, None, None, None, "quorum", "standard", match_id)
            + ("active", 0, snapshot, None, None, stamp, stamp, 1, None, 0, 1)
        )
        for seat in (1, 2):
            user = 100 + 2 * match_id + seat
            rows["seats"].append((match_id, seat, user, f"player{user}", 1, None))
        due = now - 3600
        rows["jobs"] += [
            (3 * match_id, match_id, "reminder", 0, due - DAY // 4, None, None, None),
            (3 * match_id + 1, match_id, "last-reminder", 0, due - 3600, None, None, None),
            (3 * match_id + 2, match_id, "timeout", 0, due, None, None, None),
        ]
    for table, values in rows.items():
        await store.import_rows(table, COLUMNS[table].split(", "), values)


async def run(url: str, matches: int) -> None:
    bot = create_bot(Settings(token="offline", database_url=url), clock=SystemClock())
    h = OfflineDiscord(bot)
    store = await open_store(url)
    await fill(store, h.guild_id, h.channel_id, matches, int(time.time()))
    await store.close()

    lag = LagMeter()
    lag.start()
    wall, cpu = time.perf_counter(), time.process_time()
    await h.start()  # the store opens, setup_hook runs, the bot is ready
    ready = time.perf_counter() - wall, time.process_time() - cpu
    while (ended := sum("ran out of time" in sent.content for sent in h.sent)) < matches:
        await asyncio.sleep(0.05)
    done = time.perf_counter() - wall, time.process_time() - cpu
    lag.stop()
    await h.close()

    print(f"{matches:,} overdue timeouts at start, {ended:,} posted")
    print(f"{'':28} {'wall s':>8} {'CPU s':>8}")
    print(f"{'ready (setup_hook returned)':28} {ready[0]:8.3f} {ready[1]:8.3f}")
    print(f"{'all handled':28} {done[0]:8.1f} {done[1]:8.1f}")
    print(f"event loop's worst lag: {lag.worst * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catch_up", description=__doc__)
    parser.add_argument("--matches", type=int, default=1000)
    database_options(parser)
    args = parser.parse_args()
    with empty_database(args) as url:
        asyncio.run(run(url, args.matches))


if __name__ == "__main__":
    main()
