"""A new server's first hour: the commands register themselves (only when they changed), the
invite link grants exactly the documented permissions, and what a server withholds is said."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
from discord import app_commands

import bot.app
from bot.offline import OfflineDiscord
from bot.texts import say
from bot.ui.commands_sync import register_commands
from bot.ui.permissions import NEEDED, application_id_from_token, invite_url, needed_permissions
from tests.bot.support import new_bot, private
from tests.bot.test_cli import bot_command

ROOT = Path(__file__).resolve().parents[2]
GLOBAL_SYNC = ("PUT", "/applications/{application_id}/commands")
APP_ID = 123456789012345678
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhJkLm.abcdefghijklmnopqrstuvwxyz0123456789AB"


def syncs(h: OfflineDiscord) -> int:
    return sum((method, route) == GLOBAL_SYNC for method, route, _ in h.requests)


def sync_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.ui.commands_sync"]


async def edited_description(
    tree: app_commands.CommandTree[Any], *args: Any, **kwargs: Any
) -> list[app_commands.AppCommand] | None:
    """An upgrade that changed /rules's description, as the sync step sees it."""
    command = tree.get_command("rules")
    assert command is not None
    command.description = "How to play each game"
    return await register_commands(tree, *args, **kwargs)


@pytest.mark.both_backends
def test_commands_register_on_a_fresh_database_and_again_only_when_changed(
    database: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="bot.ui.commands_sync")

    async def main() -> None:
        async with OfflineDiscord(new_bot(database)) as h:
            assert syncs(h) == 1, "the first start registers the commands"
            assert sync_lines(caplog) == ["registered 27 commands globally"]
            await h.restart(new_bot(database))
            assert syncs(h) == 1, "a restart of the same commands sends nothing"
            assert sync_lines(caplog)[1:] == [
                "commands unchanged since the last start (registered globally)"
            ]
            monkeypatch.setattr(bot.app, "register_commands", edited_description)
            await h.restart(new_bot(database))
            assert syncs(h) == 2, "a changed description registers again"
            ((_, _, body),) = [r for r in h.requests if r[:2] == GLOBAL_SYNC][1:]
            (rules,) = [c for c in body if c["name"] == "rules"]
            assert rules["description"] == "How to play each game"
            forced = new_bot(database)
            forced.sync_only = True
            await h.restart(forced)
            assert syncs(h) == 3, "--sync registers even when nothing changed"

    asyncio.run(main())


def test_a_test_server_has_its_own_stored_hash(database: str) -> None:
    async def main() -> None:
        async with OfflineDiscord(new_bot(database)) as h:
            await h.restart(new_bot(database, dev_guild_id=h.guild_id))
            server_syncs = [r for r in h.requests if r[1].endswith("/guilds/{guild_id}/commands")]
            assert len(server_syncs) == 1 and syncs(h) == 1
            await h.restart(new_bot(database, dev_guild_id=h.guild_id))
            assert len([r for r in h.requests if r[1].endswith("/{guild_id}/commands")]) == 1

    asyncio.run(main())


def test_the_invite_grants_exactly_the_documented_permissions(tmp_path: Path) -> None:
    result = bot_command(tmp_path, "--invite", DISCORD_TOKEN=TOKEN)
    assert result.returncode == 0, result.stderr
    server, account = (line.rpartition(" ")[2] for line in result.stdout.splitlines())
    url = urlsplit(server)
    query = parse_qs(url.query)
    assert (url.netloc, query["client_id"], query["scope"]) == (
        "discord.com",
        [str(APP_ID)],
        ["bot applications.commands"],
    )
    flags = [discord.Permissions.VALID_FLAGS[p.name] for p in NEEDED]
    assert int(query["permissions"][0]) == sum(set(flags)) and len(set(flags)) == len(NEEDED)
    assert documented_permissions() == [(say(p.label), say(p.why)) for p in NEEDED]
    mine = parse_qs(urlsplit(account).query)  # a user install: commands only, no permissions
    assert (mine["client_id"], mine["scope"], mine["integration_type"]) == (
        [str(APP_ID)],
        ["applications.commands"],
        ["1"],
    )
    assert "permissions" not in mine

    chosen = bot_command(tmp_path, "--invite", DISCORD_TOKEN=TOKEN, APPLICATION_ID="42")
    assert "client_id=42&" in chosen.stdout
    neither = bot_command(tmp_path, "--invite")
    assert neither.returncode == 2 and "set APPLICATION_ID" in neither.stderr
    assert "Traceback" not in neither.stderr


def test_the_application_id_from_a_token() -> None:
    assert application_id_from_token(TOKEN) == APP_ID
    assert application_id_from_token("not a token") is None
    assert application_id_from_token("aGVsbG8.x.y") is None  # "hello": not an id
    assert f"permissions={needed_permissions().value}" in invite_url(APP_ID)


def documented_permissions() -> list[tuple[str, str]]:
    """The rows of docs/deployment.md's permission table."""
    text = (ROOT / "docs" / "deployment.md").read_text()
    table = text.split("| permission | why the bot needs it |", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in table.splitlines()[2:]]
    return [(label.strip(), why.strip()) for label, why in rows]


def test_the_readme_shows_the_invite_step_between_creating_and_running() -> None:
    readme = (ROOT / "README.md").read_text()
    steps = (
        "Create an application",
        "```sh\npython -m venv .venv",
        "--invite",
        "&& python -m bot\n",
    )
    create, environment, invite, run = (readme.index(s) for s in steps)
    assert create < environment < invite < run, "the bot's commands need its environment"
    command = readme[environment:].split("\n")[1]
    assert command.startswith("python -m venv .venv && ") and command.endswith("python -m bot")
    assert readme.count("```sh\npython -m venv .venv") == 2, "exactly two set-up commands"


@pytest.mark.parametrize("joined", [False, True])
def test_a_server_withholding_permissions_is_logged_once(
    offline: Any, caplog: pytest.LogCaptureFixture, joined: bool
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.guild_create(joined=joined, withheld=("manage_threads", "attach_files"))
        await h.settle()
        h.guild_create(joined=joined, withheld=("manage_threads", "attach_files"))
        await h.settle()

    offline(scenario)
    (line,) = [r for r in caplog.records if r.name == "bot.ui.permissions"]
    assert line.levelno == logging.WARNING
    assert line.getMessage().endswith(
        "withholds permissions the bot needs: Attach Files and Manage Threads"
    )
    caplog.records.clear()


def test_a_server_granting_everything_is_not_logged(
    offline: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.guild_create()
        await h.settle()

    offline(scenario)
    assert not [r for r in caplog.records if r.name == "bot.ui.permissions"]


@pytest.mark.parametrize("command", ["rules", "matches", "leaderboard", "help"])
def test_the_first_member_in_a_channel_where_the_bot_cannot_work_is_told(
    offline: Any, command: str
) -> None:
    options = {"game": "quorum"} if command in ("rules", "leaderboard") else {}

    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "attach_files", "send_messages")
        told = private(await h.command(h.user("alice"), command, **options))[-1]
        assert told.content == (
            f"I cannot work fully in <#{h.channel_id}>: I lack the Send Messages and Attach Files "
            "permissions here. A server admin can grant them in the channel's settings."
        )
        again = private(await h.command(h.user("bob"), command, **options))
        assert not [s for s in again if "I cannot work" in s.content], "told once"
        h.grant(h.channel_id)

    offline(scenario)
