"""The other commands through the offline Discord, and a smoke test of every registered game."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import rules
from bot.offline import OfflineDiscord
from bot.posts.pictures import picture_words
from bot.texts import say, t
from renderers import render_key
from rules import Record, get_game
from tests.bot.support import new_bot, private, public, resign, start_match

WORDS = picture_words("en")

COMMANDS = {"challenge", "move", "board", "resign", "draw", "matches", "record", "rules", "help"}
COMMANDS |= {"abort", "settings", "takeback", "leaderboard", "profile", "history", "replay"}
COMMANDS |= {
    "vacation",
    "follow",
    "unfollow",
    "next",
    "tournament",
    "premove",
    "analysis",
    "server",
    "export",
    "time",
    "note",
}
GUILD = 1_200_000_000_000_000_001


def test_command_sync_payload(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        guild_syncs = [r for r in h.requests if r[1].endswith("/guilds/{guild_id}/commands")]
        assert not [r for r in h.requests if r[1] == "/applications/{application_id}/commands"]
        ((method, _, body),) = guild_syncs
        assert method == "PUT"
        commands = {c["name"]: c for c in body}
        assert set(commands) == COMMANDS
        subcommands = commands["tournament"]["options"]
        named = [o for sub in subcommands for o in sub.get("options", [])]
        numbered = [o for o in named if o["name"] == "tournament"]
        assert len(numbered) >= 5 and all(o.get("max_value") for o in numbered), numbered
        challenge = {o["name"]: o for o in commands["challenge"]["options"]}
        assert list(challenge) == [
            *("game", "opponent", "opponent2", "opponent3", "variant", "days", "rated", "level"),
            *("players", "position", "clock", "increment", "cap", "weekends"),
        ]
        assert [o["required"] for o in challenge.values()] == [True, *[False] * 13]
        assert challenge["position"]["type"] == 11  # an attachment
        assert [c["value"] for c in challenge["clock"]["choices"]] == ["days", "bank"]
        assert [c["value"] for c in challenge["weekends"]["choices"]] == ["on", "off"]
        assert (challenge["cap"]["min_value"], challenge["cap"]["max_value"]) == (1, 30)
        assert (challenge["players"]["min_value"], challenge["players"]["max_value"]) == (2, 4)
        days = {c["name"]: c["value"] for c in challenge["days"]["choices"]}
        assert days["no time limit"] == 0 and list(days.values()) == [1, 2, 3, 5, 7, 14, 0]
        assert challenge["rated"]["type"] == 5  # a boolean
        assert [c["value"] for c in challenge["level"]["choices"]] == [1, 2, 3]
        assert challenge["opponent"]["type"] == 6  # a user
        assert [c["value"] for c in challenge["game"]["choices"]] == list(rules.GAMES)[:25]
        assert challenge["variant"]["autocomplete"]
        move = {o["name"]: o for o in commands["move"]["options"]}
        assert move["move"]["autocomplete"] and move["match"]["autocomplete"]
        assert not move["match"]["required"]
        rules_options = {o["name"]: o for o in commands["rules"]["options"]}
        assert rules_options["topic"]["autocomplete"]
        tournament = {o["name"]: o for o in commands["tournament"]["options"]}
        assert list(tournament) == [
            "create",
            "start",
            "cancel",
            "remove",
            "standings",
            "leave",
            "list",
        ]
        assert {o["type"] for o in tournament.values()} == {1}  # subcommands
        create = {o["name"]: o for o in tournament["create"]["options"]}
        assert [c["value"] for c in create["format"]["choices"]] == ["round-robin", "swiss"]
        server = commands["server"]  # hidden from members who cannot manage the server
        manage_guild = 1 << 5
        assert int(server["default_member_permissions"]) == manage_guild
        settings, status = server["options"]
        assert settings["name"] == "settings" and settings["type"] == 1  # a subcommand
        assert status["name"] == "status" and status["type"] == 1 and not status.get("options")
        channel = next(o for o in settings["options"] if o["name"] == "channel")
        assert channel["channel_types"] == [0, 5]  # text and announcement channels only

    offline(scenario, dev_guild_id=GUILD)


def test_global_sync_only_on_request(database: str) -> None:
    async def main() -> list[tuple[str, str, Any]]:
        bot = new_bot(database)
        bot.sync_only = True
        async with OfflineDiscord(bot) as h:
            return h.requests

    requests = asyncio.run(main())
    (sync,) = [r for r in requests if r[1] == "/applications/{application_id}/commands"]
    assert {c["name"] for c in sync[2]} == COMMANDS


@pytest.mark.parametrize(
    ("game", "topic"),
    [(name, topic) for name, game in rules.GAMES.items() for topic in game.help_topics],
)
def test_rules_for_every_topic(offline: Any, game: str, topic: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        sent = await h.command(h.user("alice"), "rules", game=game, topic=topic)
        (answer,) = private(sent)
        assert say(t(f"help.{game}.{topic}")) in answer.content
        assert bool(answer.pngs) == (topic in ("overview", "setup", "board"))
        choices = await h.autocomplete(h.user("alice"), "rules", "topic", game=game, topic="")
        own = list(get_game(game).help_topics)
        assert choices == [*own, *(["board"] if "board" not in own else [])][:25]

    offline(scenario)


@pytest.mark.parametrize("game", list(rules.GAMES))
def test_the_board_topic_shows_the_key_in_the_members_theme(offline: Any, game: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "settings", theme="dark")
        (answer,) = private(await h.command(alice, "rules", game=game, topic="board"))
        assert answer.pngs == [render_key(game, theme="dark", words=WORDS)]
        assert '"Turn N" is the N-th line of its /record' in answer.content

    offline(scenario)


def test_rules_refuses_an_unknown_topic_and_help_lists_commands(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        sent = await h.command(h.user("alice"), "rules", game="quorum", topic="castling")
        assert [s.kind for s in sent] == ["message"] and sent[0].ephemeral
        assert "no rules topic 'castling'" in sent[0].content and "overview" in sent[0].content
        sent = await h.command(h.user("alice"), "rules", game="quorum")
        assert say(t("help.quorum.overview")) in sent[-1].content
        (answer,) = await h.command(h.user("alice"), "help")
        assert answer.ephemeral
        for name in COMMANDS - {"help"}:
            assert f"/{name}" in answer.content
        assert all(g.title in answer.content for g in rules.GAMES.values())

    offline(scenario)


def test_board_matches_and_record(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(h.user("carol"), "challenge", game="quorum", opponent=alice)

        (board,) = private(await h.command(bob, "board"))
        assert board.pngs and "bob to move (Black)" in board.content
        assert board.buttons == ["Move"]
        (board,) = private(await h.command(alice, "board"))
        assert board.buttons == []

        (listing,) = private(await h.command(alice, "matches"))
        lines = listing.content.splitlines()
        assert "waiting for your answer" in lines[0] and "Quorum #2" in lines[0]
        assert "bob to move" in lines[1] and "/channels/" in lines[1]
        (listing,) = private(await h.command(bob, "matches"))
        assert "your move" in listing.content and "#2" not in listing.content

        (record,) = private(await h.command(bob, "record"))
        ((name, text),) = record.files
        assert name == f"quorum-{match_id}.txt"
        parsed = Record.from_text(text.decode())
        assert parsed.turns == ("a1e3",) and parsed.tags["Seat1"] == "alice"
        game = get_game("quorum")
        stored = await h.bot.service.cache.get(match_id)
        assert game.dump(parsed.replay(game)) == game.dump(stored.state)

    offline(scenario)


@pytest.mark.both_backends
def test_draw_offer_and_acceptance(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        sent = await h.command(alice, "draw")
        assert "offers a draw" in public(sent)[0].content
        assert "already offered" in private(await h.command(alice, "draw"))[0].content
        await h.command(alice, "move", move="a1e3")  # the offer stands after her own move
        sent = await h.command(bob, "draw")
        assert "Game over: draw (agreement)." in public(sent)[0].content
        assert any(s.kind == "archive" for s in sent)
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "finished" and match.row.outcome == {
            "winners": [],
            "reason": "agreement",
        }
        assert await h.bot.service.audit.check() == []

    offline(scenario)


def test_a_draw_offer_discord_does_not_take_is_not_made(offline: Any) -> None:
    """alice offers a draw while Discord fails posts: bob could not see it, so it does not
    stand; she is told to offer again, and can once Discord is back."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h)
        h.fail_posts(3600)
        (told,) = private(await h.command(alice, "draw"))
        assert told.content.startswith("Discord did not take your draw offer, so bob cannot see")
        assert (await h.bot.service.cache.get(match_id)).row.draw_offer is None
        await h.advance(2 * 3600)
        assert "offers a draw" in public(await h.command(alice, "draw"))[0].content

    offline(scenario)


