"""What players read between turns, through the offline Discord: move posts in words, names
and colours instead of seat numbers, names kept in the case their owners chose."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import pytest

import renderers.razzle
from bot.offline import OfflineDiscord, User
from bot.posts.match_texts import describe_turns
from bot.posts.pictures import picture_words
from bot.service import Turn
from bot.texts import ENGLISH, say
from rules.razzle import Knight
from tests.bot.support import private, public, resign

# Lower-case names: a post must never capitalise them.
NAMES = ("ivy", "bob", "carol", "dave")
# How many moves each game's test plays; every game gets at least one move its post explains.
PLIES = {"boost": 14, "quorum": 14, "boku": 40, "razzle": 8, "kyo": 2}


def plain(text: str) -> str:
    return text.replace("**", "")


async def start(h: OfflineDiscord, game: str, players: int = 2) -> tuple[int, list[User]]:
    """Challenge and accept among lower-case names; the match id and the users by seat. The
    match seed is fixed, so each game's test plays the same game every time."""
    h.bot.service.challenges.seeds = lambda: 1
    users = [h.user(name) for name in NAMES[:players]]
    opponents = dict(zip(("opponent", "opponent2", "opponent3"), users[1:], strict=False))
    await h.command(users[0], "challenge", game=game, **opponents)
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    for user in users[1:]:
        await h.click(user, challenge.message_id or 0, "Accept")
    return max(await h.bot.store.match_ids()), users


def telling_move(game: Any, state: Any) -> Any:
    """The first legal move whose description says more than its notation (a capture, a
    throw...), else the first legal move: a short game that still shows the events."""
    moves = game.legal_moves(state)
    for move in moves:
        if say(game.describe_move(state, move, NAMES)) != game.format_move(state, move):
            return move
    return moves[0]


@pytest.mark.parametrize("game_name", list(PLIES))
def test_each_post_says_in_words_what_the_move_did(offline: Any, game_name: str) -> None:
    async def scenario(h: OfflineDiscord) -> list[str]:
        match_id, users = await start(h, game_name)
        told: list[str] = []
        for _ in range(PLIES[game_name]):
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                break
            game, state = match.game, match.state
            seat = game.to_move(state)
            move = telling_move(game, state)
            words = say(game.describe_move(state, move, match.names))
            notation = game.format_move(state, move)
            sent = await h.command(users[seat - 1], "move", match.channel_id, move=notation)
            (post,) = public(sent)
            first = plain(post.content).splitlines()[0]
            assert first == f"{NAMES[seat - 1]} played {words}."
            if words != notation:
                told.append(first)
        return told

    told = offline(scenario)
    assert told, f"no {game_name} move said more than its notation"


