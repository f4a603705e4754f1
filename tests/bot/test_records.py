"""Game records leaving the bot and coming back (issue 42): the text record and the
APGameRecord JSON written from a match, valid against the schema kept here (written from
Abstract Play's documented format), read back to the same positions turn by turn for every
game and variant; broken files refused naming the line and what was expected."""

from __future__ import annotations

import io
import json
import random
import zipfile
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import rules
from bot.offline import OfflineDiscord, Upload
from bot.records import (
    Export,
    RecordError,
    json_record,
    read_position,
    read_record,
    replay,
    text_record,
)
from bot.records.archive import archives
from bot.texts import say
from fixtures.records import random_export
from rules import Record
from rules.outcomes import Outcome, Reason
from tests.bot.support import private, public, resign, start_match
from tests.bot.test_cli import bot_command
from tests.bot.test_tournaments import entered, play_round

SCHEMA = json.loads((Path(__file__).parent / "apgamerecord.schema.json").read_text())
QUORUM = '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "1"]\n'


def _date_time(value: object) -> bool:
    """RFC 3339's date-time: a date, `T`, a time and an offset (jsonschema checks it only
    with an extra package installed)."""
    if not isinstance(value, str):
        return True
    return "T" in value and datetime.fromisoformat(value).tzinfo is not None


DATES = jsonschema.FormatChecker(formats=())
DATES.checks("date-time", raises=ValueError)(_date_time)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA, format_checker=DATES)
BOUND = {"kyo": 6}  # plies of a random game (Kyo's turns are costly to list)
CASES = [
    (name, variant, players)
    for name, game in rules.GAMES.items()
    for variant, rules_of in game.variants.items()
    for players in rules_of.player_counts
]


@cache
def played(name: str, variant: str, players: int, seed: int) -> tuple[Export, tuple[Any, ...]]:
    """A seeded random game as an Export, with every position it went through."""
    return random_export(name, variant, players, seed, BOUND.get(name, 60))


@pytest.mark.parametrize(("name", "variant", "players"), CASES)
def test_every_game_and_variant_round_trips_turn_by_turn(
    name: str, variant: str, players: int
) -> None:
    game = rules.get_game(name)
    for seed in (1, 2):
        export, states = played(name, variant, players, seed)
        text, data = text_record(export), json_record(export)
        VALIDATOR.validate(json.loads(data))
        for written in (text, data):
            study = read_record(written.encode())
            assert study.names == tuple(p.name for p in export.players)
            again = replay(study)
            assert [game.dump(s) for s in again] == [game.dump(s) for s in states]
        for before, line in zip(states, text.split("\n\n", 1)[1].splitlines(), strict=False):
            turn = line.split(". ", 1)[1]
            if not turn.startswith("resign"):
                assert game.format_move(before, game.parse_move(before, turn)) == turn


def test_a_match_from_a_position_round_trips_from_its_diagram() -> None:
    game = rules.get_game("boost")
    export, states = played("boost", "standard", 3, 5)
    middle = len(states) // 2
    diagram = game.format_diagram(states[middle])
    later = Export(
        **{
            **export.__dict__,
            "turns": export.turns[middle:],
            "seats": export.seats[middle:],
            "position": diagram,
        }
    )
    for written in (text_record(later), json_record(later)):
        again = replay(read_record(written.encode()))
        assert game.format_diagram(again[0]) == diagram
        assert game.outcome(again[-1]) == game.outcome(states[-1])
    assert Record.from_text(text_record(later)).position == diagram


def test_the_rounds_follow_the_seating_order() -> None:
    export, _ = played("quorum", "standard", 2, 1)
    moves = json.loads(json_record(export))["moves"]
    assert [m for row in moves for m in row if m is not None] == list(export.turns)
    assert all(len(row) == 2 for row in moves)
    header = json.loads(json_record(export))["header"]
    assert [p["result"] for p in header["players"]] == [
        int(seat in (export.result or Outcome((), Reason.AGREEMENT)).winners) for seat in (1, 2)
    ]
    assert [p["is_ai"] for p in header["players"]] == [False, True]


def test_the_schema_refuses_what_the_format_forbids() -> None:
    """The schema kept here can fail: each of these breaks one rule of the format."""
    export, _ = played("quorum", "standard", 2, 1)
    good = json.loads(json_record(export))
    VALIDATOR.validate(good)
    broken = [
        {**good, "extra": 1},
        {**good, "header": {k: v for k, v in good["header"].items() if k != "date-end"}},
        {**good, "header": {**good["header"], "players": []}},
        {**good, "header": {**good["header"], "date-start": "yesterday"}},
        {**good, "header": {**good["header"], "event": "Cup"}},
        {**good, "moves": [[1, "a1e3"]]},
        {**good, "header": {**good["header"], "players": [{"name": "x", "result": 0.5}]}},
    ]
    for record in broken:
        assert not VALIDATOR.is_valid(record), record


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[Game "quorum"]\nhello\n', "line 2 is neither"),
        ('[Game "chess"]\n[Variant "x"]\n[Players "2"]\n[Seed "1"]\n', "`chess` is not a game"),
        (
            QUORUM + "\n1. a1e3\n2. a1e3\n",
            "Line 7: turn `a1e3` cannot be played",
        ),
        ('[Game "quorum"]\n[Variant "standard"]\n\n1. a1e3\n3. h8h4\n', "line 5: expected turn 2"),
        ('{"header": {"game": {"name": "Quorum"},\n "players": [}', "Line 2, column"),
        ('{"header": {"game": {"name": 3}}, "moves": []}', "`header.game.name` must be a string"),
        ("", "The file is empty"),
    ],
)
def test_a_broken_file_is_refused_with_where_and_what_was_expected(text: str, said: str) -> None:
    with pytest.raises(RecordError) as refused:
        replay(read_record(text.encode()))
    assert said in say(refused.value.text)


