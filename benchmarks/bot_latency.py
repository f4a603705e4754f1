"""How fast the bot answers: interaction latency through the offline harness, and raw
match-service throughput on SQLite. Prints a table; nothing here is asserted.

    python benchmarks/bot_latency.py [--moves 240]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot  # noqa: E402
from bot.harness import OfflineDiscord, Sent  # noqa: E402
from bot.service import MatchService, Player  # noqa: E402
from bot.store import open_store  # noqa: E402
from rules import PASS, get_game  # noqa: E402

GAME = "quorum"


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
            match = await h.bot.service.get(match_id)
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
            request = service.prepare_challenge(
                guild_id=1, channel_id=1, challenger=alice, game=GAME, opponents=[bob]
            )
            match = await service.challenge(request)
            await service.accept(match.id, bob.user_id)
            ids.append(match.id)
        total = sum(len(s) for s in scripts)
        began = time.perf_counter()
        for match_id, script in zip(ids, scripts, strict=True):
            for seat, text in script:
                await service.move(match_id, (alice, bob)[seat - 1].user_id, text)
        elapsed = time.perf_counter() - began
    finally:
        await store.close()
    return total, total / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=240, help="moves timed through Discord")
    parser.add_argument("--games", type=int, default=20, help="games replayed for throughput")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first, board = asyncio.run(latency(args.moves, Path(folder)))
        total, rate = asyncio.run(throughput(args.games, Path(folder)))
    print(f"Bot latency: {len(first)} /move interactions, {GAME}, offline harness, real renderer")
    print(f"{'measure':<36}{'median':>10}{'p95':>10}{'budget p95':>12}")
    for name, values, budget in (
        ("interaction -> first response", first, "20 ms"),
        ("interaction -> board posted", board, "100 ms"),
    ):
        median, p95 = statistics.median(values), percentile(values, 0.95)
        print(f"{name:<36}{median:>8.1f}ms{p95:>8.1f}ms{budget:>12}")
    print(f"{'match service + SQLite, no render':<36}{rate:>10.0f} moves/s over {total} moves")
    print(f"{'':<36}{'':>10}   budget >= 2000 moves/s")


if __name__ == "__main__":
    main()
