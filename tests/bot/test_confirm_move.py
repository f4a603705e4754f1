"""Confirm-move and the repetition warning through the offline Discord."""

from __future__ import annotations

from typing import Any

from bot.offline import OfflineDiscord
from rules import get_game
from tests.bot.support import private, public, start_match

CYCLE = ("a1a5", "f8d8", "a5a1", "d8f8")  # Quorum: back to the start in four moves


def test_a_typed_move_is_shown_first_and_played_only_by_play(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        (answer,) = private(await h.command(alice, "settings", confirm="on"))
        assert "Typed moves: shown to you first, with Play and Cancel." in answer.content
        match_id, (alice, bob) = await start_match(h)

        sent = await h.command(alice, "move", move="A1-E3")
        (shown,) = private(sent)
        assert public(sent) == []  # nothing played, nothing posted
        assert "Play **a1e3** in" in shown.content and "nothing is played yet" in shown.content
        assert shown.buttons == ["Play a1e3", "Cancel"] and len(shown.pngs) == 1
        assert await h.bot.store.moves(match_id) == []

        cancelled = await h.click(alice, shown.message_id or 0, "Cancel")
        assert "Cancelled: nothing changed." in cancelled[-1].content
        assert await h.bot.store.moves(match_id) == []

        (shown,) = private(await h.command(alice, "move", move="a1e3"))
        (board,) = public(await h.click(alice, shown.message_id or 0, "Play a1e3"))
        assert "alice played **a1e3**" in board.content
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3"]

        refused = private(await h.command(alice, "move", move="h8h4"))
        assert "bob" in refused[0].content and refused[0].buttons == []  # not her turn
        (played,) = public(await h.command(bob, "move", move="h8h4"))  # bob did not ask
        assert "bob played **h8h4**" in played.content

    offline(scenario)


def test_a_play_button_of_a_position_gone_plays_nothing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        await h.command(alice, "settings", confirm="on")
        match_id, _ = await start_match(h)
        (first,) = private(await h.command(alice, "move", move="a1e3"))
        (second,) = private(await h.command(alice, "move", move="a1a5"))
        await h.click(alice, second.message_id or 0, "Play a1a5")
        await h.command(bob, "move", move="h8h4")
        sent = await h.click(alice, first.message_id or 0, "Play a1e3")
        assert public(sent) == []
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1a5", "h8h4"]

    offline(scenario)


def test_the_board_warns_one_repetition_before_the_draw(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        boards = []
        for n, move in enumerate(CYCLE):
            boards += public(await h.command((alice, bob)[n % 2], "move", move=move))
        warning = "This position has occurred 2 times: if it occurs once more, the game is drawn"
        assert [warning in b.content for b in boards] == [False, False, False, True]
        (board,) = private(await h.command(alice, "board"))
        assert warning in board.content
        for n, move in enumerate(CYCLE):
            last = public(await h.command((alice, bob)[n % 2], "move", move=move))[0]
        assert "repetition" in last.content and warning not in last.content

    offline(scenario)


def test_repetitions_count_as_the_draw_rule_counts() -> None:
    game = get_game("quorum")
    state = game.new()
    assert game.repetitions(state) == 1 and game.repetition_draw == 3
    for _ in range(2):
        for move in CYCLE:
            state = game.apply(state, game.parse_move(state, move))
    assert game.repetitions(state) == 3
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == "repetition"
    assert get_game("boost").repetition_draw is None
    assert get_game("boost").repetitions(get_game("boost").new()) == 0