def test_the_move_to_play_is_named_with_its_colour_and_the_name_kept(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (ivy, bob) = await start(h, "razzle")
        opening = h.latest(lambda s: "begins" in s.content)
        assert "@ivy (White) vs @bob (Black)" in plain(opening_text(h, opening.content))
        assert f"<@{ivy.id}>, your move (White)." in opening.content
        match = await h.bot.service.cache.get(match_id)
        sent = await h.command(bob, "move", match.channel_id, move="b8-c6")
        (refusal,) = private(sent)
        assert refusal.content.startswith("It is ivy's turn (White), not yours.")
        sent = await h.command(ivy, "move", match.channel_id, move="b8-c6")
        (refusal,) = private(sent)
        assert refusal.content.startswith("The piece on b8 is bob's, not yours")
        sent = await h.command(ivy, "board", match.channel_id)
        assert "ivy to move (White)." in private(sent)[0].content
        assert not any("Player" in s.content for s in h.sent)

    offline(scenario)


def opening_text(h: OfflineDiscord, content: str) -> str:
    for user in h.users.values():
        content = content.replace(f"<@{user.id}>", f"@{user.name}")
    return content


def test_an_error_that_starts_with_a_name_keeps_its_case(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        ivy = h.user("ivy")
        sent = await h.command(ivy, "challenge", game="quorum", opponent=h.user("robo", bot=True))
        assert private(sent)[0].content.startswith("robo is a bot and cannot play.")
        sent = await h.command(
            ivy, "challenge", game="boost", opponent=h.user("bob"), opponent2=h.user("bob")
        )
        assert private(sent)[0].content.startswith("bob is named twice.")

    offline(scenario)


def test_four_seats_of_boost_are_four_colours(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        await start(h, "boost", players=4)
        opening = opening_text(h, h.latest(lambda s: "begins" in s.content).content)
        assert "@ivy (Blue) vs @bob (Red) vs @carol (Green) vs @dave (Yellow)" in plain(opening)

    offline(scenario)


def test_razzle_says_throw_for_the_ball_in_post_error_and_legend(offline: Any) -> None:
    """One word for the forced turn: the post, the refusal and the board legend all say
    "must throw"; "pass" stays for a skipped turn."""

    async def scenario(h: OfflineDiscord) -> tuple[str, str]:
        match_id, users = await start(h, "razzle")
        forcing = ""
        while not forcing:
            match = await h.bot.service.cache.get(match_id)
            game, state = match.game, match.state
            moves = game.legal_moves(state)
            move = next(
                (m for m in moves if "must throw" in say(game.describe_move(state, m, NAMES))),
                moves[0],
            )
            mover = users[game.to_move(state) - 1]
            notation = game.format_move(state, move)
            sent = await h.command(mover, "move", match.channel_id, move=notation)
            post = plain(public(sent)[0].content)
            forcing = post if "must throw" in post else ""
        match = await h.bot.service.cache.get(match_id)
        free = replace(match.state, forced=False)
        knight = next(m for m in match.game.legal_moves(free) if isinstance(m, Knight))
        typed = match.game.format_move(free, knight)
        sent = await h.command(users[0], "move", match.channel_id, move=typed)
        return forcing, private(sent)[0].content

    forcing, refusal = offline(scenario)
    assert "ivy's ball, so they must throw." in forcing
    assert "you must throw the ball" in refusal and "pass" not in refusal
    legend = inspect.getsource(renderers.razzle)
    assert 'words.board["must_throw"]' in legend and "must pass" not in legend
    assert picture_words(ENGLISH).board["must_throw"] == "must throw"


def test_board_and_record_reach_the_most_recent_finished_match(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (ivy, bob) = await start(h, "quorum")
        await resign(h, ivy)
        second, _ = await start(h, "razzle")
        await resign(h, bob)
        board = private(await h.command(ivy, "board"))[0].content
        assert board.startswith(f"**Razzle Dazzle #{second}: ivy vs bob**")
        assert "Game over: ivy wins (resignation)." in board
        record = private(await h.command(ivy, "record"))[0].content
        assert record.startswith(f"The record of Razzle Dazzle #{second}: ivy vs bob")
        refusal = private(await h.command(ivy, "move", move="b1-c3"))[0].content
        assert refusal.startswith("You have no match in progress in this server.")

    offline(scenario)


def test_draw_offers_address_who_may_answer_and_an_agreed_draw_is_recorded(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (ivy, bob) = await start(h, "quorum")
        thread = (await h.bot.service.cache.get(match_id)).channel_id
        sent = await h.command(ivy, "draw", thread)
        assert public(sent)[0].content == (
            f"ivy offers a draw. <@{bob.id}>: press **Accept draw** (or use /draw) or "
            "**Decline** at any time; your next move declines it."
        )
        assert private(sent)[0].content.endswith("It stands until bob moves.")
        await h.command(ivy, "move", thread, move="a1e3")
        sent = await h.command(bob, "draw", thread)
        assert "bob accepted the draw.\n**Game over: draw (agreement).**" in public(sent)[0].content
        board = private(await h.command(ivy, "board"))[0].content
        assert board.startswith("**Quorum #1: ivy vs bob** · 1 turn played\n")
        assert board.endswith("Game over: draw (agreement).\nLast moves: `1. a1e3`")
        sent = await h.command(ivy, "record")
        assert private(sent)[0].content == (
            "The record of Quorum #1: ivy vs bob (1 turn played; game over: draw (agreement))."
        )
        assert '[Result "draw (agreement)"]' in sent[-1].files[0][1].decode()

    offline(scenario)


def test_an_offer_on_the_answerers_turn_is_declined_by_moving(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (ivy, bob) = await start(h, "quorum")
        thread = (await h.bot.service.cache.get(match_id)).channel_id
        await h.command(ivy, "move", thread, move="a1e3")
        sent = await h.command(ivy, "draw", thread)
        assert public(sent)[0].content == (
            f"ivy offers a draw. <@{bob.id}>: press **Accept draw** (or use /draw) or "
            "**Decline**, or decline by making your move."
        )

    offline(scenario)


def test_board_and_record_count_the_same_turns_after_a_resignation(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (ivy, bob) = await start(h, "quorum")
        thread = (await h.bot.service.cache.get(match_id)).channel_id
        await h.command(ivy, "move", thread, move="a1e3")
        await resign(h, bob, thread)
        board = private(await h.command(bob, "board", thread))[0].content
        record = private(await h.command(bob, "record", thread))[0].content
        assert "· 1 turn played\n" in board
        assert "(1 turn played; game over: ivy wins (resignation))" in record

    offline(scenario)


def test_an_automatic_pass_is_said_in_words(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> list[str]:
        match_id, (_, bob) = await start(h, "quorum")
        match = await h.bot.service.cache.get(match_id)
        return [
            say(line) for line in describe_turns(match, [Turn(2, bob.id, "pass", automatic=True)])
        ]

    assert offline(scenario) == ["bob had no legal move and passed."]
