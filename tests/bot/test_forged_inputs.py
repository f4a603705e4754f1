"""Whatever a member's client sends is answered, and nothing else happens (issue 38): every
persistent item pressed on a stale copy of its message says why it does nothing; a Join or
Leave naming another server's tournament reads as one that does not exist; and forged
custom ids and option values, for every item and command, on both stores, are answered
every time with nothing logged as an error."""

from __future__ import annotations

import string
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.offline import OfflineDiscord, Sent, User
from bot.service import Player, ServiceError
from bot.ui import views
from bot.ui.persistent import LARGEST_COUNT, LARGEST_ID, Persistent
from bot.ui.views import PERSISTENT_ITEMS
from tests.bot.support import private, start_match
from tests.bot.test_servers import forge
from tests.bot.test_stray_clicks import started_tournament

# Numbers a forged id or option tries: the edges of every column and of Discord's integers.
EDGES = [0, 1, 2, LARGEST_COUNT, LARGEST_COUNT + 1, 2**53, LARGEST_ID, LARGEST_ID + 1, 2**64]


CLOSED = "This challenge is no longer open (in progress)."
AS_IT_STANDS = "These buttons are out of date.\n-# /board shows the match as it stands"
MOVED_ON = "These buttons are out of date: Quorum #2 has moved on since."
OLD_PAGE = "These buttons are out of date, so nothing happened."
ENTRIES_CLOSED = "Tournament #1 has started; entries are closed."
STALE = {
    views.AcceptButton: CLOSED,
    views.DeclineButton: CLOSED,
    views.WithdrawButton: CLOSED,
    views.RematchButton: AS_IT_STANDS,
    views.DrawButton: AS_IT_STANDS,
    views.MoveButton: AS_IT_STANDS,
    views.TakebackButton: MOVED_ON,
    views.ResignButton: AS_IT_STANDS,
    views.PickSelect: MOVED_ON,
    views.PickGroup: MOVED_ON,
    views.PickPlay: MOVED_ON,
    views.PickBack: MOVED_ON,
    views.HistoryButton: OLD_PAGE,
    views.ReplayButton: OLD_PAGE,
    views.JoinButton: ENTRIES_CLOSED,
    views.LeaveButton: ENTRIES_CLOSED,
    views.KeepButton: AS_IT_STANDS,
}
"""What each item says, pressed on a stale copy of its message (at ply 0 of match 2, which
is at ply 1; tournament 1 has started)."""


async def tournament_and_match(h: OfflineDiscord) -> tuple[list[User], int, int]:
    """A started tournament #1 (alice, bob, carol; its entry message's buttons gone) and a
    match in progress whose first board is a stale copy (the move took its button)."""
    users, entry = await started_tournament(h)
    match_id, (first, _) = await start_match(h)
    board = h.latest(lambda s: "Move" in s.buttons)
    await h.command(first, "move", board.channel_id, match=str(match_id), move="a1e3")
    return users, entry.message_id or 0, board.message_id or 0


def stale_id(item: type[Persistent], match_id: int) -> str:
    """A sound custom_id of this item naming the match (or tournament 1) at ply 0."""
    values: dict[str, Any] = {
        "match_id": match_id,
        "tournament_id": 1,
        "user_id": 1,
        "ply": 0,
        "page": 1,
    }
    values |= {"accept": True, "confirm": True, "game": None, "way": "n", "path": (), "number": 0}
    return item.custom_ids.build(**{name: values[name] for name in item.custom_ids.parts})


async def press(
    h: OfflineDiscord, user: User, message_id: int, custom_id: str, kind: int = 2
) -> list[Sent]:
    """A press as Discord's API would carry it; checks it was answered exactly once."""
    payload = h.component_payload(user, message_id, custom_id, ["x"] if kind == 3 else None)
    payload["data"]["component_type"] = kind
    sent = await h.run(payload, user, message_id)
    assert h.interactions[payload["token"]].responded, custom_id
    return sent


