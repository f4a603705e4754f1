"""Tournaments end to end through the offline Discord (issue 30): entries, a Swiss event and a
round robin played out by resignations, withdrawals, and a restart in the middle of a round."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from bot.offline import OfflineDiscord, Sent, User
from bot.posts import tournament_texts as texts
from bot.service import Match, MatchService, Player
from bot.service.tournaments import MAX_PLAYERS, Finished
from bot.store import JobKind, Status, open_store
from tests.bot.support import new_bot, private, public, resign

pytestmark = pytest.mark.both_backends  # new tables: their SQL runs on both

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


async def entered(h: OfflineDiscord, count: int, **options: Any) -> tuple[list[User], Sent]:
    """alice creates a tournament and the next `count - 1` users press Join."""
    users = [h.user(name) for name in NAMES[:count]]
    options.setdefault("game", "quorum")
    options.setdefault("format", "swiss")
    await h.command(users[0], "tournament create", **options)
    entry = h.latest(lambda s: "Join" in s.buttons)
    for user in users[1:]:
        await h.click(user, entry.message_id or 0, "Join")
    return users, entry


async def running(h: OfflineDiscord, tournament_id: int) -> list[Match]:
    """The tournament's matches still being played, by board."""
    boards = await h.bot.store.boards(tournament_id)
    matches = [await h.bot.service.cache.get(b.match_id) for b in boards if b.match_id is not None]
    return [m for m in matches if m.status == Status.ACTIVE]


async def play_round(h: OfflineDiscord, tournament_id: int, users: list[User]) -> None:
    """Every running game ends: the seat-2 player resigns (so seat 1 wins)."""
    by_id = {u.id: u for u in users}
    for match in await running(h, tournament_id):
        await resign(h, by_id[match.at(2).user_id], match.channel_id)