def test_a_json_move_that_cannot_be_played_names_its_round_and_seat() -> None:
    export, _ = played("quorum", "standard", 2, 1)
    data = json.loads(json_record(export))
    data["moves"][1][1] = "a1a1"
    with pytest.raises(RecordError) as refused:
        replay(read_record(json.dumps(data).encode()))
    assert say(refused.value.text).startswith("Round 2, seat 2: turn `a1a1` cannot be played")


def test_a_position_is_a_diagram_or_a_record_that_goes_on() -> None:
    game = rules.get_game("quorum")
    start = game.new()
    assert game.dump(read_position(game, game.format_diagram(start).encode())) == game.dump(start)
    export, states = played("quorum", "standard", 2, 1)
    with pytest.raises(RecordError) as refused:
        read_position(game, text_record(export).encode())
    assert "already over" in say(refused.value.text)
    running = Export(**{**export.__dict__, "turns": export.turns[:3], "result": None})
    assert game.dump(read_position(game, text_record(running).encode())) == game.dump(states[3])
    with pytest.raises(RecordError) as refused:
        read_position(rules.get_game("boku"), text_record(running).encode())
    assert "a game of Quorum, not of Boku" in say(refused.value.text)


def test_archives_split_to_stay_under_the_limit() -> None:
    rng = random.Random(3)
    files = [(f"f{n}.txt", "".join(rng.choices("abcdef", k=3000))) for n in range(30)]
    packed = archives(files, 20_000)
    assert len(packed) > 1 and all(len(p) <= 20_000 for p in packed)
    names = [n for p in packed for n in zipfile.ZipFile(io.BytesIO(p)).namelist()]
    assert names == [name for name, _ in files]


