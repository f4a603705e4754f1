"""Nothing a member types can crash, freeze or silence the bot (issue 12): long input is
quoted short, slow rules work never holds up others, pickers outlive restarts, names cannot
ping, and a turn whose board was never posted is posted on start-up."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, create_bot
from bot.offline import INTERACTION_TASKS, OfflineDiscord
from renderers import render_png
from rules import get_game
from tests.bot.support import log_in_beside, new_bot, private, public, resign, start_match

HANG_GUARD = 30  # seconds; only stops a broken test from hanging, never measured

LONG = "x" * 3000


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("move", {"move": LONG}),
        ("move", {"move": "a1e3", "match": LONG}),
        ("challenge", {"game": "quorum", "variant": LONG}),
        ("rules", {"game": "quorum", "topic": LONG}),
    ],
)
def test_a_long_input_is_quoted_back_short(
    offline: Any, command: str, options: dict[str, Any]
) -> None:
    async def scenario(h: OfflineDiscord) -> str:
        _, (alice, bob) = await start_match(h)
        if command == "challenge":
            options["opponent"] = bob
        (reply,) = private(await h.command(alice, command, **options))
        return reply.content

    reply = offline(scenario)
    assert "x" * 101 not in reply and "x…" in reply, reply


def test_a_name_written_as_a_mention_pings_nobody_and_is_shown_as_typed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        bystander = h.user("bystander")
        sneaky = h.user(f"<@{bystander.id}> **boss**")
        alice = h.user("alice")
        await h.command(sneaky, "challenge", game="quorum", opponent=alice)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        await h.click(alice, challenge.message_id or 0, "Accept")
        await h.command(sneaky, "move", move="a1e3")
        await resign(h, alice)
        for sent in public(h.sent):
            assert f"<@{bystander.id}>" not in sent.content, sent.content
        assert any("\\*\\*boss\\*\\*" in s.content for s in public(h.sent))
        allowed = [b["allowed_mentions"] for _, _, b in h.requests if b and "allowed_mentions" in b]
        assert allowed, "every post says whom it may ping"
        for mentions in allowed:
            assert not mentions.get("parse"), mentions
            assert set(map(int, mentions.get("users", []))) <= {sneaky.id, alice.id}, mentions

    offline(scenario)


def test_a_slow_position_keeps_others_served_and_gets_a_clear_answer(
    offline: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one match's move listing runs for seconds, another member's /matches is answered
    at once, and the slow command is told the position is too complex."""
    quorum = type(get_game("quorum"))
    fast = quorum.legal_moves
    started, release = threading.Event(), threading.Event()

    def slow(self: Any, state: Any) -> Any:
        started.set()
        deadline = time.monotonic() + 30
        while not release.is_set() and time.monotonic() < deadline:
            sum(range(2000))  # CPU work, holding the GIL as rules code does
        return fast(self, state)

    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        h.bot.service.offload.scale = 0.1  # a 10 s budget becomes 1 s
        board = h.latest(lambda s: "Move" in s.buttons)
        monkeypatch.setattr(quorum, "legal_moves", slow)
        try:
            start = len(h.sent)
            h.dispatch(h.command_payload(alice, "move", move="a1e3"), alice)
            while not started.is_set():
                await h_sleep()
            asked = time.perf_counter()
            h.dispatch(h.command_payload(bob, "matches"), bob)
            while not [s for s in private(h.sent[start:]) if s.for_user == bob.id]:
                await h_sleep()
            (listing,) = private(h.sent[start:])
            assert listing.for_user == bob.id and "Quorum" in listing.content
            assert listing.at - asked < 0.1, "another member waited on the slow match"
            await h.settle()
            (_, answer) = private(h.sent[start:])
            assert answer.for_user == alice.id and "took too long" in answer.content
            (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
            assert "too complex for the picker" in picker.content
            assert "type the move" in picker.content
        finally:
            release.set()
            monkeypatch.setattr(quorum, "legal_moves", fast)

    offline(scenario)


async def h_sleep() -> None:
    """Let the worker thread run a moment (the event loop stays free meanwhile)."""
    await asyncio.sleep(0.005)


def test_the_picker_works_across_restarts_and_renews_itself_when_out_of_date(
    offline: Any, database: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
        await h.choose(alice, picker.message_id or 0, "a1")
        await h.restart(new_bot(database))
        await h.choose(alice, picker.message_id or 0, "e3")
        await h.restart(new_bot(database))
        (posted,) = public(await h.click(alice, picker.message_id or 0, "Play a1e3"))
        assert "alice played **a1e3**" in posted.content
        # A picker opened before the last turn: it says so and offers a fresh one.
        (old,) = private(await h.click(bob, posted.message_id or 0, "Move"))
        await h.command(bob, "move", move="h8h4")
        await h.command(alice, "move", move="a2c4")
        edits = [s for s in await h.choose(bob, old.message_id or 0, "h8") if s.kind == "edit"]
        assert "out of date" in edits[-1].content and "fresh one" in edits[-1].content
        assert "Pick where your move starts" in edits[-1].content

    offline(scenario)


@pytest.mark.both_backends
def test_a_turn_saved_but_never_posted_is_posted_on_start_up(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        # The process dies between the turn's write and its board post:
        await h.bot.service.turns.move(match_id, alice.id, "a1e3")
        before = len(h.sent)
        await h.restart(new_bot(database))
        (posted,) = public(h.sent[before:])
        assert "alice played **a1e3**" in posted.content
        assert f"<@{bob.id}>, your move" in posted.content and posted.pngs
        assert await h.bot.store.unposted_boards() == []
        await h.restart(new_bot(database))
        assert public(h.sent[before:]) == [posted], "posted once, not at every start"

    offline(scenario)


def test_the_bot_serves_while_a_missing_board_is_still_being_drawn(
    offline: Any, database: str
) -> None:
    """Start-up returns before the boards left unposted are drawn (their BOARD jobs draw
    them): a command is answered meanwhile, and the board follows."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.bot.service.turns.move(match_id, alice.id, "a1e3")
        await h.settle()
        await h.bot.close()
        drawing = threading.Event()

        def slow_render(game_name: str, state: Any, **options: Any) -> bytes:
            drawing.wait(HANG_GUARD)
            return render_png(game_name, state, **options)

        clock = h.bot.clock
        settings = Settings(token="offline", database_url=database)
        restarted = create_bot(settings, render=slow_render, clock=clock)
        await log_in_beside(h, restarted)  # setup_hook has returned
        h.bot = restarted
        before = len(h.sent)
        h.dispatch(h.command_payload(bob, "help"), bob)
        await h.settle(INTERACTION_TASKS)  # the scheduler's run goes on drawing
        (answer,) = private(h.sent[before:])
        assert public(h.sent[before:]) == [] and "Board games" in answer.content
        drawing.set()
        await asyncio.wait_for(h.advance(0), HANG_GUARD)
        (posted,) = public(h.sent[before:])
        assert "alice played **a1e3**" in posted.content

    offline(scenario)


SCRIPT = """\
alice: /challenge game:quorum opponent:@bob
bob: click Accept
""" + "".join(
    f"alice: /move move:{a}\nbob: /move move:{b}\n"
    for a, b in [("a1e3", "h8h4"), ("a2e4", "h7h3")] * 40
)


def test_killed_mid_play_the_database_checks_clean(tmp_path: Path) -> None:
    """`kill -9` while `python -m bot --offline` plays; `--check-db` finds nothing wrong."""
    environment = {**os.environ, "DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
    environment.pop("DATABASE_URL", None)
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "--offline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
    )
    assert bot.stdin is not None and bot.stdout is not None
    bot.stdin.write(SCRIPT)
    bot.stdin.flush()
    for line in bot.stdout:
        if "alice played" in line:  # at least one turn is in; more are on their way
            break
    os.kill(bot.pid, signal.SIGKILL)
    bot.wait()
    database = tmp_path / "offline" / "offline.sqlite3"
    check = subprocess.run(
        [sys.executable, "-m", "bot", "--check-db"],
        env={**environment, "DATABASE_PATH": str(database)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "1 match checked, 0 with problems." in check.stdout


# Who may do what: (actor, action) -> whether it is allowed. "challenger" moves first.
PENDING = {
    ("challenger", "Accept"): False,
    ("challenger", "Decline"): False,
    ("challenger", "Withdraw"): True,
    ("opponent", "Accept"): True,
    ("opponent", "Decline"): True,
    ("opponent", "Withdraw"): False,
    ("outsider", "Accept"): False,
    ("outsider", "Decline"): False,
    ("outsider", "Withdraw"): False,
}
ACTIVE = {
    ("challenger", "move"): True,
    ("challenger", "resign"): True,
    ("challenger", "draw"): True,
    ("opponent", "move"): False,
    ("opponent", "resign"): True,
    ("opponent", "draw"): True,
    ("outsider", "move"): False,
    ("outsider", "resign"): False,
    ("outsider", "draw"): False,
}


@pytest.mark.parametrize(("actor", "action"), [*PENDING, *ACTIVE])
def test_actor_matrix(offline: Any, actor: str, action: str) -> None:
    """Every action by every kind of member: allowed ones change the match, the others are
    refused privately and change nothing."""

    async def scenario(h: OfflineDiscord) -> None:
        people = {"challenger": h.user("alice"), "opponent": h.user("bob")}
        people["outsider"] = h.user("eve")
        who = people[actor]
        if (actor, action) in PENDING:
            await h.command(
                people["challenger"], "challenge", game="quorum", opponent=h.user("bob")
            )
            challenge = h.latest(lambda s: "Accept" in s.buttons)
            match_id = max(await h.bot.store.match_ids())
            sent = await h.click(who, challenge.message_id or 0, action)
            allowed = PENDING[actor, action]
        else:
            match_id, _ = await start_match(h)
            thread = (await h.bot.service.cache.get(match_id)).channel_id
            options = {"move": "a1e3"} if action == "move" else {}
            allowed = ACTIVE[actor, action]
            if action == "resign" and allowed:
                sent = await resign(h, who, thread)
            else:
                sent = await h.command(who, action, thread, **options)
        row = await h.bot.store.get_match(match_id)
        assert row is not None
        status = "pending" if (actor, action) in PENDING else "active"
        untouched = (row.status == status, row.ply, row.draw_offer)
        if allowed:
            assert untouched != (True, 0, None), f"{actor} {action} changed nothing"
        else:
            assert [s for s in private(sent) if s.for_user == who.id], "refused, and told so"
            assert untouched == (True, 0, None), f"{actor} {action} changed the match"

    offline(scenario)


RACERS = 50


@pytest.mark.both_backends
def test_fifty_moves_at_once_land_exactly_one(offline: Any) -> None:
    """The player to move sends 50 /moves at once, every legal opening and some twice: one
    lands (its board is its only answer), the log and the snapshot agree, and every other
    one is refused in private."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        match = await h.bot.service.cache.get(match_id)
        game, setup = match.game, match.state
        legal = [game.format_move(setup, move) for move in game.legal_moves(setup)]
        sent_moves = [legal[n % len(legal)] for n in range(RACERS)]
        assert len(set(sent_moves)) == len(legal) < RACERS, "all different, some twice"
        start = len(h.sent)
        for text in sent_moves:
            h.dispatch(h.command_payload(alice, "move", move=text), alice)
        await h.settle()
        (landed,) = await h.bot.store.moves(match_id)
        (posted,) = public(h.sent[start:])
        assert f"alice played **{landed.notation}**" in posted.content
        replies = [s for s in private(h.sent[start:]) if s.for_user == alice.id]
        refusals = [r for r in replies if "It is bob's turn (Black), not yours." in r.content]
        assert len(refusals) == len(replies) == RACERS - 1, [r.content for r in replies]
        deleted = [s for s in h.sent[start:] if s.kind == "delete"]
        assert len(deleted) == 1, "the move that landed has no private note: the board says it"
        after = await h.bot.service.cache.get(match_id)
        assert after.row.ply == 1 and after.to_move is not None
        assert after.to_move.user_id == bob.id
        expected = game.apply(setup, game.parse_move(setup, landed.notation))
        assert game.dump(after.state) == game.dump(expected)
        assert await h.bot.service.audit.check() == []

    offline(scenario)
