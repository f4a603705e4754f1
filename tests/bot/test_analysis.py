"""/analysis end to end: a finished Boku game whose loser handed over a five is analysed in
its thread (graph, summary, the blunder's board, alt text), a running match is refused, a
second request joins the first, /replay shows each turn's evaluation, a stopped analysis
resumes where it stopped, and the computer's moves do not wait for an analysis.

The analysis searches by a node budget (AI_NODES) with the match's seed, so every run
judges alike."""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ai.analysis import Judgement, Mark
from ai.reading import Reading
from bot import Settings, create_bot
from bot.clock import ManualClock
from bot.offline import OfflineDiscord, run_offline
from bot.posts.analyst import marked_move, worst_moves
from bot.settings import SettingsError, load_settings
from bot.texts import say
from tests.ai.readers import slow_read
from tests.bot.support import START, new_bot, private, public, start_match

NODES = 1000  # per position: enough for the blunder below to stand out, and no other move
# The match's seed, which seeds the analysis.
SEED = 1
# Dark (alice) builds e3-e5; bob closes only e7, and d6 lets alice make an open four with e2,
# which she misses with e6; bob then fails to take e2 and alice's five is made. The three
# errors are blunders, and bob's f7, which left e5 to alice, an inaccuracy
# (tests/ai/test_analysis.py reads the same position).
GAME = "e3 e7 e4 f7 e5 d6 e6 a2 e2".split()
STANDING_IN = Reading((0.123, 0.877), "a1")  # a reading no search gives, to spot it


async def played(h: OfflineDiscord) -> tuple[int, list[Any]]:
    match_id, users = await start_match(h, "boku")
    for index, move in enumerate(GAME):
        await h.command(users[index % 2], "move", move=move)
    return match_id, users


