"""The offline Discord's vocabulary: its ids and error codes, the records it keeps (`Sent`,
`User`, `Pending`) and the errors it raises or answers with."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

EPHEMERAL = 64
FIRST_ID = 1_300_000_000_000_000_000  # 19-digit snowflakes, like Discord's
GUILD_TEXT, DM, GROUP_DM, PUBLIC_THREAD = 0, 1, 3, 11
LOADING = 128  # a message flag: a deferred reply's "thinking…"
# Discord's error codes for what the offline Discord refuses
UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION, EMPTY_MESSAGE = 10015, 10062, 50006
INVALID_WEBHOOK_TOKEN, INVALID_FORM_BODY, ALREADY_ACKNOWLEDGED = 50027, 50035, 40060
MISSING_PERMISSIONS, MISSING_ACCESS = 50013, 50001
FOLLOW_UPS = 5  # follow-ups per interaction where the app is not in the server (no error code)
# The permissions a test can withhold (discord.Permissions names, as the bot reads them)
WITHHOLDABLE = (
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "attach_files",
    "embed_links",
    "read_message_history",
    "manage_threads",
)


@dataclass
class Sent:
    """One thing the bot did that a user could see: a message, an edit, a thread, ..."""

    kind: str  # "defer", "message", "edit", "delete", "thread", "archive", "typing"
    channel_id: int
    message_id: int | None = None
    content: str = ""
    ephemeral: bool = False
    files: list[tuple[str, bytes]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    for_user: int | None = None  # who sees it, when ephemeral
    at: float = field(default_factory=time.perf_counter)  # when Discord received it
    embeds: list[dict[str, Any]] = field(default_factory=list)
    descriptions: list[str | None] = field(default_factory=list)  # each file's alt text

    @property
    def buttons(self) -> list[str]:
        return [c.get("label", "") for c in flat(self.components) if c.get("type") == 2]

    @property
    def pngs(self) -> list[bytes]:
        return [data for name, data in self.files if name.endswith(".png")]


# What a member without a role may do in a channel: read, write, react, open threads.
MEMBER_PERMISSIONS = discord.Permissions(
    (discord.Permissions.text().value | discord.Permissions(view_channel=True).value)
    & ~discord.Permissions.elevated().value
)


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to a command's `attachment` option."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class User:
    id: int
    name: str
    bot: bool = False
    manager: bool = True  # holds every permission; False: a plain member's

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": now_text(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "pending": False,
            "premium_since": None,
            "permissions": str(
                (discord.Permissions.all() if self.manager else MEMBER_PERMISSIONS).value
            ),
        }


@dataclass
class Pending:
    """An interaction handed to the bot: what its callbacks and token may still do."""

    id: int
    token: str
    user: User
    channel_id: int
    message_id: int | None  # the message a component sits on
    created: float  # on the offline Discord's clock
    original: int | None = None  # the response message, once there is one
    responded: bool = False
    deferred: bool = False  # a deferred reply whose first follow-up fills it
    ephemeral: bool = False
    follow_ups: int = 0
    made: set[int] = field(default_factory=set)  # the messages its token sent


class OfflineError(RuntimeError):
    """The bot made a call the fake Discord does not know: a gap in the harness or a bug."""


class Refused(OfflineError):
    """Discord would have refused requests the bot made while handling an interaction
    (the bot was answered with the same error Discord gives): a bug in the bot."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("Discord refused: " + "; ".join(reasons))
        self.reasons = reasons


class FakeResponse:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, reason: str, headers: Mapping[str, str] | None = None) -> None:
        self.status = status
        self.reason = reason
        self.headers = dict(headers or {})


def now_text() -> str:
    return datetime.now(UTC).isoformat()


def flat(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from flat(component.get("components", []))


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord returns them: each has a numeric `id`, 1, 2, ... in order."""
    numbers = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        done = {**component, "id": component.get("id") or next(numbers)}
        if "components" in component:
            done["components"] = [number(child) for child in component["components"]]
        return done

    return [number(component) for component in components]


def http_error(status: int, text: str, code: int = 0) -> discord.HTTPException:
    """Discord's error answer, as discord.py raises it."""
    response = FakeResponse(status, text)
    if status >= 500:
        return discord.DiscordServerError(response, {"message": text, "code": code})
    error = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return error(response, {"message": text, "code": code})
