"""Playing through the offline Discord: /move, its errors, races, the picker, restarts."""

from __future__ import annotations

import asyncio
import random
from functools import cache
from typing import Any

import pytest

from bot.offline import OfflineDiscord
from bot.service import ServiceError
from bot.store import StaleWrite
from rules import get_game
from tests.bot.support import new_bot, private, public, start_match

PNG = b"\x89PNG\r\n\x1a\n"


@cache
def quorum_win() -> tuple[str, ...]:
    """A complete Quorum game that ends with a centre win: the shortest random playout
    among a few seeds (the rules are deterministic, so this is always the same game)."""
    game = get_game("quorum")
    best: tuple[str, ...] | None = None
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new()
        moves: list[str] = []
        while game.outcome(state) is None and len(moves) < 150:
            move = rng.choice(game.legal_moves(state))
            moves.append(game.format_move(state, move))
            state = game.apply(state, move)
        outcome = game.outcome(state)
        if outcome and outcome.reason == "quorum" and (best is None or len(moves) < len(best)):
            best = tuple(moves)
    assert best is not None
    return best


async def stored_plies(h: OfflineDiscord, match_id: int) -> int:
    return len(await h.bot.store.moves(match_id))


def test_whole_quorum_game_from_challenge_to_win(offline: Any) -> None:
    moves = quorum_win()

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h)
        (thread,) = h.threads()
        previous = h.latest(lambda s: "Move" in s.buttons).message_id
        for number, move in enumerate(moves):
            mover = users[number % 2]
            sent = await h.command(mover, "move", int(thread["id"]), move=move)
            assert sent[0].kind == "defer" and sent[0].ephemeral
            board, *replay = public(sent)
            assert len(replay) == (number == len(moves) - 1)  # the last move ends the game
            assert board.channel_id == int(thread["id"])
            assert board.pngs[0].startswith(PNG)
            assert f"played **{move}**" in board.content
            (stripped,) = [s for s in sent if s.kind == "edit"]
            assert stripped.buttons == [] and stripped.message_id == previous
            previous = board.message_id
            (note,) = private(sent)
            assert note.content.startswith(f"You played **{move}**")
        final = h.latest(lambda s: "Game over" in s.content)
        winner = users[(len(moves) - 1) % 2]
        assert f"Game over: {winner.name} wins (quorum)" in final.content
        assert final.buttons == []
        assert (  # archived with the result, and again after the replay reopened it
            [s.kind for s in h.sent].count("archive") == 2
            and h.sent[-1].kind == "archive"
            and h.channels[int(thread["id"])]["thread_metadata"]["archived"]
        )
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "finished" and match.row.outcome == {
            "winners": [1 if winner is users[0] else 2],
            "reason": "quorum",
        }
        assert await stored_plies(h, match_id) == len(moves)
        sent = await h.command(users[0], "move", int(thread["id"]), move=moves[0])
        assert "is over" in private(sent)[0].content

    offline(scenario)


def test_wrong_moves_are_answered_privately_and_change_nothing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "challenge", game="quorum", opponent=h.user("carol"))
        await h.click(h.user("carol"), h.latest().message_id or 0, "Accept")
        mallory = h.user("mallory")
        cases = [
            (bob, {"move": "h8h4"}, "it is alice's turn (white), not yours"),
            (mallory, {"move": "a1e3", "match": str(match_id)}, "you are not playing"),
            (alice, {"move": "a1e3", "match": "2"}, None),  # alice's other match: fine
            (alice, {"move": "xyzzy", "match": str(match_id)}, "not a quorum move"),
            (alice, {"move": "a1e4", "match": str(match_id)}, "legal moves from a1: a1a5"),
            (alice, {"move": "a9a1", "match": str(match_id)}, "off the board"),
            (alice, {"move": "d4d6", "match": str(match_id)}, "d4 has no stone"),
            (alice, {"move": "", "match": str(match_id)}, "type a move"),
            (bob, {"move": "h8h4", "match": "77"}, "there is no match #77"),
            (alice, {"move": "a2a6"}, "you have 2 matches in progress"),
        ]
        for who, options, reason in cases:
            before = [await stored_plies(h, m) for m in (1, 2)]
            sent = await h.command(who, "move", **options)
            if reason is None:
                assert public(sent), sent
                continue
            assert not public(sent) and not [s for s in sent if s.kind == "edit"]
            (answer,) = private(sent)
            assert reason in answer.content.lower(), answer.content
            assert [await stored_plies(h, m) for m in (1, 2)] == before

    offline(scenario)