def test_a_five_player_swiss_over_three_rounds(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry = await entered(h, 5, format="swiss")
        assert f"<@{users[4].id}>" in h.latest(lambda s: s.message_id == entry.message_id).content
        await h.command(users[0], "tournament start")
        threads = [s for s in h.sent if s.kind == "thread"]
        labels = {s.message_id: s.content for s in public(h.sent)}
        assert len(threads) == 2, "each game of round 1 has its thread"
        for thread in threads:
            assert labels[thread.message_id].startswith("Tournament #1, round 1: <@")
        for number in (1, 2, 3):
            row = await h.bot.store.get_tournament(1)
            assert row is not None and row.round == number
            assert len(await running(h, 1)) == 2
            await play_round(h, 1, users)
        row = await h.bot.store.get_tournament(1)
        assert row is not None and row.stage == "finished" and row.round == 3
        boards = await h.bot.store.boards(1)
        games = [frozenset((b.first_id, b.second_id)) for b in boards if b.second_id]
        assert len(games) == 6 and len(set(games)) == 6, "no pair meets twice"
        byes = [b.first_id for b in boards if b.second_id is None]
        assert len(set(byes)) == 3, "three different players had the bye"
        assert sum(b.points or 0 for b in boards) + sum(
            1 - (b.points or 0) for b in boards if b.second_id
        ) == len(games) + len(byes)
        final = h.latest(lambda s: "is over" in s.content)
        table = (await h.bot.service.tournaments.get(1)).standings()
        assert sum(s.points for s in table) == 9
        winner = table[0].player
        assert final.content.count("Buchholz") == 5 and f"<@{winner}>" in final.content
        (pinged,) = [b["allowed_mentions"] for _, _, b in h.requests if b and "is over" in str(b)]
        assert [int(u) for u in pinged["users"]] == [winner], "the winner alone is pinged"

    offline(scenario)


def test_a_four_player_round_robin_meets_every_pair_once(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, _ = await entered(h, 4, format="round-robin")
        await h.command(users[0], "tournament start")
        for _ in range(3):
            await play_round(h, 1, users)
        row = await h.bot.store.get_tournament(1)
        assert row is not None and row.stage == "finished" and row.rounds == 3
        boards = await h.bot.store.boards(1)
        pairs = sorted(sorted((b.first_id, b.second_id or 0)) for b in boards)
        ids = sorted(u.id for u in users)
        assert pairs == [list(p) for p in itertools.combinations(ids, 2)]
        assert "Sonneborn-Berger" in h.latest(lambda s: "is over" in s.content).content

    offline(scenario)


def test_a_restart_in_the_middle_of_a_round_changes_nothing(offline: Any, database: str) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry = await entered(h, 4, format="swiss")
        await h.command(users[0], "tournament start")
        first, second = await running(h, 1)
        by_id = {u.id: u for u in users}
        await resign(h, by_id[first.at(2).user_id], first.channel_id)
        winner = first.at(1).user_id
        table = h.latest(lambda s: s.message_id == entry.message_id).content
        assert f"1. <@{winner}> · **1** · 1 game" in table, "the entry message counts it"
        await h.restart(new_bot(database))
        assert len(await running(h, 1)) == 1, "the restart opened nothing"
        row = await h.bot.store.get_tournament(1)
        assert row is not None and row.round == 1
        await resign(h, by_id[second.at(2).user_id], second.channel_id)
        row = await h.bot.store.get_tournament(1)
        assert row is not None and row.round == 2
        assert len(await running(h, 1)) == 2
        assert len(await h.bot.store.boards(1)) == 4

    offline(scenario)


def test_a_bad_tournament_is_refused_privately_and_nothing_is_stored(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        refusals = (
            ({"format": "swiss", "double": True}, "Only a round robin can be double."),
            ({"format": "round-robin", "rounds": 4}, "A round robin plays as many rounds"),
            ({"format": "swiss", "max_players": 2}, "2 is out of range for max_players."),
            ({"format": "swiss", "rounds": 2**31}, "2147483648 is out of range for rounds."),
            ({"format": "swiss", "variant": "huge"}, "Quorum has no variant"),
        )
        for options, reason in refusals:
            sent = await h.command(alice, "tournament create", game="quorum", **options)
            (refusal,) = sent
            assert refusal.ephemeral and refusal.content.startswith(reason), refusal.content
        assert await h.bot.store.get_tournament(1) is None

    offline(scenario)


def test_entries_start_and_withdrawal(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, entry = await entered(h, 3, format="swiss")
        stranger = h.user("mallory", manager=False)
        (refusal,) = private(await h.command(stranger, "tournament start"))
        assert "only alice, who created it" in refusal.content.lower()
        await h.click(users[2], entry.message_id or 0, "Leave")
        (refusal,) = private(await h.command(users[0], "tournament start"))
        assert "needs 3" in refusal.content
        await h.click(users[2], entry.message_id or 0, "Join")
        listed = private(await h.command(users[1], "tournament list"))[0].content
        assert "#1" in listed and "taking entries" in listed
        await h.command(users[0], "tournament start")
        (match,) = await running(h, 1)
        player = users[0] if match.seat_of(users[0].id) else users[1]
        sent = await h.command(player, "tournament leave")
        assert "withdrawn" in private(sent)[-1].content and "1 running game resigned" in (
            private(sent)[-1].content
        )
        done = await h.bot.service.cache.get(match.id)
        assert done.status == Status.FINISHED
        tournament = await h.bot.service.tournaments.get(1)
        assert player.id not in tournament.active
        shown = h.latest(lambda s: s.message_id == entry.message_id).content
        assert "Standings:" in shown and f"<@{player.id}> (withdrawn)" in shown, shown
        assert h.latest(lambda s: s.message_id == entry.message_id).buttons == []

    offline(scenario)


def test_racing_processes_begin_a_round_and_score_a_board_once(database_url: str) -> None:
    """Several stores (as several processes would hold) finish the same round at once: the
    round begins once, each board takes one match and one result, a full field turns the
    next entrant away, and nobody leaves once it runs."""

    async def main() -> None:
        first = await open_store(database_url)
        racers = [first, *[await open_store(database_url) for _ in range(3)]]
        tournament = await first.create_tournament(
            guild_id=1, channel_id=2, creator_id=11, game="quorum", variant="standard",
            system="swiss", rounds=0, days_per_move=3, max_players=3, rated=True, double=False,
        )  # fmt: skip
        entered = await asyncio.gather(
            *(
                s.enter(tournament, user, f"u{user}")
                for s, user in zip(racers, (11, 12, 13, 14), strict=True)
            )
        )
        assert sorted(entered) == [False, True, True, True], "the last of four finds it full"
        assert len(await first.entrants(tournament)) == 3
        entrants = [e.user_id for e in await first.entrants(tournament)]
        assert not await first.enter(tournament, entrants[0], "again")
        assert await first.start_tournament(tournament, 3)
        assert not await first.leave(tournament, entrants[1]), "entries are closed"
        boards = [(11, 13, None), (12, None, 1.0)]
        began = await asyncio.gather(*(s.begin_round(tournament, 1, boards) for s in racers))
        assert sorted(began) == [False, False, False, True]
        assert len(await first.boards(tournament)) == 2
        service = MatchService(first)
        request = service.challenges.prepare(
            guild_id=1, channel_id=2, challenger=Player(11, "u11"), game="quorum",
            opponents=[Player(13, "u13")],
        )  # fmt: skip
        matches = [await service.challenges.open(request) for _ in racers]
        claimed = await asyncio.gather(
            *(
                s.set_board_match(tournament, 1, 1, m.id)
                for s, m in zip(racers, matches, strict=True)
            )
        )
        assert sorted(claimed) == [False, False, False, True]
        scored = await asyncio.gather(*(s.score_board(tournament, 1, 1, 0.5) for s in racers))
        assert sorted(scored) == [False, False, False, True]
        (board, bye) = await first.boards(tournament)
        assert board.points == 0.5 and board.match_id in [m.id for m in matches]
        assert (bye.second_id, bye.points) == (None, 1.0)
        assert await first.board_of_match(board.match_id or 0) == (tournament, board)
        finished = await asyncio.gather(*(s.finish_tournament(tournament) for s in racers))
        assert sorted(finished) == [False, False, False, True]
        for store in racers:
            await store.close()

    asyncio.run(main())


def test_sixty_four_entrants_each_read_their_whole_line(offline: Any) -> None:
    """The largest field: the entry message, /tournament standings and the final post split
    between lines, so every entrant's line arrives whole in messages Discord accepts."""

    async def scenario(h: OfflineDiscord) -> None:
        users = [h.user(f"player{n}") for n in range(MAX_PLAYERS)]
        await h.command(users[0], "tournament create", game="quorum", format="swiss",
                        max_players=MAX_PLAYERS)  # fmt: skip
        entry = h.latest(lambda s: "Join" in s.buttons)
        for user in users[1:]:
            await h.click(user, entry.message_id or 0, "Join")
        shown = h.latest(lambda s: s.message_id == entry.message_id).content
        assert all(f"<@{u.id}>" in shown for u in users), "every entrant is listed"
        await h.command(users[0], "tournament start")
        await play_round(h, 1, users)
        tournament = await h.bot.service.tournaments.get(1)
        lines = {texts.standing_line(s, tournament) for s in tournament.standings()}
        assert len(lines) == MAX_PLAYERS
        table = h.latest(lambda s: s.message_id == entry.message_id).content
        assert len(table) <= 2000 and "`/tournament standings` shows the whole table" in table
        assert set(table.splitlines()[3:-1]) <= lines, "the entry message cuts no line"
        answers = private(await h.command(users[1], "tournament standings"))
        assert len(answers) > 1 and all(len(a.content) <= 2000 for a in answers)
        assert lines <= {line for a in answers for line in a.content.splitlines()}
        winners = [s.player for s in tournament.standings() if s.rank == 1]
        before = len(h.sent)
        await h.bot.get_cog("Tournaments").on_event(Finished(tournament, early=False))  # type: ignore[union-attr]
        final = [s.content for s in public(h.sent[before:]) if s.message_id != entry.message_id]
        assert len(final) > 1 and "is over" in final[0] and all(len(p) <= 2000 for p in final)
        assert lines <= {line for part in final for line in part.splitlines()}
        assert all(f"<@{w}>" in final[0] for w in winners)

    offline(scenario)


def test_a_round_that_begins_during_an_outage_gets_its_boards_and_clocks_after_it(
    offline: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord fails every post when the tournament starts: its games still begin, each
    board (saying who plays whom) comes once Discord is back, and only then do clocks run."""

    async def scenario(h: OfflineDiscord) -> None:
        users, _ = await entered(h, 3, format="round-robin", days=1)
        h.fail_posts(3 * 3600)
        await h.command(users[0], "tournament start")
        (match,) = await running(h, 1)
        assert await h.bot.store.due_time(match.id, JobKind.TIMEOUT, 0) is None
        sent = await h.advance(4 * 3600)
        (board,) = [s for s in public(sent) if s.pngs]
        assert "begins" in board.content and "Posted late" in board.content
        assert await h.bot.store.due_time(match.id, JobKind.TIMEOUT, 0) is not None
        assert not [r for r in caplog.records if r.levelname == "ERROR"]

    offline(scenario)