def test_a_move_declines_a_draw_offer(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(bob, "draw")
        await h.command(alice, "move", move="a1e3")
        sent = await h.command(alice, "draw")
        assert "offers a draw" in public(sent)[0].content  # a new offer, not an acceptance
        assert (await h.bot.service.cache.get(match_id)).status == "active"

    offline(scenario)


def test_resign_out_of_turn_ends_the_match(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        sent = await resign(h, bob)
        assert "bob resigned" in public(sent)[0].content
        assert "alice wins (resignation)" in public(sent)[0].content
        assert "no match in progress" in private(await h.command(bob, "resign"))[0].content
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["resign 2"]
        assert await h.bot.service.audit.check() == []

    offline(scenario)


def _seats(game: rules.Game[Any, Any]) -> int:
    return min(game.player_counts)


@pytest.mark.parametrize("name", list(rules.GAMES))
def test_every_game_challenge_play_resign(offline: Any, name: str) -> None:
    """Generic on purpose: every registered game must work through the bot unchanged."""

    async def scenario(h: OfflineDiscord) -> None:
        game = get_game(name)
        match_id, users = await start_match(h, name, _seats(game))
        for _ in range(3):
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                break
            mover = users[match.game.to_move(match.state) - 1]
            suggestions = await h.autocomplete(mover, "move", "move", move="")
            assert suggestions, "no legal move suggested"
            sent = await h.command(mover, "move", move=suggestions[0])
            assert public(sent) and public(sent)[0].pngs
        match = await h.bot.service.cache.get(match_id)
        if match.outcome is None:
            sent = await resign(h, users[0])
            assert "resigned" in public(sent)[0].content
        assert await h.bot.service.audit.check() == []

    offline(scenario)


def test_four_seats_when_a_game_allows_them(offline: Any) -> None:
    four = [n for n, g in rules.GAMES.items() if 4 in g.player_counts]
    if not four:
        pytest.skip("no registered game is played by 4")

    async def scenario(h: OfflineDiscord) -> None:
        match_id, users = await start_match(h, four[0], 4)
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "active" and [s.name for s in match.seats] == [u.name for u in users]
        board = h.latest(lambda s: "Move" in s.buttons)
        assert all(f"<@{u.id}>" in board.content for u in users)

    offline(scenario)
