"""/leaderboard, /profile, /history, /replay and the replay on the result post, end to end."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.offline import OfflineDiscord, Sent
from bot.posts import limits
from renderers.replay import MAX_BYTES
from tests.bot.support import new_bot, private, resign, start_match


def edits(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "edit"]


async def quick_win(h: OfflineDiscord, loser: int = 1) -> tuple[int, list[Any]]:
    """alice plays a1e3, then one of the two resigns (bob by default)."""
    match_id, users = await start_match(h)
    await h.command(users[0], "move", move="a1e3")
    await resign(h, users[loser])
    return match_id, users


@pytest.mark.both_backends
def test_the_issue_script_ranks_alice_above_bob_and_the_ending_carries_a_replay(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await quick_win(h)
        ending = h.latest(lambda s: "Game over" in s.content)
        assert [name for name, _ in ending.files] == ["quorum-1-2.png"]  # no waiting on a GIF
        replay = h.latest(lambda s: s.content.startswith("Replay of Quorum #1"))
        assert h.sent.index(replay) > h.sent.index(ending)
        assert replay.channel_id == ending.channel_id
        (gif,) = [data for name, data in replay.files if name.endswith(".gif")]
        with Image.open(io.BytesIO(gif)) as image:
            assert image.format == "GIF"
            assert getattr(image, "n_frames", 1) == 3  # the setup, a1e3, the resignation
        assert len(gif) <= MAX_BYTES
        (alt,) = [
            a["description"]
            for _, _, body in h.requests
            if isinstance(body, dict)
            for a in body.get("attachments", [])
            if a.get("filename", "").endswith(".gif")
        ]
        assert alt.startswith("Animated replay of Quorum #1: alice vs bob") and "resignation" in alt
        (board,) = private(await h.command(alice, "leaderboard", game="quorum"))
        (embed,) = board.embeds
        lines = embed["description"].splitlines()
        assert lines[0].startswith(f"1. <@{alice.id}>") and lines[1].startswith(f"2. <@{bob.id}>")
        assert "1W 0D 0L" in lines[0] and "0W 0D 1L" in lines[1]
        assert "You: #1" in embed["description"]
        (profile,) = private(await h.command(bob, "profile"))
        fields = {f["name"]: f["value"] for f in profile.embeds[0]["fields"]}
        assert "streak: 1 loss" in fields["Quorum"]
        assert "**lost** (resignation)" in fields["Last results"]

    offline(scenario)


@pytest.mark.both_backends
def test_history_pages_with_buttons_that_survive_a_restart(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        for _ in range(12):
            await quick_win(h)
        alice = h.user("alice")
        (first,) = private(await h.command(alice, "history", game="quorum"))
        assert first.buttons == ["◀", "▶"]
        assert "Page 1 of 2 · 12 in all" in first.embeds[0]["description"]
        assert first.embeds[0]["description"].count("**won**") == 10
        await h.restart(new_bot(database))
        (second,) = edits(await h.click(alice, first.message_id or 0, "▶"))
        assert "Page 2 of 2" in second.embeds[0]["description"]
        assert second.embeds[0]["description"].count("**won**") == 2
        (other,) = private(await h.command(h.user("bob"), "history", user=alice, game="boku"))
        assert "none yet" in other.embeds[0]["description"]

    offline(scenario)


@pytest.mark.both_backends
def test_replay_steps_back_and_forth_after_a_restart(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        (shown,) = private(await h.command(bob, "replay", match=str(match_id)))
        assert "turn 1 of 1" in shown.content and "alice played **a1e3**" in shown.content
        await h.restart(new_bot(database))
        (back,) = edits(await h.click(bob, shown.message_id or 0, "◀"))
        assert "turn 0 of 1" in back.content and back.pngs
        assert back.pngs[0] != shown.pngs[0], "another position, another picture"

    offline(scenario)


def test_replay_jumps_to_either_end_and_by_ten(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, "boku")
        for number in range(12):
            match = await h.bot.service.cache.get(match_id)
            move = match.game.legal_moves(match.state)[0]
            text = match.game.format_move(match.state, move)
            await h.bot.service.turns.move(match_id, users[number % 2].id, text)
        (shown,) = private(await h.command(users[0], "replay", match=str(match_id)))
        assert "turn 12 of 12" in shown.content
        assert shown.buttons == ["⏮", "◀", "▶", "⏭", "-10", "+10"]
        steps = {"⏮": 0, "+10": 10, "▶": 11, "⏭": 12, "-10": 2, "◀": 1}
        for label, position in steps.items():
            (moved,) = edits(await h.click(users[0], shown.message_id or 0, label))
            assert f"turn {position} of 12" in moved.content, label

    offline(scenario)


def test_record_and_replay_without_a_match_pick_the_latest_finished_one(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await quick_win(h)
        (record,) = private(await h.command(alice, "record"))
        assert f"#{match_id}" in record.content and record.files
        (replay,) = private(await h.command(alice, "replay"))
        assert "Game over: alice wins" in replay.content

    offline(scenario)


def test_an_unrated_challenge_leaves_the_leaderboard_empty(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h, rated=False)
        await resign(h, bob)
        (board,) = private(await h.command(alice, "leaderboard", game="quorum"))
        assert "No rated Quorum match" in board.embeds[0]["description"]

    offline(scenario)


def test_embeds_are_cut_to_discords_limits() -> None:
    fields = [(f"field {n} " + "n" * 300, "v" * 2000) for n in range(30)]
    embed = limits.embed("t" * 300, "d" * 5000, fields).to_dict()
    assert len(embed["title"]) == limits.EMBED_TITLE
    assert len(embed["fields"]) <= limits.EMBED_FIELDS
    assert all(len(f["name"]) <= 256 and len(f["value"]) <= 1024 for f in embed["fields"])
    total = len(embed["title"]) + len(embed.get("description", ""))
    total += sum(len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert total <= limits.EMBED_TOTAL
    assert len(embed.get("description", "")) <= limits.EMBED_DESCRIPTION


def test_a_long_games_replay_follows_its_result_within_the_limits(offline: Any) -> None:
    """Up to 200 turns of Boku (none ending it), played through the service, then a
    resignation through Discord: the result posts without its replay, which follows from
    the worker process, plays within 45 s holding the final position 4 s, and stays under
    4 MB."""
    rng = random.Random(3)

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, "boku")
        for _ in range(200):
            match = await h.bot.service.cache.get(match_id)
            game, state = match.game, match.state
            going_on = [
                m for m in game.legal_moves(state) if not game.outcome(game.apply(state, m))
            ]
            if not going_on:
                break
            move = rng.choice(going_on)
            mover = users[match.game.to_move(match.state) - 1]
            text = match.game.format_move(match.state, move)
            await h.bot.service.turns.move(match_id, mover.id, text)
        await resign(h, users[0])
        ending = h.latest(lambda s: "Game over" in s.content)
        assert not [name for name, _ in ending.files if name.endswith(".gif")]
        replay = h.latest(lambda s: s.content.startswith("Replay of Boku"))
        (gif,) = [data for name, data in replay.files if name.endswith(".gif")]
        assert len(gif) <= MAX_BYTES
        with Image.open(io.BytesIO(gif)) as image:
            durations = []
            for frame in range(getattr(image, "n_frames", 1)):
                image.seek(frame)
                durations.append(image.info["duration"])
        assert sum(durations) <= 45_000 and durations[-1] == 4_000
        assert min(durations) >= 150

    offline(scenario)
