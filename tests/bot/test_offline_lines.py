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
    assert "@alice challenges Computer (Black) to Quorum" in out
    assert "begins: @alice (White) vs Computer (Black)" in out


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
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n"
        "alice: /move move:a1e3\nalice: /draw\nbob: /draw\n"  # a game with a turn has a replay
    )
    out = session(tmp_path, script)
    images = sorted(p.name for p in [*folder.glob("*.png"), *folder.glob("*.gif")])
    assert images == [
        "quorum-1-0.png",
        "quorum-1-1-v2.png",
        "quorum-1-1.png",
        "quorum-1-replay.gif",
    ]
    assert (folder / "quorum-1-replay.gif").read_bytes().startswith(b"GIF")
    assert all(str(folder / name) in out for name in images)


def test_an_offline_session_takes_an_open_challenge_a_premove_a_draw_and_a_rematch(
    tmp_path: Path,
) -> None:
    """The example docs/commands.md gives, line by line."""
    script = (Path(__file__).parents[2] / "docs" / "commands.md").read_text()
    example = script.split("An open challenge, a premove line", 1)[1].split("```")[1]
    out = session(tmp_path, example.strip() + "\n")
    assert "challenges anyone here to Quorum" in out
    assert "~ thread opened: Quorum #1: alice vs carol" in out
    assert "carol played h8h4.\n      alice played b1d3 (played by premove)." in out
    assert "alice accepted the draw." in out and "Game over: draw (agreement)." in out
    assert "A rematch of match #1, seats rotated." in out
    assert "~ thread opened: Quorum #2: carol vs alice" in out
    assert "Traceback" not in out and "went wrong" not in out


def test_places_in_another_server_are_made_on_first_use(tmp_path: Path) -> None:
    """`#games@other` and `thread@other` are places in a second server, which sees none of
    the first server's matches."""
    script = (
        "alice: /challenge game:quorum opponent:@bob\nbob: click Accept\n"
        "carol in #games@other: /board match:1\n"
        "carol in #games@other: /challenge game:boku opponent:@dave\ndave: click Accept\n"
        "dave in thread@other: /board\ndave in thread 1@other: /board\n"
        "alice in #games: /board match:1\n"
        "alice in #games@other: /board match:1\n"
    )
    out = session(tmp_path, script)
    refused = "carol: /board match:1\n   [#games@other] bot (only carol sees this): There is"
    assert f"{refused} no match #1 here.\n" in out
    assert "[thread Boku #2: carol vs dave@other] bot (only dave sees this): Boku #2" in out
    assert out.count("?? no match thread 'thread 1@other' yet") == 1  # match 1 is not there
    assert "[#games] bot (only alice sees this): Quorum #1: alice vs bob" in out
    mine = "[#games@other] bot (only alice sees this): Match #1 is played in another server"
    assert mine in out  # its own player is told where it lives


def test_a_tournament_runs_offline_with_subcommands_as_typed(tmp_path: Path) -> None:
    script = (
        "alice: /tournament create game:quorum format:round-robin\n"
        "bob: click Join\ncarol: click Join\nalice: /tournament start\n"
        "carol: /tournament list\ncarol: /tournament leave\n"
    )
    out = session(tmp_path, script)
    assert "Entrants (3): @alice, @bob, @carol" in out
    assert "round 1 of 3 begins. Bye (counts as a win): @alice." in out
    assert "~ thread opened: Quorum #1: bob vs carol" in out
    assert "#1 · Quorum standard, round robin · round 1 of 3 · 3 entrants" in out
    assert "Game over: bob wins (resignation)." in out
    assert "round 2 of 3 begins." in out and "@carol (withdrawn)" in out
    assert "Traceback" not in out and "went wrong" not in out


QUORUM = "alice: /challenge game:quorum opponent:@bob days:1\nbob: click Accept\n"


def test_fail_posts_fails_every_channel_post_for_its_span_of_the_clock(tmp_path: Path) -> None:
    script = (
        QUORUM + "fail posts 2h\nalice: /move move:a1e3\nadvance 3h\n"
        "carol: /challenge game:quorum opponent:@dave\ndave: click Accept\n"
    )
    out = session(tmp_path, script)
    assert "fail posts 2h\n   ~ every message post fails with 503 for 2 hours\n" in out
    during = out.split("alice: /move move:a1e3\n", 1)[1].split("advance 3h\n", 1)[0]
    assert "alice played a1e3" not in during  # the board post failed, and alice is told why
    assert "because Discord is failing for now; nothing is lost: I will post it as soon" in during
    late = out.split("advance 3h\n", 1)[1].split("carol: /challenge", 1)[0]
    assert "alice played a1e3" in late and "Posted late" in late  # once the outage ended
    after = out.split("dave: click Accept\n", 1)[1]
    assert "@carol, your move (White)." in after  # two hours on, posts work again


def test_fail_posts_off_ends_the_outage_early(tmp_path: Path) -> None:
    out = session(tmp_path, QUORUM + "fail posts 1d\nfail posts off\nalice: /move move:a1e3\n")
    assert "fail posts off\n   ~ posts work again\n" in out
    assert "alice played a1e3.\n      @bob, your move (Black)." in out


def test_fail_posts_names_what_it_takes(tmp_path: Path) -> None:
    out = session(tmp_path, "fail posts soon\n")
    assert "?? 'soon' is not a duration" in out and "(or fail posts off)" in out


def test_a_member_written_without_at_is_named_not_ignored(tmp_path: Path) -> None:
    out = session(tmp_path, "alice: /challenge game:quorum opponent:bob\nalice: /matches\n")
    assert "?? /challenge opponent takes a member: write @bob, not 'bob'" in out
    assert "challenges" not in out
