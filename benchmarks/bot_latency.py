"""How fast the bot answers: interaction latency through the offline harness, the same
while the computer searches its moves in the worker pool (with the event loop's worst stall),
and raw match-service throughput on SQLite. Prints a table; nothing here is asserted.

    python -m benchmarks.bot_latency [--moves 240] [--searches 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot  # noqa: E402
from bot.jobs.computer import TASK_PREFIX  # noqa: E402
from bot.offline import INTERACTION_TASKS, OfflineDiscord, Sent  # noqa: E402
from bot.service import MatchService, Player  # noqa: E402
from bot.store import open_store  # noqa: E402
from rules import PASS, get_game  # noqa: E402

GAME = "quorum"
BOT_GAME, BOT_LEVEL = "boost", 3  # alpha-beta for its full 2 s a move
TICK = 0.005  # the stall watcher's sleep


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def start(h: OfflineDiscord, a: str, b: str) -> int:
    await h.command(h.user(a), "challenge", game=GAME, opponent=h.user(b))
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    await h.click(h.user(b), challenge.message_id or 0, "Accept")
    return max(await h.bot.store.match_ids())


async def latency(moves: int, folder: Path) -> tuple[list[float], list[float]]:
    """Per /move: dispatch -> defer callback, and dispatch -> board message with its PNG."""
    rng = random.Random(1)
    first: list[float] = []
    board: list[float] = []
    bot = create_bot(Settings(token="offline", database_path=folder / "latency.sqlite3"))
    async with OfflineDiscord(bot) as h:
        match_id = await start(h, "alice", "bob")
        while len(first) < moves:
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                match_id = await start(h, "alice", "bob")
                continue
            game, state = match.game, match.state
            text = game.format_move(state, rng.choice(game.legal_moves(state)))
            user = h.user(match.at(game.to_move(state)).name)
            payload = h.command_payload(user, "move", match.channel_id, move=text)
            begin = len(h.sent)
            sent_at = time.perf_counter()
            h.dispatch(payload, user)
            await h.settle()
            replies: list[Sent] = h.sent[begin:]
            defer = next(s for s in replies if s.kind == "defer")
            posted = next(s for s in replies if s.kind == "message" and s.pngs)
            first.append((defer.at - sent_at) * 1000)
            board.append((posted.at - sent_at) * 1000)
    return first, board


def thinking() -> bool:
    """Whether the computer is at work on a turn (searching, or saving and posting it)."""
    return any(t.get_name().startswith(TASK_PREFIX) for t in asyncio.all_tasks() if not t.done())


@dataclass
class DuringSearch:
    """What other players saw while the computer searched, and the loop's stalls: with the
    search alone (what the search itself costs the loop) and with players' traffic."""

    first: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    quiet_stalls: list[float] = field(default_factory=list)
    busy_stalls: list[float] = field(default_factory=list)
    recording: list[float] | None = None  # where the watcher records now