@pytest.mark.both_backends
def test_two_moves_sent_at_once_only_one_lands(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        start = len(h.sent)
        # Both legal: which lands first is up to the database (on PostgreSQL the two reads
        # race on separate pooled connections), but only one can.
        for move in ("a1e3", "b1b5"):
            h.dispatch(h.command_payload(alice, "move", move=move), alice)
        await h.settle()
        sent = h.sent[start:]
        assert len(public(sent)) == 1
        (landed,) = [m.notation for m in await h.bot.store.moves(match_id)]
        assert sorted(s.content.split(",")[0][:17] for s in private(sent)) == [
            "It is bob's turn ",
            f"You played **{landed}",
        ]

    offline(scenario)


@pytest.mark.both_backends
def test_concurrent_writes_at_the_same_ply_land_once(offline: Any) -> None:
    """Below the per-match lock: the service and the store's ply check alone let only one
    of many simultaneous moves land."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h)
        service, store = h.bot.service, h.bot.store
        results = await asyncio.gather(
            *(service.turns.move(match_id, alice.id, "a1e3") for _ in range(8)),
            return_exceptions=True,
        )
        assert len([r for r in results if not isinstance(r, Exception)]) == 1
        assert all(isinstance(r, ServiceError) for r in results if isinstance(r, Exception))
        writes = await asyncio.gather(
            *(
                store.append_moves(
                    match_id,
                    1,
                    [(2, "h8h4")],
                    snapshot="{}",
                    status="active",
                    outcome=None,
                    draw_offer=None,
                )
                for _ in range(8)
            ),
            return_exceptions=True,
        )
        assert len([w for w in writes if isinstance(w, str)]) == 1
        assert all(isinstance(w, StaleWrite) for w in writes if not isinstance(w, str))
        assert [m.notation for m in await store.moves(match_id)] == ["a1e3", "h8h4"]

    offline(scenario)


def test_move_autocomplete_lists_legal_moves_matching_the_text(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        game = get_game("quorum")
        state = game.new()
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
        assert await h.autocomplete(alice, "move", "move", move="") == legal[:25]
        assert await h.autocomplete(alice, "move", "move", move="A1") == [
            m for m in legal if m.startswith("a1")
        ]
        assert await h.autocomplete(alice, "move", "move", move="a1-e") == ["a1e1", "a1e3"]
        assert await h.autocomplete(alice, "move", "move", move="zz") == []
        assert await h.autocomplete(h.user("mallory"), "move", "move", move="a") == []
        matches = await h.autocomplete(alice, "move", "match", move="a1e3", match="")
        assert matches == [str(match_id)]
        assert await h.autocomplete(alice, "challenge", "variant", game="quorum", variant="") == [
            "standard"
        ]

    offline(scenario)


def test_guided_picker_reaches_a_legal_move(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        board = h.latest(lambda s: "Move" in s.buttons)
        sent = await h.click(bob, board.message_id or 0, "Move")
        assert "alice's turn" in private(sent)[0].content  # not bob's turn: refused

        sent = await h.click(alice, board.message_id or 0, "Move")
        (picker,) = private(sent)
        assert picker.for_user == alice.id and "Pick where your move starts" in picker.content
        sent = await h.choose(alice, picker.message_id or 0, "a1")
        (step,) = [s for s in sent if s.kind == "edit"]
        assert "Chosen: **a1**" in step.content and "Back" in step.buttons
        sent = await h.click(alice, picker.message_id or 0, "Back")
        sent = await h.choose(alice, picker.message_id or 0, "a1")
        sent = await h.choose(alice, picker.message_id or 0, "e3")
        assert "Play a1e3" in [s for s in sent if s.kind == "edit"][0].buttons
        sent = await h.click(alice, picker.message_id or 0, "Play a1e3")
        (posted,) = public(sent)
        assert "alice played **a1e3**" in posted.content and posted.pngs
        assert (await h.bot.store.moves(match_id))[0].notation == "a1e3"
        # The old board lost its button; pressing it on a stale client is refused.
        stale = h.component_payload(bob, board.message_id or 0, f"bg:move:{match_id}")
        stale["message"] = {**stale["message"], "components": board.components}
        sent = await h.run(stale, bob, board.message_id)
        assert "Pick where your move starts" in private(sent)[0].content  # now bob's turn

    offline(scenario)


@pytest.mark.both_backends
def test_restart_keeps_buttons_and_matches_working(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        match_id, _ = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(alice, "challenge", game="quorum", opponent=carol)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        board = h.latest(lambda s: "Move" in s.buttons)

        await h.restart(new_bot(database))

        sent = await h.click(bob, board.message_id or 0, "Move")
        (picker,) = private(sent)
        await h.choose(bob, picker.message_id or 0, "h8")
        await h.choose(bob, picker.message_id or 0, "h4")
        sent = await h.click(bob, picker.message_id or 0, "Play h8h4")
        assert "bob played **h8h4**" in public(sent)[0].content
        sent = await h.click(carol, challenge.message_id or 0, "Accept")
        assert [s.kind for s in sent].count("thread") == 1
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3", "h8h4"]

    offline(scenario)


def test_illegal_move_hint_picks_the_longest_matching_square(offline: Any) -> None:
    """On a board with a rank 10, 'e10...' must hint the moves from e10, not from e1."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, game="boku")
        service = h.bot.service
        try:
            await service.turns.move(match_id, alice.id, "e10xe9")
        except ServiceError as error:
            assert error.hint == "legal moves from e10: e10"
        else:
            raise AssertionError("a removal on a non-capturing placement must be refused")
        assert await h.bot.store.moves(match_id) == []

    offline(scenario)
