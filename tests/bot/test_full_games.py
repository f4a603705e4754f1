"""Whole multi-player games through the offline Discord, from challenge to result."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.offline import OfflineDiscord, Sent
from bot.offline.records import flat
from bot.texts import say
from rules import GAMES, PASS, get_game
from tests.bot.support import private, public, start_match


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
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                break
            seat = boost.to_move(match.state)
            move = greedy_capture(boost, match.state, rng)
            assert move != PASS, "passes are played by the bot, never asked for"
            text = boost.format_move(match.state, move)
            sent = await h.command(users[seat - 1], "move", move=text)
            board = public(sent)[0]
            assert board.pngs, "every turn posts a board"
            after = await h.bot.service.cache.get(match_id)
            if after.outcome is None:
                next_user = users[boost.to_move(after.state) - 1]
                assert f"<@{next_user.id}>" in board.content, "the next player is mentioned"
        match = await h.bot.service.cache.get(match_id)
        assert match.outcome is not None and match.status == "finished"
        assert any("Game over" in s.content for s in public(h.sent)), "the result is announced"
        assert any(s.kind == "archive" for s in h.sent)
        assert await h.bot.service.audit.check() == []

    offline(scenario)


def offered(sent: Sent) -> list[str]:
    """The values the select menus of a message offer."""
    return [o["value"] for c in flat(sent.components) if c.get("type") == 3 for o in c["options"]]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_guided_picker_builds_the_longest_turn_of_each_game(offline: Any, name: str) -> None:
    """Token by token through the select menus, for the legal move with the most tokens
    (a pass chain, a capture with its removal, a multi-step Kyo turn)."""
    game = get_game(name)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, name, min(game.player_counts))
        match = await h.bot.service.cache.get(match_id)
        state = match.state

        def tokens(move: Any) -> int:
            return len(game.move_tokens(state, move))

        for _ in range(6):  # a few opening turns, so captures and chains become possible
            moves = game.legal_moves(state)
            if max(map(tokens, moves)) > 2:
                break
            mover = users[game.to_move(state) - 1]
            await h.command(mover, "move", move=game.format_move(state, moves[len(moves) // 2]))
            state = (await h.bot.service.cache.get(match_id)).state
        longest = max(game.legal_moves(state), key=tokens)
        mover = users[game.to_move(state) - 1]
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(mover, board.message_id or 0, "Move"))
        for token in game.move_tokens(state, longest):
            shown = h.latest(lambda s: s.message_id == picker.message_id)
            if token not in offered(shown):  # squares too many for one menu: the letter first
                await h.choose(mover, picker.message_id or 0, token[0])
            edits = [s for s in await h.choose(mover, picker.message_id or 0, token)]
            assert edits, f"choosing {token} changed nothing"
        notation = game.format_move(state, longest)
        play = [b for b in h.latest(lambda s: s.message_id == picker.message_id).buttons]
        assert any(notation in label for label in play), play
        label = next(label for label in play if notation in label)
        (posted,) = public(await h.click(mover, picker.message_id or 0, label))
        assert notation in posted.content and posted.pngs
        assert (await h.bot.store.moves(match_id))[-1].notation == notation

    offline(scenario)


def test_the_kyo_picker_says_each_choice_in_words(offline: Any) -> None:
    """Kyo's tokens (`:2`, `=LD`, `>a9`) are offered with what they do, notation beneath."""
    kyo = get_game("kyo")

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, "kyo", 2)
        state = (await h.bot.service.cache.get(match_id)).state
        longest = max(kyo.legal_moves(state), key=lambda m: len(kyo.move_tokens(state, m)))
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(users[0], board.message_id or 0, "Move"))
        path: list[str] = []
        worded = 0
        for token in kyo.move_tokens(state, longest):
            shown = h.latest(lambda s: s.message_id == picker.message_id)
            menus = [c for row in shown.components for c in row["components"] if c["type"] == 3]
            options = {o["value"]: o for menu in menus for o in menu["options"]}
            expected = say(kyo.token_label(state, path, token))
            assert options[token]["label"] == expected
            if expected != token:
                assert options[token]["description"] == token
                worded += 1
            await h.choose(users[0], picker.message_id or 0, token)
            path.append(token)
        assert worded == len(path), "every choice of the turn is said in words"

    offline(scenario)
