"""Correspondence play (issue 27): open challenges, rematches, draw offers with buttons and
premove lines, each through the offline Discord (those with new SQL on both backends)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import DAY
from bot.offline import OfflineDiscord, Sent
from bot.service import ServiceError
from tests.bot.support import OPENING, private, public, resign, start_match


def edits(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.kind == "edit"]


def with_rematch(sent: list[Sent]) -> list[Sent]:
    """The result post (its replay follows as a message of its own)."""
    return [s for s in public(sent) if "Rematch" in s.buttons]


def refusal(sent: list[Sent]) -> str:
    """The one private answer, its first letter as the service wrote it (lower case)."""
    (answer,) = private(sent)
    return answer.content[:1].lower() + answer.content[1:]


@pytest.mark.both_backends
def test_an_open_challenge_seats_whoever_accepts_first_in_order(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, carol, dave = (h.user(n) for n in ("alice", "carol", "dave"))
        (posted,) = public(await h.command(alice, "challenge", game="boost", players=3, days=5))
        assert "challenges anyone here to **Boost**" in posted.content
        assert "2 seats are open" in posted.content and "5 days per move" in posted.content
        assert posted.buttons == ["Accept", "Withdraw"]
        challenge = posted.message_id or 0
        assert "your own challenge" in refusal(await h.click(alice, challenge, "Accept"))
        assert "only alice" in refusal(await h.click(carol, challenge, "Withdraw"))

        (edit,) = edits(await h.click(carol, challenge, "Accept"))
        assert "Accepted so far: carol" in edit.content and "1 seat is open" in edit.content
        assert "already accepted" in refusal(await h.click(carol, challenge, "Accept"))
        sent = await h.click(dave, challenge, "Accept")
        assert "Everyone accepted" in edits(sent)[0].content
        match = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        assert [(s.name, s.user_id) for s in match.seats] == [
            ("alice", alice.id),
            ("carol", carol.id),
            ("dave", dave.id),
        ]
        assert match.row.days_per_move == 5 and match.row.rated
        (board,) = [s for s in public(sent) if s.pngs]
        assert f"<@{alice.id}>, your move" in board.content

    offline(scenario)


def test_open_challenges_check_players_and_can_be_withdrawn(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        wrong = await h.command(alice, "challenge", game="quorum", players=3)
        assert "is played by 2 players, not 3" in refusal(wrong)
        both = await h.command(alice, "challenge", game="quorum", opponent=bob, players=2)
        assert "players is for open challenges" in refusal(both)
        assert await h.bot.store.match_ids() == []
        (posted,) = public(await h.command(alice, "challenge", game="quorum", rated=False))
        assert "unrated" in posted.content
        (edit,) = edits(await h.click(alice, posted.message_id or 0, "Withdraw"))
        assert "alice withdrew the challenge" in edit.content
        with pytest.raises(ServiceError, match=r"no longer open \(withdrawn\)"):
            await h.bot.service.challenges.accept(max(await h.bot.store.match_ids()), bob.id)

    offline(scenario)


@pytest.mark.both_backends
def test_a_rematch_rotates_the_seats_and_the_others_accept(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        old_id, (alice, bob) = await start_match(h, days=7, rated=False)
        (result,) = with_rematch(await resign(h, alice))
        assert result.buttons == ["Rematch"]
        stranger = await h.click(h.user("mallory"), result.message_id or 0, "Rematch")
        assert "only the players of Quorum #1" in refusal(stranger)

        sent = await h.click(alice, result.message_id or 0, "Rematch")
        (challenge,) = public(sent)
        assert f"<@{alice.id}> challenges <@{bob.id}>" in challenge.content
        assert "A rematch of match #1, seats rotated" in challenge.content
        assert challenge.buttons == ["Accept", "Decline", "Withdraw"]
        assert "You asked for the rematch Quorum #2: bob vs alice" in private(sent)[0].content
        again = await h.click(alice, result.message_id or 0, "Rematch")
        assert "your own challenge" in refusal(again)

        sent = await h.click(bob, challenge.message_id or 0, "Accept")
        assert "Everyone accepted" in edits(sent)[0].content
        new = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        assert new.id != old_id and new.status == "active"
        assert [s.user_id for s in new.seats] == [bob.id, alice.id]
        assert (new.row.days_per_move, new.row.rated, new.row.variant) == (7, False, "standard")
        (board,) = [s for s in public(sent) if s.pngs]
        assert f"<@{bob.id}>, your move" in board.content

    offline(scenario)


def test_a_rematch_against_the_computer_starts_at_once(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        await h.command(alice, "challenge", game="quorum", opponent=h.bot_user, level=1)
        match_id = max(await h.bot.store.match_ids())
        (result,) = with_rematch(await resign(h, alice))
        await h.click(alice, result.message_id or 0, "Rematch")
        new = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        assert new.id != match_id and new.status == "active"
        assert new.seats[0].engine == 1 and new.seats[1].user_id == alice.id
        assert new.row.ply == 1  # the computer, now first, has moved
        assert [m.seat for m in await h.bot.store.moves(new.id)] == [1]

    offline(scenario)


def test_a_draw_offer_is_accepted_by_its_button(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        (offer,) = public(await h.command(alice, "draw"))
        assert f"alice offers a draw. <@{bob.id}>: press **Accept draw**" in offer.content
        assert offer.buttons == ["Accept draw", "Decline"]
        message = offer.message_id or 0
        stranger = await h.click(h.user("mallory"), message, "Accept draw")
        assert "you are not playing in Quorum #1" in refusal(stranger)
        assert "your own draw offer" in refusal(await h.click(alice, message, "Accept draw"))

        sent = await h.click(bob, message, "Accept draw")
        (edit,) = [s for s in edits(sent) if s.message_id == message]
        assert "bob accepted the draw" in edit.content and edit.buttons == []
        (result,) = [s for s in public(sent) if s.pngs]
        assert "Game over: draw (agreement)" in result.content
        match = await h.bot.service.cache.get(match_id)
        assert match.outcome is not None and match.outcome.reason == "agreement"

    offline(scenario)


def test_a_draw_offer_lapses_when_its_receiver_moves_and_can_be_declined(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        (offer,) = public(await h.command(alice, "draw"))
        sent = await h.command(bob, "move", move="h8h4")
        (lapsed,) = [s for s in edits(sent) if s.message_id == offer.message_id]
        assert "no draw offer stands" in lapsed.content and lapsed.buttons == []
        (offer,) = public(await h.command(bob, "draw"))
        (edit,) = edits(await h.click(alice, offer.message_id or 0, "Decline"))
        assert "alice declined the draw" in edit.content
        match = await h.bot.service.cache.get(match_id)
        assert match.status == "active" and match.row.draw_offer is None
        assert "offers a draw" in public(await h.command(bob, "draw"))[0].content

    offline(scenario)


@pytest.mark.both_backends
def test_a_premove_line_answers_at_once_and_a_broken_line_is_cleared(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        kept = refusal(await h.command(alice, "premove", line="H8H4 b1-d3 g8g4 a2a6"))
        assert "premove line kept" in kept and "h8h4 → **b1d3**, g8g4 → **a2a6**" in kept
        assert "h8h4 → **b1d3**" not in refusal(await h.command(bob, "premove"))

        sent = await h.command(bob, "move", move="h8h4")
        (board,) = public(sent)
        assert "bob played **h8h4**" in board.content
        assert "alice played **b1d3**" in board.content and "(played by premove)" in board.content
        assert f"<@{bob.id}>, your move" in board.content
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["a1e3", "h8h4", "b1d3"]
        listed = refusal(await h.command(alice, "premove"))
        assert "1. g8g4 → **a2a6**" in listed

        (board,) = public(await h.command(bob, "move", move="g7g5"))
        assert "premove" not in board.content and f"<@{alice.id}>, your move" in board.content
        assert "no premove lines" in refusal(await h.command(alice, "premove"))
        assert await h.bot.store.premoves(match_id, 1) is None

    offline(scenario)


def test_premove_lines_are_checked_when_entered(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        mine = await h.command(alice, "premove", line="h8h4 a1e3")
        assert "it is your move now" in refusal(mine)
        await h.command(alice, "move", move="a1e3")
        illegal = refusal(await h.command(alice, "premove", line="h8h4 a1e3"))
        assert "move 2 of the line ('a1e3', yours) is not legal there" in illegal
        odd = refusal(await h.command(alice, "premove", line="h8h4"))
        assert "it ends with yours" in odd
        await h.command(alice, "premove", line="h8h4 b1d3")
        clash = refusal(await h.command(alice, "premove", line="h8h4 a2a6"))
        assert "line 1 answers h8h4 with b1d3, this one with a2a6" in clash
        assert "already plays all of this" in refusal(
            await h.command(alice, "premove", line="h8h4 b1d3")
        )
        stranger = await h.command(h.user("mallory"), "premove", match=str(match_id))
        assert "you are not playing" in refusal(stranger)
        both = await h.command(alice, "premove", line="g8g4 a2a6", clear=True)
        assert "not both" in refusal(both)
        cleared = refusal(await h.command(alice, "premove", clear=True))
        assert "cleared 1 premove line(s)" in cleared
        assert await h.bot.store.premoves(match_id, 1) is None
        boost, _ = await start_match(h, "boost", 3)
        three = await h.command(bob, "premove", match=str(boost), line="a1b2 c3d4")
        assert "premoves are for 2-player matches" in refusal(three)

    offline(scenario)


def test_at_most_ten_premove_lines(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        match = await h.bot.service.cache.get(match_id)
        game = match.game
        replies = [game.format_move(match.state, m) for m in game.legal_moves(match.state)]
        for reply in replies[:10]:
            after = game.apply(match.state, game.parse_move(match.state, reply))
            answer = game.format_move(after, game.legal_moves(after)[0])
            assert "kept" in refusal(await h.command(alice, "premove", line=f"{reply} {answer}"))
        after = game.apply(match.state, game.parse_move(match.state, replies[10]))
        answer = game.format_move(after, game.legal_moves(after)[0])
        full = await h.command(alice, "premove", line=f"{replies[10]} {answer}")
        assert "already have 10 lines" in refusal(full)

    offline(scenario)


@pytest.mark.both_backends
def test_a_takeback_of_the_premove_answer_clears_the_lines(offline: Any) -> None:
    """The answer lands with the move it answers, so the opponent cannot take that move back;
    the premove's player may take back their answer, which voids their remaining lines."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(alice, "premove", line="h8h4 b1d3 g8g4 a2a6")
        await h.command(bob, "move", move="h8h4")
        assert "only take back your own move" in refusal(await h.command(bob, "takeback"))
        (asked,) = public(await h.command(alice, "takeback"))
        await h.click(bob, asked.message_id or 0, "Accept takeback")
        assert (await h.bot.service.cache.get(match_id)).row.ply == 2
        assert await h.bot.store.premoves(match_id, 1) is None

    offline(scenario)