def test_a_handed_over_five_is_a_blunder_posted_with_graph_and_summary(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await played(h)
        carol = h.user("carol")  # not a player: anyone who can see the match may ask
        sent = await h.command(carol, "analysis", match=str(match_id))
        (answer,) = private(sent)
        assert "The computer is analysing Boku #1 (10 positions)" in answer.content
        posts = public(sent)
        progress, graph, *blunders = posts
        assert len(blunders) == 4, "alice's e6, bob's f7, d6 and a2"
        (blunder,) = [b for b in blunders if "bob played a2" in b.content]
        assert progress.content.startswith("Analysing Boku #1: 0 of 10 positions")
        edits = [
            s.content for s in h.sent if s.kind == "edit" and s.message_id == progress.message_id
        ]
        assert (
            "Analysing Boku #1: all 10 positions judged; the computer is now looking again"
            in (edits[0])
        ), "the second looks are announced as they begin"
        assert edits[0].endswith("(1 so far).")
        done = h.messages[progress.message_id or 0]["content"]
        assert done.startswith("Computer analysis of Boku #1: all 10 positions judged")
        assert "then 4 boards of the worst ones" in done, "it says what follows"
        (embed,) = graph.embeds
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert "0 inaccuracies, 0 mistakes, 1 blunder " in fields["alice"]
        assert "1 inaccuracy, 0 mistakes, 2 blunders" in fields["bob"]
        assert "\nTurn 7, e6: blunder, 100% to " in fields["alice"]
        assert "\nTurn 8, a2: blunder, " in fields["bob"] and "to 0%; better e2" in fields["bob"]
        assert len(fields["bob"].splitlines()) == 4, "the summary, then each marked move"
        assert "alice wins (five)" in embed["description"]
        assert graph.pngs and blunder.pngs
        alt = h.messages[graph.message_id or 0]["attachments"][0]["description"]
        assert alt.startswith("Graph of each player's chance to win Boku #1")
        assert "Turn 8, bob played a2" in alt and "blunder" in alt
        assert blunder.content.startswith("Turn 8: bob played a2, a blunder")
        assert "The computer preferred e2" in blunder.content
        board_alt = h.messages[blunder.message_id or 0]["attachments"][0]["description"]
        assert "Left: after bob played a2" in board_alt and "Right: after e2" in board_alt
        again = private(await h.command(alice, "analysis", match=str(match_id)))
        assert "has been analysed already" in again[0].content
        assert not public(h.sent[-2:]), "asking again posts nothing new"

    offline(scenario, ai_nodes=NODES, seeds=lambda: SEED)


def test_a_running_match_is_refused_and_nothing_is_queued(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, "boku")
        sent = await h.command(alice, "analysis")
        (refusal,) = private(sent)
        assert refusal.content.startswith("Boku #1 is not finished.")
        assert "finished matches only" in refusal.content
        assert not public(sent)
        assert await h.bot.store.analysis(match_id) is None

    offline(scenario, ai_nodes=NODES)


def test_a_second_request_joins_the_first_and_replay_shows_each_turns_evaluation(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await played(h)
        analyses = h.bot.service.analyses
        match = await h.bot.service.cache.get(match_id)
        first = await analyses.request(match, alice.id)
        second = await analyses.request(match, bob.id)
        assert first.started and not second.started and not second.finished
        await h.settle()
        row = await h.bot.store.analysis(match_id)
        assert row is not None and row.finished and row.requested_by == alice.id
        assert len(row.readings) == len(GAME) + 1
        budgets = {s: json.loads(text)["times"] for s, text in row.readings.items()}
        # searched again: 3, 4 and 5 follow moves the judge did not choose (8 budgets; 3 and
        # 5 are also before marked moves, f7 and d6), 6 and 7 are before the marked e6 and
        # a2 (4 budgets); not 8, after a2, whose first reading found alice's win
        assert {s: n for s, n in budgets.items() if n > 1} == {3: 8, 4: 8, 5: 8, 6: 4, 7: 4}
        (shown,) = private(await h.command(bob, "replay", match=str(match_id)))
        assert "Computer's evaluation: alice 100%, bob 0%." in shown.content
        assert "Computer's choice for turn 9: e2 (its line: e2)." in shown.content
        step = await h.click(bob, shown.message_id or 0, "◀")
        text = h.messages[shown.message_id or 0]["content"]
        assert step is not None and "bob's a2 was a blunder" in text
        assert "the computer preferred e2" in text
        assert "Computer's choice for turn 8: e2 (its line: e2 " in text

    offline(scenario, ai_nodes=NODES, seeds=lambda: SEED)


@pytest.mark.both_backends
def test_a_stopped_analysis_resumes_where_it_stopped(database: str) -> None:
    async def main() -> None:
        async with OfflineDiscord(new_bot(database, ai_nodes=NODES)) as h:
            match_id, (alice, _) = await played(h)
            match = await h.bot.service.cache.get(match_id)
            # three positions were judged before the process stopped
            await h.bot.store.start_analysis(match_id, alice.id, len(GAME) + 1)
            for step in range(3):
                text = json.dumps(STANDING_IN.to_json())
                await h.bot.store.save_reading(match_id, step, text)
            assert match.status == "finished"
            await h.restart(new_bot(database, ai_nodes=NODES))
            await h.settle()
            row = await h.bot.store.analysis(match_id)
            assert row is not None and row.finished
            kept = [Reading.from_json(json.loads(row.readings[s])) for s in range(4)]
            # the first pass kept them (a second look may replace one, the move after it
            # being marked)
            assert all(k == STANDING_IN or k.deeper for k in kept[:3])
            assert STANDING_IN in kept[:3] and kept[3] != STANDING_IN
            assert any(s.pngs for s in public(h.sent)), "the graph is posted after the restart"

    asyncio.run(main())


def test_the_computers_moves_do_not_wait_for_an_analysis(database: str) -> None:
    async def main() -> None:
        settings = Settings(token="offline", database_url=database, ai_nodes=40)
        bot = create_bot(settings, clock=ManualClock(START), read=slow_read)
        async with OfflineDiscord(bot) as h:
            match_id, (alice, _) = await played(h)
            await h.command(alice, "challenge", game="quorum", opponent=h.bot_user, level=1)
            versus = max(await h.bot.store.match_ids())
            match = await h.bot.service.cache.get(match_id)
            await h.bot.service.analyses.request(match, alice.id)  # 2 s a position
            moved = asyncio.ensure_future(h.command(alice, "move", move="a1e3"))
            while len(await h.bot.store.moves(versus)) < 2:
                await asyncio.sleep(0.05)
            row = await h.bot.store.analysis(match_id)
            assert row is not None and not row.finished, "the reply came during the analysis"
            assert len(row.readings) < row.positions
            await h.bot.service.analyses.close()
            await moved

    asyncio.run(main())


def test_an_offline_script_waits_for_the_analysis_and_saves_the_graph(tmp_path: Path) -> None:
    moves = "\n".join(
        f"{('alice', 'bob')[i % 2]}: /move move:{move}" for i, move in enumerate(GAME)
    )
    script = (
        "alice: /challenge game:boku opponent:@bob\nbob: click Accept\n"
        f"{moves}\nalice: /analysis match:1\n"
    )
    settings = Settings(database_path=tmp_path / "bot.sqlite3", ai_nodes=NODES)
    out = io.StringIO()
    asyncio.run(run_offline(settings, io.StringIO(script), out))
    text = out.getvalue()
    graph = text.index("boku-1-analysis.png")
    assert text.index("alice: /analysis match:1") < graph < text.index("End of input")
    assert (tmp_path / "offline" / "boku-1-analysis.png").read_bytes().startswith(b"\x89PNG")


def test_analysis_seconds_setting() -> None:
    assert load_settings({}, None).analysis_seconds == 0.5
    assert load_settings({"ANALYSIS_SECONDS": "2"}, None).analysis_seconds == 2.0
    for wrong in ("0", "-1", "soon", "61"):
        with pytest.raises(SettingsError, match="ANALYSIS_SECONDS must be a number"):
            load_settings({"ANALYSIS_SECONDS": wrong}, None)


def test_a_marked_move_names_the_better_move_or_says_none_was_found() -> None:
    judged = [
        Judgement(5, (0.7, 0.3), 2, "e4", "d4", 30.0, Mark.BLUNDER, better="d4"),
        Judgement(6, (1.0, 0.0), 1, "d4", "d4", 0.0),
        Judgement(7, (1.0, 0.0)),
    ]
    assert say(marked_move(judged, 0)) == "Turn 1, e4: blunder, 30% to 0%; better d4"
    alone = [replace(judged[0], best="e4", better=None), *judged[1:]]
    assert say(marked_move(alone, 0)) == "Turn 1, e4: blunder, 30% to 0%; nothing better found"
    assert worst_moves(judged, 2) == [0] and worst_moves(alone, 2) == []
