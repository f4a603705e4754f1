"""Soak: many matches of random play through the offline harness for a bounded time,
reporting errors (anything the bot logged as an error, any request Discord would refuse)
and the process's memory as it goes. Nothing is asserted; the report is the result.

    python -m benchmarks.soak [--seconds 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import random
import tempfile
import time
from pathlib import Path

from bot import Settings, create_bot
from bot.offline import OfflineDiscord, OfflineError
from rules import GAMES, PASS, get_game

PLY_BOUND = 60  # then the player to move resigns, so each match ends
REPORTS = 6


class Errors(logging.Handler):
    """Counts (and keeps the first few of) the errors the bot logs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(f"{record.name}: {record.getMessage()}")


def resident_mib() -> float:
    """The process's resident memory now (Linux), in MiB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


async def play_one(h: OfflineDiscord, rng: random.Random, number: int) -> int:
    """Challenge, accept and play random legal moves by /move; returns the turns played."""
    name = rng.choice(list(GAMES))
    game = get_game(name)
    players = min(game.player_counts)
    users = [h.user(f"p{number}-{seat}") for seat in range(players)]
    opponents = dict(zip(("opponent", "opponent2", "opponent3"), users[1:], strict=False))
    await h.command(users[0], "challenge", game=name, **opponents)
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    for user in users[1:]:
        await h.click(user, challenge.message_id or 0, "Accept")
    match_id = max(await h.bot.store.match_ids())
    thread = (await h.bot.service.cache.get(match_id)).channel_id
    turns = 0
    while True:
        match = await h.bot.service.cache.get(match_id)
        mover = match.to_move
        if mover is None:
            return turns
        user = users[mover.seat - 1]
        if match.row.ply >= PLY_BOUND:
            await h.command(user, "resign", thread)
            return turns
        moves = [m for m in match.game.legal_moves(match.state) if m != PASS]
        text = match.game.format_move(match.state, rng.choice(moves))
        await h.command(user, "move", thread, move=text)
        turns += 1


def forget_discord_side(h: OfflineDiscord) -> None:
    """Drop what the fake Discord keeps of finished matches: Discord's memory is not the
    bot's, and the soak measures the bot's."""
    for kept in (h.sent, h.requests, h.messages, h.autocompleted, h.interactions):
        kept.clear()


async def soak(seconds: float, seed: int) -> None:
    errors = Errors()
    logging.getLogger().addHandler(errors)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'soak.sqlite3'}"
        bot = create_bot(Settings(token="offline", database_url=database))
        async with OfflineDiscord(bot) as h:
            start, matches, turns, refused = time.monotonic(), 0, 0, 0
            first_mib = resident_mib()
            print(f"{'seconds':>8} {'matches':>8} {'turns':>7} {'errors':>7} {'RSS MiB':>8}")
            next_report = 0.0
            while (elapsed := time.monotonic() - start) < seconds:
                if elapsed >= next_report:
                    gc.collect()
                    print(
                        f"{elapsed:8.0f} {matches:8d} {turns:7d} "
                        f"{len(errors.seen) + refused:7d} {resident_mib():8.1f}"
                    )
                    next_report += seconds / REPORTS
                try:
                    turns += await play_one(h, rng, matches)
                except OfflineError as error:  # a request Discord would refuse
                    refused += 1
                    errors.seen.append(f"refused: {error}")
                matches += 1
                forget_discord_side(h)
            gc.collect()
            growth = resident_mib() - first_mib
    print(f"{seconds:8.0f} {matches:8d} {turns:7d} {len(errors.seen):7d} {resident_mib():8.1f}")
    print(f"{matches} matches, {turns} turns, {len(errors.seen)} errors, RSS grew {growth:.1f} MiB")
    for problem in errors.seen[:10]:
        print("  ", problem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(soak(arguments.seconds, arguments.seed))


if __name__ == "__main__":
    main()
