"""`python -m bot` that cannot start says why in one sentence, exits 1 (2 for a missing
setting), and shows a traceback only at LOG_LEVEL=DEBUG. Discord is a local stand-in here
(a `sitecustomize` points discord.py at it), or a name that never resolves."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from fixtures.postgres import ThrowawayPostgres
from tests.bot.test_cli import bot_command

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhJkLm.abcdefghijklmnopqrstuvwxyz0123456789AB"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")


class FakeDiscord(BaseHTTPRequestHandler):
    """The bot's user and application, or 401 when the server is told to refuse."""

    def do_GET(self) -> None:
        refuse = getattr(self.server, "refuse", False)
        body: dict[str, Any] = {"message": "401: Unauthorized", "code": 0}
        if not refuse:
            body = BOT_USER
        if self.path.endswith("/oauth2/applications/@me") and not refuse:
            body = APPLICATION
        data = json.dumps(body).encode()
        self.send_response(401 if refuse else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


BOT_USER: dict[str, Any] = {"id": "123456789012345678", "username": "Board Games"}
BOT_USER |= {"discriminator": "0", "avatar": None, "global_name": None, "bot": True, "flags": 0}
APPLICATION: dict[str, Any] = {"id": BOT_USER["id"], "name": "Board Games", "icon": None}
APPLICATION |= {"description": "", "bot_public": True, "bot_require_code_grant": False}
APPLICATION |= {"verify_key": "x", "owner": BOT_USER, "flags": 0}


@pytest.fixture
def discord_at(tmp_path: Path) -> Iterator[tuple[Path, ThreadingHTTPServer]]:
    """A folder whose sitecustomize sends discord.py's REST calls to a local server."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site = tmp_path / "site"
    site.mkdir()
    base = f"http://127.0.0.1:{server.server_port}/api/v10"
    (site / "sitecustomize.py").write_text(
        f"import discord.http\ndiscord.http.Route.BASE = {base!r}\n"
    )
    yield site, server
    server.shutdown()


def start(tmp_path: Path, site: Path | None, **settings: str) -> str:
    """Run the bot; returns the one line it printed besides its log lines."""
    extra = {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parents[2]}"} if site else {}
    result = bot_command(tmp_path, DISCORD_TOKEN=TOKEN, **extra, **settings)
    lines = [line for line in result.stderr.splitlines() if not LOG_LINE.match(line)]
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = lines
    return line


def test_no_network_is_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import discord.http\ndiscord.http.Route.BASE = 'https://discord.invalid/api/v10'\n"
    )
    assert start(tmp_path, site) == (
        "Cannot reach Discord: the name discord.invalid does not resolve; check this "
        "machine's network connection and DNS."
    )


def test_a_refused_token_is_one_line(
    tmp_path: Path, discord_at: tuple[Path, ThreadingHTTPServer]
) -> None:
    site, server = discord_at
    server.refuse = True  # type: ignore[attr-defined]
    assert start(tmp_path, site).startswith("Discord refused DISCORD_TOKEN (401 Unauthorized);")


def test_postgresql_down_is_one_line(
    tmp_path: Path, discord_at: tuple[Path, ThreadingHTTPServer]
) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    url = f"postgresql://bot:secret@127.0.0.1:{port}/boardgames"
    line = start(tmp_path, discord_at[0], DATABASE_URL=url)
    assert line == (
        f"Cannot connect to PostgreSQL at 127.0.0.1:{port} (connection refused); check that "
        "the server is running and that DATABASE_URL names its host and port."
    )


def test_postgresql_refusing_the_login_is_one_line(
    tmp_path: Path, discord_at: tuple[Path, ThreadingHTTPServer], postgres: ThrowawayPostgres
) -> None:
    url = postgres.url().replace("postgres@", "nobody:secret@")
    line = start(tmp_path, discord_at[0], DATABASE_URL=url)
    assert line.startswith(f"PostgreSQL at {postgres.folder}:5432 refused the login of user ")
    assert "'nobody'" in line and "secret" not in line
    assert line.endswith("check the user name and password in DATABASE_URL.")


def test_an_unwritable_database_file_is_one_line_and_debug_shows_the_traceback(
    tmp_path: Path, discord_at: tuple[Path, ThreadingHTTPServer]
) -> None:
    (tmp_path / "data").write_text("a file where the data folder should be")
    line = start(tmp_path, discord_at[0])
    assert line.startswith(
        f"Cannot write the SQLite database {tmp_path}/data/bot.sqlite3 (a file stands where "
        "its folder should be); check that its folder exists"
    )
    site = discord_at[0]
    extra = {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parents[2]}"}
    debug = bot_command(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="DEBUG", **extra)
    assert debug.returncode == 1 and "Traceback" in debug.stderr


def test_a_missing_setting_exits_2(tmp_path: Path) -> None:
    result = bot_command(tmp_path, DISCORD_TOKEN=TOKEN, SHARD_IDS="0")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        "Configuration error: SHARD_IDS needs SHARD_COUNT: set the total number of shards too"
    )
