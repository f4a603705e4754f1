"""Every click gets an answer: a press on a component that is no longer on its message (a
client still showing it as it was) or that the bot does not know is answered privately,
saying why, and changes nothing."""

from __future__ import annotations

from typing import Any

from bot.clock import DAY
from bot.offline import OfflineDiscord, Sent, User
from tests.bot.support import private, resign, start_match


async def press(
    h: OfflineDiscord, user: User, message_id: int, custom_id: str, values: list[str] | None = None
) -> Sent:
    """A press with the message as Discord stores it now; returns the one (private) answer."""
    before = len(await h.bot.store.match_ids())
    sent = await h.run(h.component_payload(user, message_id, custom_id, values), user, message_id)
    (answer,) = sent
    assert answer.kind == "message" and answer.ephemeral and answer.for_user == user.id
    assert len(await h.bot.store.match_ids()) == before
    return answer


async def started_tournament(h: OfflineDiscord) -> tuple[list[User], Sent]:
    """alice's Swiss tournament #1, entered by bob and carol and started; its entry message."""
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    await h.command(alice, "tournament create", game="quorum", format="swiss")
    entry = h.latest(lambda s: "Join" in s.buttons)
    for user in (bob, carol):
        await h.click(user, entry.message_id or 0, "Join")
    await h.command(alice, "tournament start")
    return [alice, bob, carol], entry


async def challenged(h: OfflineDiscord) -> tuple[User, User, Sent]:
    """alice challenges bob; the challenge message as posted."""
    alice, bob = h.user("alice"), h.user("bob")
    await h.command(alice, "challenge", game="quorum", opponent=bob)
    return alice, bob, h.latest(lambda s: "Accept" in s.buttons)


def test_accept_on_an_expired_challenge_says_it_expired(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, challenge = await challenged(h)
        await h.advance(7 * DAY)
        stored = h.messages[challenge.message_id or 0]
        assert stored["components"] == [], "the expiry edit took the buttons away"
        answer = await press(h, bob, challenge.message_id or 0, "bg:accept:1")
        assert answer.content.startswith("This challenge expired unanswered after 7 days.")
        assert "ask alice for a new one" in answer.content
        declined = await press(h, bob, challenge.message_id or 0, "bg:decline:1")
        assert declined.content.startswith("This challenge expired")
        assert (await h.bot.service.cache.get(1)).status == "withdrawn"

    offline(scenario)


def test_a_declined_challenge_says_it_is_closed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, challenge = await challenged(h)
        await h.click(bob, challenge.message_id or 0, "Decline")
        answer = await press(h, bob, challenge.message_id or 0, "bg:accept:1")
        assert answer.content == "This challenge is no longer open (declined)."
        assert (await h.bot.service.cache.get(1)).status == "declined"

    offline(scenario)


def test_move_on_a_finished_match_says_it_is_over(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        board = h.latest(lambda s: "Move" in s.buttons)
        await resign(h, alice, (await h.bot.service.cache.get(match_id)).channel_id)
        answer = await press(h, bob, board.message_id or 0, f"bg:move:{match_id}")
        assert answer.content == "Quorum #1 is over (finished).\n-# /replay shows how it went"

    offline(scenario)


def test_an_old_picker_says_the_match_moved_on(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h)
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
        await h.command(alice, "move", move="a1e3")  # typed while the picker is still open
        sent = await h.choose(alice, picker.message_id or 0, "a1")
        (answer,) = [s for s in sent if s.kind == "edit"]
        assert answer.content.startswith(
            "This picker is out of date: the match has moved on since.\nIt is bob's turn"
        )
        assert len(await h.bot.store.moves(match_id)) == 1

    offline(scenario)


def test_a_garbled_or_unknown_custom_id_is_answered(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, challenge = await challenged(h)
        for custom_id in ("bg:accept:one", "bg:teleport:1", "x" * 100):
            answer = await press(h, bob, challenge.message_id or 0, custom_id)
            assert answer.content.startswith("This button is out of date")
        answer = await press(h, bob, challenge.message_id or 0, "bg:accept:99")
        assert answer.content.startswith("There is no match #99 here.")
        answer = await press(h, bob, challenge.message_id or 0, "bg:history:1:all:2:n")
        assert answer.content.startswith("These buttons are out of date")
        assert (await h.bot.service.cache.get(1)).status == "pending"

    offline(scenario)


def test_join_or_leave_after_the_start_changes_nothing(offline: Any) -> None:
    """A client still showing the entry buttons after the start: Leave there must not
    withdraw anyone (that resigns their games)."""

    async def scenario(h: OfflineDiscord) -> None:
        (_, bob, _), entry = await started_tournament(h)
        assert h.messages[entry.message_id or 0]["components"] == []
        for custom_id in ("bg:join:1", "bg:leave:1"):
            answer = await press(h, bob, entry.message_id or 0, custom_id)
            assert answer.content == "Tournament #1 has started; entries are closed."
        assert bob.id in (await h.bot.service.tournaments.get(1)).active

    offline(scenario)