def test_a_premove_answer_loses_a_race_to_whatever_landed_first(offline: Any) -> None:
    """The answer is saved under the ply check like any move: if something else changed the
    match after the move it answers (here a resignation, as from a second process), it is
    not played, and the lines go."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        service = h.bot.service
        await h.command(alice, "move", move="a1e3")
        await h.command(alice, "premove", line="h8h4 b1d3")
        service.turns.answers = None  # the move lands, its answer comes later
        moved = await service.turns.move(match_id, bob.id, "h8h4")
        await service.turns.resign(match_id, bob.id)
        late = await service.premoves.reply(moved)
        assert late.turns == moved.turns and late.match.row.ply == 2
        notations = [m.notation for m in await h.bot.store.moves(match_id)]
        assert notations[:2] == ["a1e3", "h8h4"] and notations[2].startswith("resign")
        assert await h.bot.store.premoves(match_id, 1) is None

    offline(scenario)


def test_a_timeout_before_the_expected_reply_leaves_the_lines_unplayed(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h, days=1)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        await h.command(alice, "move", move="a2a6")  # bob has moved: his timeout is a loss
        await h.command(alice, "premove", line="h5h3 b1d3")
        assert await h.bot.store.premoves(match_id, 1) is not None
        await h.advance(2 * DAY)
        match = await h.bot.service.cache.get(match_id)
        assert match.outcome is not None and match.outcome.reason == "timeout"
        assert tuple(m.notation for m in await h.bot.store.moves(match_id))[:3] == OPENING
        assert len(await h.bot.store.moves(match_id)) == 4  # the moves and the timeout

    offline(scenario)