async def watch_loop(seen: DuringSearch, stop: asyncio.Event) -> None:
    """How late each short sleep wakes while the computer thinks: the loop's stalls."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        if thinking() and seen.recording is not None:
            seen.recording.append((time.perf_counter() - before - TICK) * 1000)


async def timed_move(h: OfflineDiscord, match_id: int, rng: random.Random) -> tuple[float, float]:
    """One random /move by whoever is to move: dispatch -> defer, dispatch -> board (ms)."""
    match = await h.bot.service.cache.get(match_id)
    game, state = match.game, match.state
    text = game.format_move(state, rng.choice(game.legal_moves(state)))
    user = h.user(match.at(game.to_move(state)).name)
    payload = h.command_payload(user, "move", match.channel_id, move=text)
    begin = len(h.sent)
    sent_at = time.perf_counter()
    h.dispatch(payload, user)
    await h.settle(INTERACTION_TASKS)  # the computer may go on thinking
    replies: list[Sent] = h.sent[begin:]
    defer = next(s for s in replies if s.kind == "defer")
    posted = next(s for s in replies if s.kind == "message" and s.pngs)
    return (defer.at - sent_at) * 1000, (posted.at - sent_at) * 1000


async def latency_during_search(searches: int, folder: Path) -> DuringSearch:
    """alice plays the computer; every other search it thinks alone, otherwise carol and
    dave keep playing each other meanwhile, their /move latency timed."""
    rng = random.Random(3)
    seen = DuringSearch()
    bot = create_bot(Settings(token="offline", database_path=folder / "search.sqlite3"))
    async with OfflineDiscord(bot) as h:
        people = await start(h, "carol", "dave")
        alice = h.user("alice")
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch_loop(seen, stop))
        against_bot = 0
        for number in range(searches):
            if against_bot == 0 or (await h.bot.service.cache.get(against_bot)).outcome is not None:
                await h.command(
                    alice, "challenge", game=BOT_GAME, opponent=h.bot_user, level=BOT_LEVEL
                )
                against_bot = max(await h.bot.store.match_ids())
            seen.recording = None
            await timed_move(h, against_bot, rng)  # alice moves: the computer starts thinking
            if number % 2 == 0:
                seen.recording = seen.quiet_stalls
                await h.settle()
                continue
            seen.recording = seen.busy_stalls
            while thinking():
                if (await h.bot.service.cache.get(people)).outcome is not None:
                    people = await start(h, "carol", "dave")
                defer, posted = await timed_move(h, people, rng)
                seen.first.append(defer)
                seen.board.append(posted)
                await asyncio.sleep(0.02)
        stop.set()
        await watcher
    return seen


async def throughput(games: int, folder: Path) -> tuple[int, float]:
    """Moves per second through MatchService.move on SQLite, without Discord or rendering."""
    game = get_game(GAME)
    rng = random.Random(2)
    scripts: list[list[tuple[int, str]]] = []  # (seat, move); passes are the service's job
    for _ in range(games):
        state, script = game.new(), []
        while game.outcome(state) is None:
            move = rng.choice(game.legal_moves(state))
            if move != PASS:
                script.append((game.to_move(state), game.format_move(state, move)))
            state = game.apply(state, move)
        scripts.append(script)
    store = await open_store(folder / "throughput.sqlite3")
    try:
        service = MatchService(store)
        alice, bob = Player(1, "alice"), Player(2, "bob")
        ids = []
        for _ in scripts:
            request = service.challenges.prepare(
                guild_id=1, channel_id=1, challenger=alice, game=GAME, opponents=[bob]
            )
            match = await service.challenges.open(request)
            await service.challenges.accept(match.id, bob.user_id)
            ids.append(match.id)
        total = sum(len(s) for s in scripts)
        began = time.perf_counter()
        for match_id, script in zip(ids, scripts, strict=True):
            for seat, text in script:
                await service.turns.move(match_id, (alice, bob)[seat - 1].user_id, text)
        elapsed = time.perf_counter() - began
    finally:
        await store.close()
    return total, total / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=240, help="moves timed through Discord")
    parser.add_argument("--games", type=int, default=20, help="games replayed for throughput")
    parser.add_argument(
        "--searches", type=int, default=5, help="computer moves to time other players during"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first, board = asyncio.run(latency(args.moves, Path(folder)))
        seen = asyncio.run(latency_during_search(args.searches, Path(folder)))
        total, rate = asyncio.run(throughput(args.games, Path(folder)))
    print(f"Bot latency: {len(first)} /move interactions, {GAME}, offline harness, real renderer")
    print(f"{'measure':<36}{'median':>10}{'p95':>10}{'budget p95':>12}")
    for name, values, budget in (
        ("interaction -> first response", first, "20 ms"),
        ("interaction -> board posted", board, "100 ms"),
    ):
        median, p95 = statistics.median(values), percentile(values, 0.95)
        print(f"{name:<36}{median:>8.1f}ms{p95:>8.1f}ms{budget:>12}")
    print(
        f"While the computer searches ({args.searches} {BOT_GAME} moves at level {BOT_LEVEL}, "
        f"AI_WORKERS=1): {len(seen.first)} /move interactions by other players"
    )
    for name, values, budget in (
        ("interaction -> first response", seen.first, "20 ms"),
        ("interaction -> board posted", seen.board, "100 ms"),
        ("loop stall, search alone", seen.quiet_stalls, ""),
        ("loop stall, search + players", seen.busy_stalls, ""),
    ):
        median, p95 = statistics.median(values), percentile(values, 0.95)
        print(f"{name:<36}{median:>8.1f}ms{p95:>8.1f}ms{budget:>12}   worst {max(values):.1f}ms")
    print(f"{'match service + SQLite, no render':<36}{rate:>10.0f} moves/s over {total} moves")
    print(f"{'':<36}{'':>10}   budget >= 2000 moves/s")


if __name__ == "__main__":
    main()
