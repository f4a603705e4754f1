"""Log lines as JSON (LOG_FORMAT=json), with the match, server and shard they are about, and
never a secret: not the token, not the database's password, in a line or an error."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

from bot.operations.logs import HIDDEN, Redacting, about, configure, secrets_of
from tests.bot.test_cli import bot_command

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab"
PASSWORD = "Sup3r-Secret"
URL = f"postgresql://boardgames:{PASSWORD}@127.0.0.1:1/boardgames"


def lines_logged(kind: str, secrets: tuple[str, ...], log: logging.Logger) -> str:
    """What `log` writes meanwhile (its records, formatted as the bot formats them)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(Redacting(kind, secrets))
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("connecting with %s to %s", TOKEN, URL)
        with about(match=7, server=123, shard=1):
            log.error("the token %s failed", TOKEN[:-2] + "zz", extra={"match": 8})
        try:
            raise RuntimeError(f"Authorization: Bot {TOKEN} refused by {URL}")
        except RuntimeError:
            log.exception("a failure")
    finally:
        log.removeHandler(handler)
    return stream.getvalue()


def test_json_lines_carry_context_and_no_secret() -> None:
    secrets = secrets_of(TOKEN, URL)
    assert secrets == (TOKEN, PASSWORD)
    text = lines_logged("json", secrets, logging.getLogger("tests.logs.json"))
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert [line["level"] for line in lines] == ["WARNING", "ERROR", "ERROR"]
    first, about_match, failure = lines
    assert set(first) == {"time", "level", "logger", "message"}
    assert first["logger"] == "tests.logs.json"
    url = f"postgresql://boardgames:{HIDDEN}@127.0.0.1:1/boardgames"
    assert first["message"] == f"connecting with {HIDDEN} to {url}"
    assert (about_match["match"], about_match["server"], about_match["shard"]) == (8, 123, 1)
    assert "RuntimeError" in failure["error"] and HIDDEN in failure["error"]
    assert "match" not in failure  # the context ended with its block
    assert TOKEN not in text and PASSWORD not in text
    assert TOKEN[:-2] not in text  # a token of that shape, even one the bot was not given


def test_text_lines_stay_readable_and_hide_secrets_too() -> None:
    text = lines_logged("text", (TOKEN,), logging.getLogger("tests.logs.text"))
    assert " WARNING tests.logs.text: connecting with " in text
    assert TOKEN not in text and PASSWORD not in text and "Traceback" in text


def test_configure_installs_one_handler_for_every_logger() -> None:
    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    stream = io.StringIO()
    try:
        configure("INFO", "json", (TOKEN,), stream)
        logging.getLogger("discord.http").info("token %s", TOKEN)
        (line,) = stream.getvalue().splitlines()
        assert json.loads(line)["message"] == f"token {HIDDEN}"
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)
        root.setLevel(level)


def test_a_bad_database_url_is_refused_without_its_password(tmp_path: Path) -> None:
    result = bot_command(tmp_path, DATABASE_URL=f"mysql://boardgames:{PASSWORD}@db/x")
    assert result.returncode == 2 and "Configuration error: DATABASE_URL" in result.stderr
    assert PASSWORD not in result.stderr and HIDDEN in result.stderr


def test_the_database_is_checked_before_discord_in_json_and_without_secrets(
    tmp_path: Path,
) -> None:
    """An unreachable PostgreSQL is named even without a network: Discord is never reached
    (no line of discord.py's), and the debug lines, traceback included, show no secret."""
    result = bot_command(
        tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=URL, LOG_FORMAT="json", LOG_LEVEL="DEBUG"
    )
    assert result.returncode == 1
    *lines, sentence = result.stderr.strip().splitlines()
    assert sentence.startswith("Cannot connect to PostgreSQL at 127.0.0.1:1 (connection refused)")
    logged = [json.loads(line) for line in lines]
    assert any(line.get("error", "").startswith("Traceback") for line in logged)
    assert not [line for line in logged if line["logger"].startswith("discord")]
    assert TOKEN not in result.stderr and PASSWORD not in result.stderr
