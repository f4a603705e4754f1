"""`python -m bot --offline` lines a newcomer types: a forgotten option, `@bot`, asking for
the autocomplete, and the board images a session leaves behind."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from bot import Settings
from bot.offline import run_offline


def session(tmp_path: Path, script: str) -> str:
    """Run one offline session over `script`; what it printed."""
    out = io.StringIO()
    settings = Settings(token="", database_path=tmp_path / "data" / "bot.sqlite3")
    assert asyncio.run(run_offline(settings, io.StringIO(script), out)) == 0
    return out.getvalue()


def test_a_missing_option_is_named_in_one_line(tmp_path: Path) -> None:
    out = session(
        tmp_path, "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\nalice: /move\n"
    )
    answer = out.split("alice: /move\n", 1)[1].splitlines()[0]
    assert answer == "?? /move needs move:..."
    assert "Traceback" not in out and "went wrong" not in out


def test_at_bot_is_the_bot_itself(tmp_path: Path) -> None:
    """`@bot` names the bot itself, which then plays the computer's seat."""
    out = session(tmp_path, "alice: /challenge game:quorum opponent:@bot\n")
    assert "@alice challenges @Board Games to Quorum" in out
    assert "begins: @alice (White) vs @Board Games (Black)" in out


def test_complete_prints_the_autocomplete_suggestions(tmp_path: Path) -> None:
    script = (
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n"
        "alice: complete /move move:a1\nalice: complete /move move:zz\n"
    )
    out = session(tmp_path, script)
    assert "alice: complete /move move:a1\n   suggestions: a1a5, a1c3, a1c5, a1e1, a1e3\n" in out
    assert "alice: complete /move move:zz\n   no suggestions\n" in out


def test_a_session_keeps_each_of_its_images_and_clears_the_last_sessions(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "offline"
    folder.mkdir(parents=True)
    (folder / "boku-9-9.png").write_bytes(b"an image of an earlier session")
    (folder / "quorum-1-replay.gif").write_bytes(b"a replay of an earlier session")
    script = (
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\nalice: /draw\nbob: /draw\n"
    )
    out = session(tmp_path, script)
    images = sorted(p.name for p in [*folder.glob("*.png"), *folder.glob("*.gif")])
    assert images == ["quorum-1-0-v2.png", "quorum-1-0.png", "quorum-1-replay.gif"]
    assert (folder / "quorum-1-replay.gif").read_bytes().startswith(b"GIF")
    assert all(str(folder / name) in out for name in images)


def test_places_in_another_server_are_made_on_first_use(tmp_path: Path) -> None:
    """`#games@other` and `thread@other` are places in a second server, which sees none of
    the first server's matches."""
    script = (
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n"
        "carol in #games@other: /board match:1\n"
        "carol in #games@other: /challenge game:boku opponent:@dave\ndave: click Accept\n"
        "dave in thread@other: /board\ndave in thread 1@other: /board\n"
        "alice in #games: /board match:1\n"
    )
    out = session(tmp_path, script)
    refused = "carol: /board match:1\n   [#games@other] bot (only carol sees this): There is"
    assert f"{refused} no match #1 here.\n" in out
    assert "[thread Boku #2: carol vs dave@other] bot (only dave sees this): Boku #2" in out
    assert out.count("?? no match thread 'thread 1@other' yet") == 1  # match 1 is not there
    assert "[#games] bot (only alice sees this): Quorum #1: alice vs bob" in out
