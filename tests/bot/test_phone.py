"""What a player reads on a phone (issue 41): turns in one short sentence, a Boku cell in two
choices, alt text that says where the pieces stand, and boards drawn large on request."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from bot.offline import OfflineDiscord, Sent
from bot.offline.records import flat
from bot.posts import limits
from rules import get_game
from rules.kyo import Turn
from rules.kyo.board import BY_NAME, SIDES
from rules.kyo.turns import shortest_spelling
from tests.bot.support import private, public, start_match

NODES = 40  # the computer's node budget: quick and deterministic
SEED = 6  # the match's, so the game plays the same each run (and one of its turns loops)
SEED = 6  # the match's, so the game plays out the same each run (one of its turns loops)
KYO = get_game("kyo")
SEARCHED = 100_000  # actions tried looking for a shorter spelling of a looping turn
MOVE = re.compile(r"\*\*([^*]+)\*\*")


def revisits(move: Turn, state: Any) -> bool:
    """Whether a Kyo turn's route comes back to a tile it has left."""
    last = KYO.last(KYO.apply(state, move))
    assert last is not None
    return len(set(last.path)) < len(last.path)


def test_a_kyo_game_against_the_computer_reads_in_short_sentences(offline: Any) -> None:
    """alice plays the computer at Kyo: each post says each turn in one sentence, with no name
    twice in it, and no computer turn loops round tiles when fewer tokens do the same."""
    rng = random.Random(4)

    async def scenario(h: OfflineDiscord) -> list[tuple[Any, str, str]]:
        alice = h.user("alice")
        await h.command(alice, "challenge", game="kyo", opponent=h.bot_user, level=1)
        match_id = max(await h.bot.store.match_ids())
        replies = []
        for _ in range(12):
            match = await h.bot.service.cache.get(match_id)
            if match.outcome is not None:
                break
            state = match.state
            first = list(itertools.islice(KYO.move_tree(state).moves(breadth_first=True), 40))
            typed = KYO.format_move(state, rng.choice(first))
            after = KYO.apply(state, KYO.parse_move(state, typed))
            (board,) = [s for s in public(await h.command(alice, "move", move=typed)) if s.pngs]
            replies.append((after, board.content, typed))
        return replies

    names = ("alice", "Computer (Red)")
    replies = offline(scenario, ai_nodes=NODES, seeds=lambda: SEED)
    for after, content, typed in replies:
        turns = [
            line for line in content.splitlines() if " played **" in line or " replied **" in line
        ]
        assert len(turns) == 2 and turns[0].startswith(f"alice played **{typed}**"), content
        for line in turns:
            assert line.endswith(".") and ". " not in line.replace("**", ""), line
            assert all(line.count(name) <= 1 for name in names), line
            assert line.count("leaving") <= 1 and line.count("picking up") <= 1, line
        assert "alice's" not in turns[0] and "Computer (Red)'s" not in turns[1], content
        reply = KYO.parse_move(after, MOVE.findall(turns[1])[0])
        assert isinstance(reply, Turn)
        if revisits(reply, after):
            origin, side = BY_NAME[reply.tokens[0]], SIDES[after.turn]
            spelled = shortest_spelling(
                after.board, origin, side, reply.board, reply.tokens, SEARCHED
            )
            assert spelled == reply.tokens, f"{reply} loops where {spelled} does as much"
    assert any(revisits(KYO.parse_move(a, MOVE.findall(c)[1]), a) for a, c, _ in replies)


def menus(sent: Sent) -> list[list[str]]:
    """The values each select menu of a message offers, menu by menu."""
    return [[o["value"] for o in c["options"]] for c in flat(sent.components) if c["type"] == 3]


def test_a_boku_cell_is_picked_in_two_choices(offline: Any) -> None:
    """Boku's 80 opening cells: one menu of letters, then the letter's cells beneath it; the
    cell picked is the whole move, played with one press."""

    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h, "boku")
        board = h.latest(lambda s: "Move" in s.buttons)
        (picker,) = private(await h.click(alice, board.message_id or 0, "Move"))
        assert menus(picker) == [list("abcdefghij")], "one menu: the letters"
        assert "Pick the letter of the square, then the square." in picker.content
        (letter,) = [
            s for s in await h.choose(alice, picker.message_id or 0, "e") if s.kind == "edit"
        ]
        letters, cells = menus(letter)
        assert letters == list("abcdefghij") and cells == [f"e{n}" for n in range(1, 11)]
        assert "Pick the square in e." in letter.content and not letter.buttons
        (cell,) = [
            s for s in await h.choose(alice, picker.message_id or 0, "e5") if s.kind == "edit"
        ]
        assert "Play e5" in cell.buttons, "two choices reached the cell"
        (posted,) = public(await h.click(alice, picker.message_id or 0, "Play e5"))
        assert posted.content.startswith("alice played **e5**")
        assert [m.notation for m in await h.bot.store.moves(match_id)] == ["e5"]

    offline(scenario)


def test_alt_text_says_where_the_pieces_stand(
    offline: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board's alt text names each side's pieces by square, in the rules' words (Boku's
    marbles); Kyo's stacks are counted, and so is any position whose squares would pass
    Discord's limit (made smaller here: real positions fit 1,024 characters)."""

    async def scenario(h: OfflineDiscord) -> tuple[str, str]:
        _, (alice, bob) = await start_match(h, "boku")
        await h.command(alice, "move", move="e5")
        (posted,) = [s for s in public(await h.command(bob, "move", move="f6")) if s.pngs]
        kyo_id, (alice, _) = await start_match(h, "kyo")
        sent = await h.command(alice, "move", None, match=str(kyo_id), move="a4-a5")
        (kyo,) = [s for s in public(sent) if s.pngs]
        return posted.descriptions[0] or "", kyo.descriptions[0] or ""

    boku, kyo = offline(scenario)
    assert boku.endswith("alice: a marble on e5; bob: a marble on f6."), boku
    assert kyo.endswith("alice: 20 pawns, 26 mana chips; bob: 20 pawns, 26 mana chips."), kyo
    monkeypatch.setattr(limits, "ATTACHMENT_DESCRIPTION", len(boku) - 1)
    counted, _ = offline(scenario)
    assert counted.endswith("alice: 1 marble; bob: 1 marble."), counted
