"""Each server reaches only its own matches: from a second server, a match of the first is
refused every way in (a command's match option, autocomplete, any button naming it), as a
match that does not exist; history and profiles show only the server's own; in direct
messages only a match's players reach it."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.offline import OfflineDiscord, Sent
from bot.ui.persistent import InMatch, Persistent
from bot.ui.views import (
    PERSISTENT_ITEMS,
    AcceptButton,
    DeclineButton,
    DrawButton,
    KeepButton,
    MoveButton,
    PickBack,
    PickGroup,
    PickPlay,
    PickSelect,
    RematchButton,
    ReplayButton,
    ResignButton,
    TakebackButton,
    WithdrawButton,
)
from tests.bot.support import private, public, resign, start_match

REFUSED = "There is no match #1 here.\n-# use /matches to see your matches"
ELSEWHERE = (
    "Match #1 is played in another server, not here.\n-# use its commands where it is played"
)

# A custom_id naming match 1 at ply 1 for each component that names a match.
FORGED: dict[type[Persistent], str] = {
    AcceptButton: "bg:accept:1",
    DeclineButton: "bg:decline:1",
    WithdrawButton: "bg:withdraw:1",
    RematchButton: "bg:rematch:1",
    DrawButton: "bg:draw:yes:1",
    MoveButton: "bg:move:1",
    TakebackButton: "bg:takeback:yes:1:1",
    ResignButton: "bg:resign:yes:1",
    ReplayButton: "bg:replay:1:0:n",
    PickSelect: "bg:pick:1:1::0",
    PickGroup: "bg:group:1:1:",
    PickPlay: "bg:play:1:1:0",
    PickBack: "bg:back:1:1:0",
    KeepButton: "bg:keep:1",
}
MENUS = ("bg:pick:", "bg:group:")  # select menus; the others are buttons


def match_commands(h: OfflineDiscord) -> list[app_commands.Command[Any, ..., Any]]:
    """Every slash command that takes a match."""
    commands = [c for c in h.bot.tree.get_commands() if isinstance(c, app_commands.Command)]
    return [c for c in commands if any(p.name == "match" for p in c.parameters)]


def forge(h: OfflineDiscord, channel_id: int, custom_id: str) -> int:
    """A message in this channel carrying a component with this custom_id, as a member
    sending Discord's API whatever it likes could make one appear to the bot."""
    if custom_id.startswith(MENUS):
        control = {"type": 3, "custom_id": custom_id, "options": [{"label": "h8", "value": "h8"}]}
    else:
        control = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    body = {"content": "forged", "components": [{"type": 1, "components": [control]}]}
    return int(h.message(channel_id, body, [], 0)["id"])


async def press(h: OfflineDiscord, user: Any, message_id: int, custom_id: str) -> list[Sent]:
    values = ["h8"] if custom_id.startswith(MENUS) else None
    payload = h.component_payload(user, message_id, custom_id, values)
    return await h.run(payload, user, message_id)


def test_every_component_naming_a_match_is_checked_and_forged_here() -> None:
    """A new button that names a match must be InMatch, and this file must forge it."""
    for item in PERSISTENT_ITEMS:
        assert ("match_id" in item.custom_ids.parts) == issubclass(item, InMatch), item
    assert set(FORGED) == {item for item in PERSISTENT_ITEMS if issubclass(item, InMatch)}
    for forged, custom_id in FORGED.items():
        assert forged.custom_ids.parse(custom_id), custom_id


def test_another_server_cannot_reach_a_match_by_any_command(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        assert match_id == 1
        await h.command(alice, "move", move="a1e3")
        elsewhere = h.server_channel("other")
        carol = h.user("carol")
        for command in match_commands(h):
            extra = {"move": "h8h4"} if command.name == "move" else {}
            # the player to move learns where their match lives; a stranger learns nothing
            for user, said in ((bob, ELSEWHERE), (carol, REFUSED)):
                sent = await h.command(user, command.name, elsewhere, match="1", **extra)
                assert [s.content for s in private(sent)] == [said], command.name
                assert not public(sent), command.name
        match = await h.bot.service.cache.get(match_id)
        assert match.row.ply == 1 and match.status == "active"
        (board,) = private(await h.command(carol, "board", None, match="1"))
        assert board.pngs, "in the match's own server anyone may look"

    offline(scenario)


def test_another_server_is_offered_none_of_its_matches(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        elsewhere = h.server_channel("other")
        for command in match_commands(h):
            assert await h.autocomplete(alice, command.name, "match", None, match="") == ["1"]
            assert await h.autocomplete(alice, command.name, "match", elsewhere, match="") == []
        here = await h.autocomplete(bob, "move", "move", None, move="h8", match="1")
        assert "h8h4" in here
        assert await h.autocomplete(bob, "move", "move", elsewhere, move="h8", match="1") == []

    offline(scenario)


@pytest.mark.parametrize("custom_id", FORGED.values())
def test_no_button_acts_on_another_servers_match(offline: Any, custom_id: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        before = len(await h.bot.store.moves(1))
        forged = forge(h, h.server_channel("other"), custom_id)
        for user, said in ((alice, ELSEWHERE), (bob, ELSEWHERE), (h.user("carol"), REFUSED)):
            sent = await press(h, user, forged, custom_id)
            assert [s.content for s in private(sent)] == [said]
            assert [s.kind for s in sent if s.kind != "message"] == []
        match = await h.bot.service.cache.get(1)
        assert match.status == "active" and len(await h.bot.store.moves(1)) == before

    offline(scenario)


def test_history_and_profile_show_only_this_servers_matches(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await resign(h, bob)
        elsewhere = h.server_channel("other")
        (mine,) = private(await h.command(alice, "history", None))
        assert "Quorum #1 vs bob: **won**" in mine.embeds[0]["description"]
        (other,) = private(await h.command(bob, "history", elsewhere, user=alice))
        assert "Quorum #1" not in other.embeds[0]["description"]
        assert "none yet" in other.embeds[0]["description"]
        paging = f"bg:history:{alice.id}:all:1:n"
        (page,) = [s for s in await press(h, bob, forge(h, elsewhere, paging), paging) if s.embeds]
        assert "none yet" in page.embeds[0]["description"]
        (profile,) = private(await h.command(bob, "profile", elsewhere, user=alice))
        fields = {f["name"]: f["value"] for f in profile.embeds[0]["fields"]}
        assert fields["Last results"] == "none yet" and fields["Current matches"] == "none"

    offline(scenario)


def test_in_direct_messages_only_a_matchs_players_reach_it(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await resign(h, bob)
        carol = h.user("carol")
        (refused,) = private(await h.command(carol, "board", h.dm(carol), match="1"))
        assert refused.content == REFUSED
        (board,) = private(await h.command(alice, "board", h.dm(alice), match="1"))
        assert board.pngs
        step = "bg:replay:1:0:n"
        sent = await press(h, carol, forge(h, h.dm(carol), step), step)
        assert [s.content for s in private(sent)] == [REFUSED]
        (shown,) = [s for s in await press(h, alice, forge(h, h.dm(alice), step), step) if s.files]
        assert "turn 0 of 2" in shown.content
        (theirs,) = private(await h.command(carol, "history", h.dm(carol), user=alice))
        assert "Quorum #1" not in theirs.embeds[0]["description"]
        (own,) = private(await h.command(alice, "history", h.dm(alice)))
        assert "Quorum #1 vs bob" in own.embeds[0]["description"]

    offline(scenario)