def test_export_of_a_finished_quorum_match(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        await h.command(bob, "move", move="h8h4")
        (running,) = private(await h.command(alice, "export", match=str(match_id)))
        assert [name for name, _ in running.files] == [f"quorum-{match_id}.txt"]
        await resign(h, alice)
        (sent,) = private(await h.command(bob, "export", match=str(match_id)))
        names = [name for name, _ in sent.files]
        assert names == [f"quorum-{match_id}.txt", f"quorum-{match_id}.json"]
        assert all(sent.descriptions)
        text, data = (content.decode() for _, content in sent.files)
        record = json.loads(data)
        VALIDATOR.validate(record)
        header = record["header"]
        assert [p["name"] for p in header["players"]] == ["alice", "bob"]
        assert [p["result"] for p in header["players"]] == [0, 1]
        assert header["reason"] == "resignation" and header["game"]["name"] == "Quorum"
        assert [m for row in record["moves"] for m in row if m] == ["a1e3", "h8h4", "resign 1"]
        assert (
            '[Seat1 "alice (White)' in text and '[Result "bob (Black) wins (resignation)"]' in text
        )
        game = rules.get_game("quorum")
        parsed = Record.from_text(text)
        stored = await h.bot.service.cache.get(match_id)
        assert game.dump(parsed.replay(game)) == game.dump(stored.state)
        start = game.new(seed=parsed.seed)
        assert game.format_move(start, game.parse_move(start, parsed.turns[0])) == "a1e3"

    offline(scenario)


def test_export_all_sends_every_finished_game_in_archives(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        (none,) = private(await h.command(h.user("alice"), "export", all=True))
        assert "no finished games" in none.content
        for _ in range(2):
            _, (alice, _bob) = await start_match(h)
            await resign(h, alice)
        await start_match(h)  # running: not in the archive
        (sent,) = private(await h.command(alice, "export", all=True))
        assert "2 finished games" in sent.content and "archive 1 of 1" in sent.content
        ((name, data),) = sent.files
        assert name.endswith(".zip")
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        assert names == ["quorum-1.txt", "quorum-1.json", "quorum-2.txt", "quorum-2.json"]

    offline(scenario)


def test_an_admin_exports_every_match_of_the_database(tmp_path: Path) -> None:
    script = (
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n"
        "alice: /move move:a1e3\nalice: /resign\nalice: click Resign\n"
        "alice: /challenge game:boku opponent:@bob\nbob: click Accept\n"
        "alice: /challenge game:razzle opponent:@bob\n"
    )
    assert bot_command(tmp_path, "--offline", stdin=script).returncode == 0
    (tmp_path / "data" / "offline" / "offline.sqlite3").replace(tmp_path / "data" / "bot.sqlite3")
    result = bot_command(tmp_path, "--export", "records")
    assert result.returncode == 0, result.stderr
    assert "Wrote 3 record files into records." in result.stdout
    written = sorted(p.name for p in (tmp_path / "records").iterdir())
    assert written == ["boku-2.txt", "quorum-1.json", "quorum-1.txt"]  # not the challenge
    VALIDATOR.validate(json.loads((tmp_path / "records" / "quorum-1.json").read_text()))
    assert "Site" in (tmp_path / "records" / "boku-2.txt").read_text()


@pytest.mark.both_backends
def test_a_match_starts_from_a_diagram(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        game = rules.get_game("quorum")
        _, states = played("quorum", "standard", 2, 1)
        position = states[5]  # black to move
        diagram = game.format_diagram(position)
        alice, bob = h.user("alice"), h.user("bob")
        upload = Upload("position.txt", diagram.encode())
        sent = await h.command(alice, "challenge", game="quorum", opponent=bob, position=upload)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        assert "starts from a position given with the challenge, Black to move" in (
            challenge.content
        )
        assert "is unrated" in challenge.content and not private(sent)
        await h.click(bob, challenge.message_id or 0, "Accept")
        match_id = max(await h.bot.store.match_ids())
        match = await h.bot.service.cache.get(match_id)
        assert not match.row.rated and game.format_diagram(match.state) == diagram
        move = game.format_move(position, game.legal_moves(position)[0])
        await h.command(bob, "move", move=move)
        (exported,) = private(await h.command(alice, "export", match=str(match_id)))
        ((_, text),) = exported.files
        record = Record.from_text(text.decode())
        assert record.position == diagram and record.turns == (move,)
        replayed = replay(read_record(text))
        stored = await h.bot.service.cache.get(match_id)
        assert game.dump(replayed[-1]) == game.dump(stored.state)

    offline(scenario)


def test_a_broken_position_is_refused_privately_naming_its_line(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        broken = QUORUM + "\n1. a1e3\n2. h8h4\n3. zz9\n"
        upload = Upload("game.txt", broken.encode())
        sent = await h.command(alice, "challenge", game="quorum", opponent=bob, position=upload)
        (refusal,) = private(sent)
        assert refusal.content.startswith("Line 8: turn `zz9` cannot be played")
        assert "/export" in refusal.content  # the hint: what a file should be
        assert await h.bot.store.match_ids() == []  # nothing stored
        upload = Upload("boku.txt", b"1: E5\n2:\nto move: 1\n")
        (refusal,) = private(
            await h.command(alice, "challenge", game="quorum", opponent=bob, position=upload)
        )
        assert "neither a game record nor a Quorum diagram" in refusal.content

    offline(scenario)


BOKU = "e3 e7 e4 f7 e5 d6 e6 a2 e2".split()  # tests/bot/test_analysis.py's game: 3 blunders


def test_an_uploaded_record_is_analysed_for_its_member_alone(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        header = '[Game "boku"]\n[Variant "standard"]\n[Players "2"]\n[Seed "1"]\n'
        seats = '[Seat1 "alice"]\n[Seat2 "bob"]\n'
        turns = "\n".join(f"{n}. {move}" for n, move in enumerate(BOKU, start=1))
        upload = Upload("boku.txt", (header + seats + "\n" + turns + "\n").encode())
        carol = h.user("carol")
        sent = await h.command(carol, "analysis", record=upload)
        (answer,) = private(sent)
        assert not public(sent)
        lines = answer.content.splitlines()
        assert lines[0].startswith("Computer analysis of the uploaded Boku record (10 positions)")
        assert "nothing of it is stored" in lines[0]
        assert lines[1].startswith("**alice**:") and "1 blunder" in lines[1]
        assert lines[2].startswith("**bob**:") and "2 blunders" in lines[2]
        assert lines[3] == "Result: alice wins (five)."
        assert answer.pngs and str(answer.descriptions[0]).startswith("Graph of each player's")
        assert await h.bot.store.match_ids() == []
        broken = Upload("boku.json", b'{"header": {"game": {"name": "Boku"}}, "moves": [}')
        (refusal,) = private(await h.command(carol, "analysis", record=broken))
        assert refusal.content.startswith("Line 1, column 50: this is not valid JSON")

    offline(scenario, ai_nodes=1000)


def test_a_tournament_game_names_its_event_and_round(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        users, _ = await entered(h, 3, format="round-robin")
        await h.command(users[0], "tournament start")
        await play_round(h, 1, users)
        board = next(b for b in await h.bot.store.boards(1) if b.match_id is not None)
        match = await h.bot.service.cache.get(board.match_id or 0)
        player = next(u for u in users if u.id == match.at(1).user_id)
        (sent,) = private(await h.command(player, "export", match=str(match.id)))
        text, data = (content.decode() for _, content in sent.files)
        assert '[Event "Tournament #1' in text and '[Round "1"]' in text
        header = json.loads(data)["header"]
        assert header["event"].startswith("Tournament #1") and header["round"] == "1"
        VALIDATOR.validate(json.loads(data))

    offline(scenario)