def test_every_item_on_a_stale_copy_of_its_message_says_why(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        (alice, bob, _), entry, board = await tournament_and_match(h)
        match_id = max(await h.bot.store.match_ids())
        assert h.messages[entry]["components"] == h.messages[board]["components"] == []
        moves = len(await h.bot.store.moves(match_id))
        assert set(STALE) == set(PERSISTENT_ITEMS)
        for item in PERSISTENT_ITEMS:
            on = entry if "tournament_id" in item.custom_ids.parts else board
            (answer,) = await press(h, bob, on, stale_id(item, match_id))
            assert answer.ephemeral and answer.for_user == bob.id, item
            assert answer.content.startswith(STALE[item]), (item, answer.content)
        joined = await press(h, bob, entry, "bg:join:1")
        assert [s.content for s in joined] == ["Tournament #1 has started; entries are closed."]
        assert len(await h.bot.store.moves(match_id)) == moves
        assert bob.id in (await h.bot.service.tournaments.get(1)).active

    offline(scenario)


def test_a_tournament_button_from_another_server_or_a_dm_reads_as_none_here(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dave = h.user("alice"), h.user("bob"), h.user("dave")
        await h.command(alice, "tournament create", game="quorum", format="swiss")
        entry = h.latest(lambda s: "Join" in s.buttons)
        text = h.messages[entry.message_id or 0]["content"]
        for where in (h.server_channel("other"), h.dm(dave)):
            for custom_id in ("bg:join:1", "bg:leave:1"):
                sent = await press(h, dave, forge(h, where, custom_id), custom_id)
                assert [s.content for s in sent] == [
                    "There is no tournament #1 here.\n-# `/tournament list` shows them"
                ]
        await h.click(bob, entry.message_id or 0, "Join")
        leave = forge(h, h.server_channel("other"), "bg:leave:1")
        (refused,) = private(await press(h, bob, leave, "bg:leave:1"))
        assert refused.content.startswith("There is no tournament #1 here.")
        tournament = await h.bot.service.tournaments.get(1)
        assert {e.user_id for e in tournament.entrants} == {alice.id, bob.id}
        assert h.messages[entry.message_id or 0]["content"] != text  # only bob's own join

    offline(scenario)


def test_an_id_past_64_bits_or_of_the_wrong_kind_is_out_of_date(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        _, (alice, _) = await start_match(h)
        channel = h.channel_id
        stale = forge_kind(h, channel, "bg:none", 2)
        forged = [
            (f"bg:move:{2**64}", 2),
            (f"bg:accept:{LARGEST_ID + 1}", 2),
            ("bg:accept:0", 2),
            (f"bg:history:{alice.id}:zzz:1:n", 2),
            (f"bg:replay:1:{2**40}:n", 2),
            ("bg:play:1:1:" + "1" * 80, 2),  # read in one pass, not by trying every split
            ("bg:move:１", 2),  # digits of another script
        ]
        for custom_id, kind in forged:  # on a message that carries it, and on one that not
            for on in (forge_kind(h, channel, custom_id, kind), stale):
                (answer,) = await press(h, alice, on, custom_id, kind)
                assert answer.content.startswith("This button is out of date"), custom_id
        for custom_id, kind in [("bg:back:1:1:0", 3), ("bg:pick:1:1::0", 2)]:  # wrong kind
            (answer,) = await press(
                h, alice, forge_kind(h, channel, custom_id, kind), custom_id, kind
            )
            assert answer.content.startswith("This button is out of date"), custom_id

    offline(scenario)


def forge_kind(h: OfflineDiscord, channel_id: int, custom_id: str, kind: int) -> int:
    """A message carrying a component of this kind (2 a button, 3 a menu) with this id."""
    if kind == 3:
        control = {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}]}
    else:
        control = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    body = {"content": "forged", "components": [{"type": 1, "components": [control]}]}
    return int(h.message(channel_id, body, [], 0)["id"])


def test_the_service_checks_a_tournaments_rounds_too(offline: Any) -> None:
    """Past Discord's declared range, the service refuses on its own."""

    async def scenario(h: OfflineDiscord) -> None:
        for rounds in (64, 2**31, 2**53):
            with pytest.raises(ServiceError, match="too many"):
                h.bot.service.tournaments.prepare(
                    guild_id=1,
                    channel_id=2,
                    creator=Player(3, "alice"),
                    game="quorum",
                    system="swiss",
                    rounds=rounds,
                )

    offline(scenario)


# -- forged at random ---------------------------------------------------------------------

NUMBERS = st.one_of(st.sampled_from(EDGES), st.integers(0, 10**20 - 1))


@st.composite
def forged_ids(draw: st.DrawFn) -> tuple[str, int, bool]:
    """(custom_id, component kind, whether the message carries it): an item's format with
    each part forged, or any text."""
    kind = draw(st.sampled_from([2, 3]))
    carried = draw(st.booleans())
    if draw(st.integers(0, 4)) == 0:
        return draw(st.text(string.printable, max_size=100)), kind, carried
    item = draw(st.sampled_from(PERSISTENT_ITEMS))
    text = ""
    for literal, name in item.custom_ids.pieces:
        text += literal
        if name is None:
            continue
        pattern = item.custom_ids.parts[name].pattern
        if pattern.startswith("[0-9]{"):
            text += str(draw(NUMBERS))
        else:
            text += draw(st.from_regex(rf"\A(?:{pattern})\Z"))
    return text[:100], kind, carried


def leaf_commands(h: OfflineDiscord) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


OPTION_VALUES = {
    "integer": st.one_of(st.sampled_from(EDGES), st.integers(-(2**53), 2**53)),
    "number": st.floats(-(2**53), 2**53, allow_nan=False),
    "string": st.text(max_size=120),
    "boolean": st.booleans(),
}


@pytest.mark.both_backends
@settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking a bot run takes minutes
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(presses=st.lists(forged_ids(), min_size=40, max_size=40), data=st.data())
def test_forged_ids_and_options_are_all_answered(
    offline: Any, presses: list[tuple[str, int, bool]], data: st.DataObject
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry, board = await tournament_and_match(h)
        for custom_id, kind, carried in presses:
            on = forge_kind(h, h.channel_id, custom_id, kind) if carried else board
            await press(h, data.draw(st.sampled_from(users)), on, custom_id, kind)
        for command in leaf_commands(h):
            options: dict[str, Any] = {}
            for parameter in command.parameters:
                if parameter.type.name in OPTION_VALUES and (
                    parameter.required or data.draw(st.booleans())
                ):
                    options[parameter.name] = data.draw(OPTION_VALUES[parameter.type.name])
                elif parameter.type is discord.AppCommandOptionType.user:
                    options[parameter.name] = users[1]
            if any(p.required and p.name not in options for p in command.parameters):
                continue
            payload = h.command_payload(users[0], command.qualified_name, **options)
            await h.run(payload, users[0])
            assert h.interactions[payload["token"]].responded, (command.qualified_name, options)

    offline(scenario)
