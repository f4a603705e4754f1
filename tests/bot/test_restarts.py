"""Every persistent button and menu still works after a restart (issue 12): each is posted,
the bot is replaced by a new one on the same database, and the click is answered as before.
A persistent item added without a case here fails `test_every_persistent_item_has_a_case`."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from discord import ui

from bot.cogs.standings import HISTORY_PAGE
from bot.offline import OfflineDiscord, Sent
from bot.store import Status
from bot.ui import views
from tests.bot.support import new_bot, private, public, resign, start_match

Case = Callable[[OfflineDiscord, str], Awaitable[None]]
CASES: dict[type[Any], Case] = {}


def covers(item: type[Any]) -> Callable[[Case], Case]:
    """Files a scenario as the restart case of one persistent item class."""

    def register(case: Case) -> Case:
        CASES[item] = case
        return case

    return register


def edits(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "edit"]


async def restart(h: OfflineDiscord, database: str) -> None:
    await h.restart(new_bot(database))


async def post_challenge(h: OfflineDiscord, database: str) -> tuple[int, Sent, list[Any]]:
    """alice challenges bob; the bot restarts before anyone answers."""
    alice, bob = h.user("alice"), h.user("bob")
    await h.command(alice, "challenge", game="quorum", opponent=bob)
    challenge = h.latest(lambda s: "Accept" in s.buttons)
    await restart(h, database)
    return max(await h.bot.store.match_ids()), challenge, [alice, bob]


async def status(h: OfflineDiscord, match_id: int) -> Status:
    row = await h.bot.store.get_match(match_id)
    assert row is not None
    return Status(row.status)


@covers(views.AcceptButton)
async def accept_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, challenge, (_, bob) = await post_challenge(h, database)
    await h.click(bob, challenge.message_id or 0, "Accept")
    assert await status(h, match_id) == Status.ACTIVE
    assert any("your move" in s.content for s in public(h.sent))


@covers(views.DeclineButton)
async def decline_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, challenge, (_, bob) = await post_challenge(h, database)
    (edit,) = edits(await h.click(bob, challenge.message_id or 0, "Decline"))
    assert "bob declined." in edit.content and edit.buttons == []
    assert await status(h, match_id) == Status.DECLINED


@covers(views.WithdrawButton)
async def withdraw_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, challenge, (alice, _) = await post_challenge(h, database)
    (edit,) = edits(await h.click(alice, challenge.message_id or 0, "Withdraw"))
    assert "alice withdrew the challenge." in edit.content and edit.buttons == []
    assert await status(h, match_id) == Status.WITHDRAWN


@covers(views.RematchButton)
async def rematch_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, (alice, bob) = await start_match(h)
    (result,) = [s for s in public(await resign(h, bob)) if "Rematch" in s.buttons]
    await restart(h, database)
    await h.click(bob, result.message_id or 0, "Rematch")
    rematch = max(await h.bot.store.match_ids())
    assert rematch != match_id and await status(h, rematch) == Status.PENDING
    await restart(h, database)
    await h.click(alice, result.message_id or 0, "Rematch")  # asking again is accepting
    assert await status(h, rematch) == Status.ACTIVE


@covers(views.DrawButton)
async def draw_answers_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, (alice, bob) = await start_match(h)
    (offer,) = public(await h.command(alice, "draw"))
    await restart(h, database)
    (edit,) = edits(await h.click(bob, offer.message_id or 0, "Decline"))
    assert "bob declined the draw" in edit.content and edit.buttons == []
    (offer,) = public(await h.command(alice, "draw"))
    await restart(h, database)
    posted = public(await h.click(bob, offer.message_id or 0, "Accept draw"))
    assert "draw (agreement)" in posted[0].content
    assert await status(h, match_id) == Status.FINISHED


@covers(views.MoveButton)
async def move_after_restart(h: OfflineDiscord, database: str) -> None:
    _, (alice, _) = await start_match(h)
    board = h.latest(lambda s: "Move" in s.buttons)
    await restart(h, database)
    (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
    assert "Pick where your move starts" in picker.content


async def open_picker(h: OfflineDiscord, *chosen: str) -> tuple[int, Sent, Any]:
    """alice opens the picker on her board and makes these choices in it."""
    match_id, (alice, _) = await start_match(h)
    board = h.latest(lambda s: "Move" in s.buttons)
    (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
    for choice in chosen:
        await h.choose(alice, picker.message_id or 0, choice)
    return match_id, picker, alice


@covers(views.PickSelect)
async def pick_after_restart(h: OfflineDiscord, database: str) -> None:
    _, picker, alice = await open_picker(h)
    await restart(h, database)
    (edit,) = edits(await h.choose(alice, picker.message_id or 0, "a1"))
    assert "a1" in edit.content and "Back" in edit.buttons


@covers(views.PickPlay)
async def play_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, picker, alice = await open_picker(h, "a1", "e3")
    await restart(h, database)
    (posted,) = public(await h.click(alice, picker.message_id or 0, "Play a1e3"))
    assert "alice played **a1e3**" in posted.content
    assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3"]


@covers(views.KeepButton)
async def confirmed_move_after_restart(h: OfflineDiscord, database: str) -> None:
    """A typed move shown first (confirm-move): Cancel, then Play, each after a restart."""
    match_id, (alice, _) = await start_match(h)
    await h.command(alice, "settings", confirm="on")
    (shown,) = private(await h.command(alice, "move", move="a1e3"))
    await restart(h, database)
    (edit,) = edits(await h.click(alice, shown.message_id or 0, "Cancel"))
    assert edit.content == "Cancelled: nothing changed." and edit.buttons == []
    (shown,) = private(await h.command(alice, "move", move="a1e3"))
    await restart(h, database)
    (posted,) = public(await h.click(alice, shown.message_id or 0, "Play a1e3"))
    assert "alice played **a1e3**" in posted.content
    assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3"]


@covers(views.PickBack)
async def back_after_restart(h: OfflineDiscord, database: str) -> None:
    _, picker, alice = await open_picker(h, "a1")
    await restart(h, database)
    (edit,) = edits(await h.click(alice, picker.message_id or 0, "Back"))
    assert "Pick where your move starts" in edit.content and "Back" not in edit.buttons


@covers(views.TakebackButton)
async def takeback_answers_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, (alice, bob) = await start_match(h)
    await h.command(alice, "move", move="a1e3")
    (asked,) = public(await h.command(alice, "takeback"))
    await restart(h, database)
    (edit,) = edits(await h.click(bob, asked.message_id or 0, "Decline"))
    assert "bob declined: the move stands" in edit.content
    (again,) = public(await h.command(alice, "takeback"))
    await restart(h, database)
    sent = await h.click(bob, again.message_id or 0, "Accept takeback")
    assert "**a1e3** was taken back" in public(sent)[0].content
    assert (await h.bot.service.cache.get(match_id)).row.ply == 0


@covers(views.ResignButton)
async def resign_answers_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, (alice, bob) = await start_match(h)
    await h.command(alice, "move", move="a1e3")  # a game without turns has no replay
    (question,) = private(await h.command(bob, "resign"))
    await restart(h, database)
    sent = await h.click(bob, question.message_id or 0, "Cancel")
    assert [s.content for s in edits(sent)] == ["Cancelled: nothing changed."]
    assert await status(h, match_id) == Status.ACTIVE
    (question,) = private(await h.command(bob, "resign"))
    await restart(h, database)
    posted, replay = public(await h.click(bob, question.message_id or 0, "Resign"))
    assert "bob resigned" in posted.content and replay.content.startswith("Replay of")
    assert await status(h, match_id) == Status.FINISHED


@covers(views.HistoryButton)
async def history_pages_after_restart(h: OfflineDiscord, database: str) -> None:
    for _ in range(HISTORY_PAGE + 1):  # two pages
        match_id, (alice, bob) = await start_match(h)
        await h.bot.service.turns.resign(match_id, bob.id)
    (first,) = private(await h.command(alice, "history", game="quorum"))
    await restart(h, database)
    (second,) = edits(await h.click(alice, first.message_id or 0, "▶"))
    assert "Page 2 of 2" in second.embeds[0]["description"]
    await restart(h, database)
    (back,) = edits(await h.click(alice, first.message_id or 0, "◀"))
    assert "Page 1 of 2" in back.embeds[0]["description"]


@covers(views.ReplayButton)
async def replay_steps_after_restart(h: OfflineDiscord, database: str) -> None:
    match_id, (alice, bob) = await start_match(h)
    await h.command(alice, "move", move="a1e3")
    (shown,) = private(await h.command(bob, "replay", match=str(match_id)))
    await restart(h, database)
    (back,) = edits(await h.click(bob, shown.message_id or 0, "◀"))
    assert "turn 0 of 1" in back.content
    await restart(h, database)
    (forth,) = edits(await h.click(bob, shown.message_id or 0, "▶"))
    assert "turn 1 of 1" in forth.content


async def post_entry(h: OfflineDiscord, database: str) -> Sent:
    """alice opens a tournament; the bot restarts before anyone presses its buttons."""
    await h.command(h.user("alice"), "tournament create", game="quorum", format="swiss")
    entry = h.latest(lambda s: "Join" in s.buttons)
    await restart(h, database)
    return entry


@covers(views.JoinButton)
async def join_after_restart(h: OfflineDiscord, database: str) -> None:
    entry = await post_entry(h, database)
    bob = h.user("bob")
    (edit,) = edits(await h.click(bob, entry.message_id or 0, "Join"))
    assert f"<@{bob.id}>" in edit.content and "Entrants (2)" in edit.content


@covers(views.LeaveButton)
async def leave_after_restart(h: OfflineDiscord, database: str) -> None:
    entry = await post_entry(h, database)
    bob = h.user("bob")
    await h.click(bob, entry.message_id or 0, "Join")
    sent = await h.click(bob, entry.message_id or 0, "Leave")
    assert "You have left tournament #1." in private(sent)[-1].content
    assert "Entrants (1)" in edits(sent)[-1].content


def _defined_in_views() -> set[type[Any]]:
    return {
        member
        for _, member in inspect.getmembers(views, inspect.isclass)
        if issubclass(member, ui.DynamicItem) and member.__module__ == views.__name__
    }


def test_every_persistent_item_has_a_case(offline: Any) -> None:
    """The items the running bot routes clicks to, the ones views.py defines and the cases
    here are the same set: a new button needs a restart case."""

    async def scenario(h: OfflineDiscord) -> set[type[Any]]:
        return set(h.bot._connection._view_store._dynamic_items.values())

    registered = offline(scenario)
    assert registered == set(views.PERSISTENT_ITEMS) == _defined_in_views() == set(CASES)


@pytest.mark.parametrize("item", list(CASES), ids=lambda item: item.__name__)
def test_a_persistent_item_works_after_a_restart(
    offline: Any, database: str, item: type[Any]
) -> None:
    offline(lambda h: CASES[item](h, database))
