"""Whole multi-player games through the offline Discord, from challenge to result."""

from __future__ import annotations

import random
from typing import Any

from bot.harness import OfflineDiscord
from rules import PASS, get_game
from tests.bot.support import public, start_match


def greedy_capture(game: Any, state: Any, rng: random.Random) -> Any:
    """A move that removes the most enemy pieces (ties broken at random), so games end soon."""

    def removed(move: Any) -> int:
        highlight = game.last(game.apply(state, move))
        return len(highlight.captured) if highlight else 0

    moves = list(game.legal_moves(state))
    rng.shuffle(moves)
    return max(moves, key=removed)


def test_a_three_player_boost_game_is_played_to_its_end(offline: Any) -> None:
    boost = get_game("boost")
    rng = random.Random(5)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, "boost", 3)
        for _ in range(1500):
            match = await h.bot.service.get(match_id)
            if match.outcome is not None:
                break
            seat = boost.to_move(match.state)
            move = greedy_capture(boost, match.state, rng)
            assert move != PASS, "passes are played by the bot, never asked for"
            text = boost.format_move(match.state, move)
            sent = await h.command(users[seat - 1], "move", move=text)
            board = public(sent)[0]
            assert board.pngs, "every turn posts a board"
            after = await h.bot.service.get(match_id)
            if after.outcome is None:
                next_user = users[boost.to_move(after.state) - 1]
                assert f"<@{next_user.id}>" in board.content, "the next player is mentioned"
        match = await h.bot.service.get(match_id)
        assert match.outcome is not None and match.status == "finished"
        assert any("Game over" in s.content for s in public(h.sent)), "the result is announced"
        assert any(s.kind == "archive" for s in h.sent)
        assert await h.bot.service.check() == []

    offline(scenario)
