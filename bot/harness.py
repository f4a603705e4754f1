"""Offline Discord: the real discord.py with its two network seams answered in memory.

`HTTPClient.request` (bot-token REST: login, command sync, channel messages, threads) and
`AsyncWebhookAdapter.request` (interaction callbacks and follow-ups) are replaced on this
bot only; interactions enter through `parse_interaction_create`, as from the gateway.
Everything the bot sends is kept as `Sent` records (images included), so tests and
`python -m bot --offline` see exactly what Discord would have shown.

It refuses what Discord refuses, with Discord's error codes: bodies failing an optional
`check_request` (the tests pass Discord's OpenAPI document, tests/bot/spec.py), message
limits, a second or late answer to an interaction, a token used before the answer or after
15 minutes (on the harness's clock, see `delay` and `advance`). Each such refusal is a bug
in the bot: `run` raises `Refused` for it. Permissions withheld per channel (`withhold`) and
429s (`rate_limit`) are answered like Discord too, but are conditions the bot must handle.

These are private discord.py names: the package pins discord.py's minor version, and all
knowledge of them stays in this module.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.app import BoardBot
from bot.clock import ManualClock
from bot.computer import TASK_PREFIX

EPHEMERAL = 64
FIRST_ID = 1_300_000_000_000_000_000  # 19-digit snowflakes, like Discord's
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")
# The bot's work for an interaction, and the computer's turns that follow it.
DISPATCH_TASKS = (*INTERACTION_TASKS, TASK_PREFIX)
COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
GUILD_TEXT, DM, PUBLIC_THREAD = 0, 1, 11
ACTION_ROW, SELECT_MENUS = 1, (3, 5, 6, 7, 8)
RESPONSE_DEADLINE = 3.0  # seconds to answer an interaction (else 10062)
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used (else 50027)
# Discord's error codes for what the harness refuses
UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION, EMPTY_MESSAGE = 10015, 10062, 50006
INVALID_WEBHOOK_TOKEN, INVALID_FORM_BODY, ALREADY_ACKNOWLEDGED = 50027, 50035, 40060
MISSING_PERMISSIONS = 50013
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

RequestCheck = Callable[[str, str, Any], list[str]]
"""(method, route template, body) -> why Discord would refuse it; see tests/bot/spec.py."""


@dataclass
class Sent:
    """One thing the bot did that a user could see: a message, an edit, a thread, ..."""

    kind: str  # "defer", "message", "edit", "delete", "thread", "archive"
    channel_id: int
    message_id: int | None = None
    content: str = ""
    ephemeral: bool = False
    files: list[tuple[str, bytes]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    for_user: int | None = None  # who sees it, when ephemeral
    at: float = field(default_factory=time.perf_counter)  # when Discord received it
    embeds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def buttons(self) -> list[str]:
        return [c.get("label", "") for c in _flat(self.components) if c.get("type") == 2]

    @property
    def pngs(self) -> list[bytes]:
        return [data for name, data in self.files if name.endswith(".png")]


@dataclass(frozen=True)
class User:
    id: int
    name: str
    bot: bool = False

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
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "pending": False,
            "premium_since": None,
            "permissions": str(discord.Permissions.all().value),
        }


@dataclass
class _Interaction:
    id: int
    token: str
    user: User
    channel_id: int
    message_id: int | None  # the message a component sits on
    created: float  # on the harness's clock
    original: int | None = None  # the response message, once there is one
    responded: bool = False
    deferred: bool = False  # a deferred reply whose first follow-up fills it
    ephemeral: bool = False


class OfflineError(RuntimeError):
    """The bot made a call the fake Discord does not know: a gap in the harness or a bug."""


class Refused(OfflineError):
    """Discord would have refused requests the bot made while handling an interaction
    (the bot was answered with the same error Discord gives): a bug in the bot."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("Discord refused: " + "; ".join(reasons))
        self.reasons = reasons


class _FakeResponse:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, reason: str, headers: Mapping[str, str] | None = None) -> None:
        self.status = status
        self.reason = reason
        self.headers = dict(headers or {})


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _flat(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _flat(component.get("components", []))


def _numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord returns them: each has a numeric `id`, 1, 2, ... in order."""
    numbers = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        done = {**component, "id": component.get("id") or next(numbers)}
        if "components" in component:
            done["components"] = [number(child) for child in component["components"]]
        return done

    return [number(component) for component in components]


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


class OfflineDiscord:
    """One server, one text channel and the threads the bot opens, all in memory."""

    def __init__(
        self,
        bot: BoardBot,
        *,
        server: str = "Offline",
        channel: str = "games",
        check_request: RequestCheck | None = None,
    ) -> None:
        self.bot = bot
        self.check_request = check_request
        self.violations: list[str] = []  # refusals not yet reported by `run`
        self._skew = 0.0  # how far `delay` and `advance` moved the harness's clock ahead
        self._ids = itertools.count(FIRST_ID)
        self.bot_user = User(self.next_id(), "Board Games", bot=True)
        self.application_id = self.next_id()
        self.guild_id = self.next_id()
        self.server = server
        self.channel_id = self.next_id()
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: {
                "id": str(self.channel_id),
                "type": 0,
                "name": channel,
                "guild_id": str(self.guild_id),
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "flags": 0,
            }
        }
        self.users: dict[str, User] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.sent: list[Sent] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.autocompleted: dict[int, list[dict[str, Any]]] = {}
        self._owners: dict[int, int] = {}  # ephemeral message id -> the user who sees it
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (error 50007)
        self._withheld: dict[int, set[str]] = {}  # channel id -> permissions the bot lacks
        self._rate_limited: dict[tuple[str, str], list[float]] = {}  # route -> retry-afters
        self._interactions: dict[str, _Interaction] = {}
        self._adapter = _Adapter(self)
        self._context_token: Any = None

    def next_id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        """The harness's clock (seconds): real time plus every `delay` and `advance`."""
        return time.monotonic() + self._skew

    def delay(self, seconds: float) -> None:
        """Let time pass for Discord's deadlines only (interaction answers and tokens), as
        a slow handler would; `advance` moves the bot's clock too."""
        self._skew += seconds

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Install the seams and log in: the bot's real `setup_hook` runs."""
        self.bot.http.request = self._rest  # type: ignore[method-assign]
        self._context_token = async_context.set(self._adapter)
        await self.bot.login("offline-token")

    async def restart(self, bot: BoardBot) -> None:
        """Swap in a new bot process (say, on the same database) while Discord's side,
        messages and their buttons included, stays as it was."""
        await self.settle()
        await self.bot.close()
        self.bot = bot
        self.bot.http.request = self._rest  # type: ignore[method-assign]
        await self.bot.login("offline-token")

    async def close(self) -> None:
        await self.settle()
        await self.bot.close()
        if self._context_token is not None:
            async_context.reset(self._context_token)
            self._context_token = None

    async def __aenter__(self) -> OfflineDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- people and places ------------------------------------------------------------------

    def user(self, name: str, *, bot: bool = False) -> User:
        """The user with this name, created on first use."""
        if name not in self.users:
            self.users[name] = User(self.next_id(), name, bot)
        return self.users[name]

    def name_of(self, user_id: int) -> str:
        if user_id == self.bot_user.id:
            return self.bot_user.name
        return next((u.name for u in self.users.values() if u.id == user_id), str(user_id))

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == PUBLIC_THREAD]

    def withhold(self, channel_id: int, *permissions: str) -> None:
        """Deny the bot these permissions in a channel (and the threads under it); Discord
        then answers the requests that need them with 403 Missing Permissions (50013)."""
        unknown = set(permissions) - set(WITHHOLDABLE)
        if unknown:
            raise OfflineError(f"cannot withhold {sorted(unknown)}; choose from {WITHHOLDABLE}")
        self._withheld.setdefault(channel_id, set()).update(permissions)

    def grant(self, channel_id: int) -> None:
        """Give back every permission withheld in this channel."""
        self._withheld.pop(channel_id, None)

    def lacking(self, channel_id: int) -> set[str]:
        """The permissions the bot lacks in a channel, its parent's included for a thread."""
        channel = self.channels.get(channel_id, {})
        parent = int(channel.get("parent_id") or 0)
        return self._withheld.get(channel_id, set()) | self._withheld.get(parent, set())

    def rate_limit(self, method: str, route: str, retry_after: float = 2.0) -> None:
        """Answer the next `method route` request (a discord.py route template, such as
        "/channels/{channel_id}/messages") with 429 Too Many Requests and this retry-after."""
        self._rate_limited.setdefault((method, route), []).append(retry_after)

    def permissions(self, channel_id: int) -> discord.Permissions:
        """The bot's permissions in a channel, as interactions report them."""
        granted = discord.Permissions.all()
        for name in self.lacking(channel_id):
            setattr(granted, name, False)
        return granted

    def dm(self, user: User) -> int:
        """The id of the direct-message channel between the bot and this user."""
        found = self.dm_channel(user)
        if found is not None:
            return found
        channel_id = self.next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": DM,
            "last_message_id": None,
            "recipients": [user.payload()],
            "flags": 0,
        }
        return channel_id

    def dm_channel(self, user: User) -> int | None:
        """The id of the DM channel with this user, if one was opened (`dm` opens one)."""
        for channel in self.channels.values():
            if channel["type"] == DM and channel["recipients"][0]["id"] == str(user.id):
                return int(channel["id"])
        return None

    # -- driving the bot ------------------------------------------------------------------

    def _base(self, kind: int, user: User, channel_id: int | None) -> tuple[dict[str, Any], str]:
        interaction_id = self.next_id()
        token = f"token-{interaction_id}"
        where = channel_id or self.channel_id
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(where),
            "channel": self.channels[where],
            "locale": "en-US",
            "app_permissions": str(self.permissions(where).value),
            "entitlements": [],
        }
        if self.channels[where]["type"] == DM:
            payload["user"] = user.payload()
            payload["context"] = 1  # the bot's DM
            payload["authorizing_integration_owners"] = {"0": "0"}
        else:
            payload["guild_id"] = str(self.guild_id)
            payload["guild"] = {"id": str(self.guild_id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = user.member()
            payload["context"] = 0  # a server
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        return payload, token

    def _command_data(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        command = self.bot.tree.get_command(name)
        if not isinstance(command, app_commands.Command):
            raise OfflineError(f"there is no /{name} command")
        kinds = {p.name: p.type for p in command.parameters}
        data: dict[str, Any] = {"id": str(self.next_id()), "name": name, "type": 1, "options": []}
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        for key, value in options.items():
            if key not in kinds:
                known = ", ".join(kinds) or "none"
                raise OfflineError(f"/{name} has no option {key!r} (options: {known})")
            if isinstance(value, User):
                resolved["users"][str(value.id)] = value.payload()
                member = value.member()
                del member["user"]
                resolved["members"][str(value.id)] = member
                value = str(value.id)
            elif kinds[key] is discord.AppCommandOptionType.integer and isinstance(value, str):
                if not value.strip().isdigit():  # typed in an offline script
                    raise OfflineError(f"/{name} {key} takes a whole number, not {value!r}")
                value = int(value)
            data["options"].append({"name": key, "type": kinds[key].value, "value": value})
        if resolved["users"]:
            data["resolved"] = resolved
        return data

    def dispatch(self, payload: dict[str, Any], user: User, message_id: int | None = None) -> None:
        """Hand an interaction to the bot as the gateway would (it runs in the background)."""
        self._interactions[payload["token"]] = _Interaction(
            int(payload["id"]),
            payload["token"],
            user,
            int(payload["channel_id"]),
            message_id,
            self.now(),
        )
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    def command_payload(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> dict[str, Any]:
        payload, _ = self._base(COMMAND, user, channel_id)
        payload["data"] = self._command_data(name, options)
        command = self.bot.tree.get_command(name)
        assert isinstance(command, app_commands.Command)
        missing = [p.name for p in command.parameters if p.required and p.name not in options]
        if missing:  # Discord's client never sends a command without its required options
            raise OfflineError(f"/{name} needs {' '.join(f'{m}:...' for m in missing)}")
        return payload

    async def command(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> list[Sent]:
        """Run a slash command and return what the bot did in answer."""
        return await self.run(self.command_payload(user, name, channel_id, **options), user)

    async def run(
        self, payload: dict[str, Any], user: User, message_id: int | None = None
    ) -> list[Sent]:
        """Dispatch an interaction, wait for the bot to finish with it, and return what it
        did. Raises Refused if Discord would have refused any request it made meanwhile."""
        start = len(self.sent)
        self.dispatch(payload, user, message_id)
        await self.settle()
        refused, self.violations = self.violations, []
        if refused:
            raise Refused(refused)
        return self.sent[start:]

    async def autocomplete(
        self,
        user: User,
        name: str,
        focused: str,
        channel_id: int | None = None,
        /,
        **options: Any,
    ) -> list[str]:
        """The choice values the bot offers while `focused` is being typed."""
        payload, _ = self._base(AUTOCOMPLETE, user, channel_id)
        payload["data"] = self._command_data(name, options)
        for option in payload["data"]["options"]:
            if option["name"] == focused:
                option["focused"] = True
        await self.run(payload, user)
        return [c["value"] for c in self.autocompleted.get(int(payload["id"]), [])]

    def component_payload(
        self, user: User, message_id: int, custom_id: str, values: list[str] | None = None
    ) -> dict[str, Any]:
        message = self.messages[message_id]
        payload, _ = self._base(COMPONENT, user, int(message["channel_id"]))
        kind = 2 if values is None else 3
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message
        return payload

    async def click(self, user: User, message_id: int, label: str) -> list[Sent]:
        """Press the button with this label on a message."""
        button = self._component(message_id, lambda c: c.get("label") == label, f"button {label}")
        payload = self.component_payload(user, message_id, button["custom_id"])
        return await self.run(payload, user, message_id)

    async def choose(self, user: User, message_id: int, value: str) -> list[Sent]:
        """Pick an option in whichever select menu of the message offers it."""
        menu = self._component(
            message_id,
            lambda c: c.get("type") == 3 and any(o["value"] == value for o in c["options"]),
            f"a menu offering {value}",
        )
        payload = self.component_payload(user, message_id, menu["custom_id"], [value])
        return await self.run(payload, user, message_id)

    def _component(self, message_id: int, test: Any, what: str) -> dict[str, Any]:
        message = self.messages.get(message_id)
        if message is None:
            raise OfflineError(f"there is no message {message_id}")
        for component in _flat(message.get("components", [])):
            if test(component):
                return component
        raise OfflineError(f"message {message_id} has no {what}")

    async def settle(self, names: tuple[str, ...] = DISPATCH_TASKS) -> None:
        """Wait until every handler the bot started for an interaction has finished, and the
        computer's turns that followed (`names=INTERACTION_TASKS` leaves those running)."""
        me = asyncio.current_task()
        while True:
            running = [
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(names)
            ]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def advance(self, seconds: float) -> list[Sent]:
        """Move the bot's (manual) clock forward, running what falls due on the way, in
        order; returns what the bot did."""
        return [sent async for step in self.advancing(seconds) for sent in step]

    async def advancing(self, seconds: float) -> AsyncIterator[list[Sent]]:
        """`advance`, step by step: the clock stops at each due time on the way, and what
        the bot did then is yielded while the clock still shows that time."""
        clock = self.bot.clock
        if not isinstance(clock, ManualClock):
            raise OfflineError("only a bot built with a ManualClock can be moved in time")
        until = clock.now() + seconds
        while True:
            start = len(self.sent)
            await self.bot.scheduler.run_due()  # also waits for a run the bot began itself
            await self.settle()
            if len(self.sent) > start:
                yield self.sent[start:]
            due = await self.bot.scheduler.next_due()
            if due is None or due > until:
                break
            self._pass(clock, max(0.0, due - clock.now()))
        self._pass(clock, until - clock.now())

    def _pass(self, clock: ManualClock, seconds: float) -> None:
        """Time passes for the bot and for Discord alike."""
        clock.advance(seconds)
        self.delay(seconds)

    def latest(self, test: Any = None) -> Sent:
        """The most recent message (not a defer) the bot sent that passes `test`."""
        for sent in reversed(self.sent):
            if sent.kind in ("message", "edit") and (test is None or test(sent)):
                return sent
        raise OfflineError("no such message was sent")

    # -- the fake Discord: bot-token REST ---------------------------------------------------

    async def _rest(
        self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        body = kwargs.get("json")
        if form:
            for part in form:
                if part.get("name") == "payload_json":
                    body = json.loads(part["value"])
        self.requests.append((route.method, route.path, body))
        self._screen(route.method, route.path, body)
        waits = self._rate_limited.get((route.method, route.path))
        if waits:
            raise self._too_many_requests(waits.pop(0))
        handler = _REST.get((route.method, route.path))
        if handler is None:
            raise OfflineError(f"the offline Discord does not answer {route.method} {route.path}")
        return handler(self, _ids(route.path, route.url), body or {}, _files(files))

    def _me(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        return self.bot_user.payload()

    def _application(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        return {
            "id": str(self.application_id),
            "name": "Board Games",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.user("owner").payload(),
            "verify_key": "offline",
            "flags": 0,
        }

    def _sync(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        return [
            {
                **command,
                "id": str(self.next_id()),
                "application_id": str(self.application_id),
                "version": "1",
                "default_member_permissions": None,
                "dm_permission": True,
            }
            for command in body
        ]

    def _post(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        channel_id = int(ids["channel_id"])
        channel = self.channels.get(channel_id)
        if channel is None:
            raise self._http_error(404, "Unknown Channel")
        in_thread = channel["type"] == PUBLIC_THREAD
        needed = ["send_messages_in_threads" if in_thread else "send_messages"]
        needed += ["attach_files"] * bool(files) + ["embed_links"] * bool(body.get("embeds"))
        needed += ["read_message_history"] * bool(body.get("message_reference"))
        self._require(channel_id, *needed)
        if in_thread:
            channel["thread_metadata"]["archived"] = False
        if channel["type"] == DM and int(channel["recipients"][0]["id"]) in self.closed_dms:
            raise self._http_error(403, "Cannot send messages to this user", 50007)
        message = self._message(channel_id, body, files, 0)
        self._record("message", message, files)
        return message

    def _edit(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        message_id = int(ids["message_id"])
        if message_id not in self.messages:
            raise self._http_error(404, "Unknown Message")
        return self._apply_edit(message_id, body, files)

    def _thread(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        parent = int(ids["channel_id"])
        self._require(parent, "create_public_threads", "read_message_history")
        if self.channels[parent]["type"] != 0:
            raise self._http_error(400, "Cannot create a thread here")
        thread_id = int(ids["message_id"])  # Discord gives the thread its message's id
        self.channels[thread_id] = {
            "id": str(thread_id),
            "type": 11,
            "name": body["name"],
            "guild_id": str(self.guild_id),
            "parent_id": str(parent),
            "owner_id": str(self.bot_user.id),
            "message_count": 0,
            "member_count": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
            },
        }
        self.sent.append(Sent("thread", parent, thread_id, body["name"]))
        return self.channels[thread_id]

    def _channel(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        channel = self.channels.get(int(ids["channel_id"]))
        if channel is None:
            raise self._http_error(404, "Unknown Channel")
        return channel

    def _edit_channel(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        channel = self._channel(ids, body, files)
        if channel["type"] == PUBLIC_THREAD and (body.get("archived") or body.get("locked")):
            self._require(int(channel["id"]), "manage_threads")
        if "archived" in body:
            channel["thread_metadata"]["archived"] = bool(body["archived"])
            if body["archived"]:
                self.sent.append(Sent("archive", int(channel["id"]), None, channel["name"]))
        return channel

    def _open_dm(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        recipient = int(body["recipient_id"])
        user = next((u for u in self.users.values() if u.id == recipient), None)
        if user is None:
            raise self._http_error(400, "Unknown User", 10013)
        return self.channels[self.dm(user)]

    def _http_error(self, status: int, text: str, code: int = 0) -> discord.HTTPException:
        response = _FakeResponse(status, text)
        error = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
        return error(response, {"message": text, "code": code})

    def _require(self, channel_id: int, *needed: str) -> None:
        """Refuse (403, 50013) a request needing a permission withheld in this channel.

        The model: a message needs Send Messages (Send Messages in Threads in a thread), plus
        Attach Files with files, Embed Links with embeds and Read Message History for a reply;
        a thread from a message needs Create Public Threads and Read Message History;
        archiving or locking a thread needs Manage Threads. Interaction answers and their
        follow-ups need none, as on Discord."""
        if self.lacking(channel_id) & set(needed):
            raise self._http_error(403, "Missing Permissions", MISSING_PERMISSIONS)

    def _too_many_requests(self, retry_after: float) -> discord.HTTPException:
        response = _FakeResponse(429, "Too Many Requests", {"Retry-After": str(retry_after)})
        data = {"message": "You are being rate limited.", "retry_after": retry_after}
        return discord.HTTPException(response, {**data, "global": False, "code": 0})

    def _refuse(self, status: int, code: int, text: str) -> discord.HTTPException:
        """Discord's answer to a request it refuses; kept as a violation for `run` to raise."""
        self.violations.append(f"{text} (error {code})")
        return self._http_error(status, text, code)

    def _screen(self, method: str, route: str, body: Any) -> None:
        """Check a request body against Discord's API specification, when a check is set."""
        if self.check_request is None:
            return
        reasons = self.check_request(method, route, body)
        if reasons:
            raise self._refuse(400, INVALID_FORM_BODY, "; ".join(reasons))

    # -- messages ---------------------------------------------------------------------------

    def _message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[tuple[str, bytes]],
        flags: int,
        message_id: int | None = None,
        *,
        loading: bool = False,
    ) -> dict[str, Any]:
        """A new message; `loading` for a deferred answer's "thinking…", empty till filled."""
        self._check_limits(body, files)
        if not loading:
            self._check_not_empty(body, files)
        message_id = message_id or self.next_id()
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": body.get("embeds") or [],
            "components": _numbered(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": flags | (body.get("flags") or 0),
            "application_id": str(self.application_id),
        }
        self.messages[message_id] = message
        return message

    def _check_limits(self, body: Mapping[str, Any], files: list[tuple[str, bytes]]) -> None:
        """Refuse what Discord refuses (400), so tests catch a message Discord would reject."""
        problems = []
        if len(body.get("content") or "") > 2000:
            problems.append("content is longer than 2000 characters")
        rows = body.get("components") or []
        if len(rows) > 5:
            problems.append("more than 5 component rows")
        for row in rows:
            if len(row.get("components", [])) > 5:
                problems.append("more than 5 components in a row")
            kinds = [c.get("type") for c in row.get("components", [])]
            if len(kinds) > 1 and any(kind in SELECT_MENUS for kind in kinds):
                problems.append("a select menu shares its row")
        custom_ids = [c["custom_id"] for c in _flat(rows) if "custom_id" in c]
        if len(set(custom_ids)) < len(custom_ids):
            problems.append("two components have the same custom_id")
        for component in _flat(rows):
            if len(component.get("custom_id", "")) > 100:
                problems.append("a custom_id is longer than 100 characters")
            if len(component.get("options", [])) > 25:
                problems.append("a select menu has more than 25 options")
            if len(component.get("label", "")) > 80:
                problems.append("a label is longer than 80 characters")
            if len(component.get("placeholder") or "") > 150:
                problems.append("a placeholder is longer than 150 characters")
            for option in component.get("options", []):
                if len(option.get("label", "")) > 100 or len(option.get("value", "")) > 100:
                    problems.append("a select option's label or value is over 100 characters")
        if any(len(data) > 10 * 1024 * 1024 for _, data in files):
            problems.append("a file is larger than 10 MiB")
        problems += [problem for embed in body.get("embeds") or [] for problem in _embed(embed)]
        if problems:
            raise self._refuse(400, INVALID_FORM_BODY, "; ".join(problems))

    def _check_not_empty(self, message: Mapping[str, Any], files: list[tuple[str, bytes]]) -> None:
        """A message needs content, an embed, a component, a file or a sticker (else 50006)."""
        parts = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
        if not files and not any(message.get(part) for part in parts):
            raise self._refuse(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def _attachments(self, files: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.offline.invalid/{name}",
                "proxy_url": f"https://media.offline.invalid/{name}",
            }
            for name, data in files
        ]

    def _apply_edit(
        self, message_id: int, body: Mapping[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        self._check_limits(body, files)
        message = self.messages[message_id]
        edited = {key: body[key] for key in ("content", "components", "embeds") if key in body}
        self._check_not_empty({**message, **edited}, files)
        for key, value in edited.items():
            message[key] = value or ([] if key != "content" else "")
        message["components"] = _numbered(message["components"])
        if files:
            message["attachments"] = self._attachments(files)
        message["edited_timestamp"] = _now()
        self._record("edit", message, files, self._owners.get(message_id))
        return message

    def _record(
        self,
        kind: str,
        message: dict[str, Any],
        files: list[tuple[str, bytes]],
        for_user: int | None = None,
    ) -> None:
        if message["flags"] & EPHEMERAL and for_user is not None:
            self._owners[int(message["id"])] = for_user
        self.sent.append(
            Sent(
                kind,
                int(message["channel_id"]),
                int(message["id"]),
                message["content"],
                bool(message["flags"] & EPHEMERAL),
                files,
                message["components"],
                for_user if message["flags"] & EPHEMERAL else None,
                embeds=message["embeds"],
            )
        )

    # -- the fake Discord: interaction callbacks and follow-ups --------------------------------

    def _callback(self, token: str, body: dict[str, Any], files: Any) -> Any:
        info = self._interactions[token]
        if info.responded:
            raise self._refuse(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged"
            )
        if self.now() - info.created > RESPONSE_DEADLINE:
            raise self._refuse(404, UNKNOWN_INTERACTION, "Unknown interaction (answered after 3 s)")
        kind = body["type"]
        data = body.get("data") or {}
        ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        resource: dict[str, Any] | None = None
        message_id: int | None = None
        if kind == 8:
            choices = data.get("choices", [])
            if len(choices) > 25 or any(len(c["name"]) > 100 for c in choices):
                raise self._refuse(
                    400, INVALID_FORM_BODY, "at most 25 choices, names of at most 100 characters"
                )
            if any(len(str(c["value"])) > 100 for c in choices):
                raise self._refuse(400, INVALID_FORM_BODY, "a choice value is over 100 characters")
            self.autocompleted[info.id] = choices
        elif kind in (4, 5):
            info.ephemeral = ephemeral
            info.deferred = kind == 5
            flags = EPHEMERAL if ephemeral else 0
            message = self._message(info.channel_id, data, files, flags, loading=kind == 5)
            info.original = message_id = int(message["id"])
            if kind == 4:
                self._record("message", message, files, info.user.id)
            else:
                self.sent.append(
                    Sent("defer", info.channel_id, message_id, "", ephemeral, for_user=info.user.id)
                )
            resource = {"type": kind, "message": message}
        elif kind == 6:
            self.sent.append(Sent("defer", info.channel_id, info.message_id, "", False))
        elif kind == 7:
            assert info.message_id is not None
            message = self._apply_edit(info.message_id, data, files)
            message_id = info.message_id
            resource = {"type": kind, "message": message}
        else:
            raise OfflineError(f"interaction callback type {kind} is not supported offline")
        info.responded = True
        return {
            "interaction": {
                "id": str(info.id),
                "type": info_type(kind),
                "response_message_id": str(message_id) if message_id else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": resource,
        }

    def _token_use(self, token: str) -> _Interaction:
        """The interaction whose token a follow-up or edit uses, if Discord would accept it."""
        info = self._interactions[token]
        if not info.responded:
            raise self._refuse(404, UNKNOWN_WEBHOOK, "Unknown Webhook (used before the response)")
        if self.now() - info.created > TOKEN_LIFETIME:
            raise self._refuse(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token (over 15 min)")
        return info

    def _followup(self, token: str, body: dict[str, Any], files: Any) -> Any:
        info = self._token_use(token)
        if info.deferred and info.original is not None:
            info.deferred = False  # the first follow-up fills the "thinking…" message
            message = self.messages[info.original]
            message.update(self._message(info.channel_id, body, files, 0, info.original))
            message["flags"] = EPHEMERAL if info.ephemeral else 0
            self._record("message", message, files, info.user.id)
            return message
        flags = (body.get("flags") or 0) & EPHEMERAL
        message = self._message(info.channel_id, body, files, flags)
        self._record("message", message, files, info.user.id)
        return message

    def _original(self, token: str, message_ref: str) -> int:
        info = self._token_use(token)
        if message_ref != "@original":
            return int(message_ref)
        target = info.original or info.message_id
        if target is None:
            raise self._http_error(404, "Unknown Message")
        return target

    def _webhook_edit(self, token: str, ref: str, body: dict[str, Any], files: Any) -> Any:
        message_id = self._original(token, ref)
        info = self._interactions[token]
        if info.deferred and message_id == info.original:
            info.deferred = False
        return self._apply_edit(message_id, body, files)

    def _webhook_delete(self, token: str, ref: str) -> None:
        message_id = self._original(token, ref)
        message = self.messages.pop(message_id)
        self.sent.append(Sent("delete", int(message["channel_id"]), message_id))


def _embed(embed: Mapping[str, Any]) -> list[str]:
    """What Discord refuses in an embed: a part over its limit, or over 6000 in all."""
    problems = []
    title, description = embed.get("title") or "", embed.get("description") or ""
    fields = embed.get("fields") or []
    if len(title) > 256:
        problems.append("an embed title is longer than 256 characters")
    if len(description) > 4096:
        problems.append("an embed description is longer than 4096 characters")
    if len(fields) > 25:
        problems.append("an embed has more than 25 fields")
    for item in fields:
        if len(item.get("name", "")) > 256 or len(item.get("value", "")) > 1024:
            problems.append("an embed field's name or value is too long")
    total = len(title) + len(description)
    total += sum(len(item.get("name", "")) + len(item.get("value", "")) for item in fields)
    total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        problems.append("an embed has more than 6000 characters in all")
    return problems


def info_type(kind: int) -> int:
    """The interaction type Discord reports back for a callback type (only 'component' matters
    to discord.py, and it never reads it)."""
    return COMPONENT if kind in (6, 7) else COMMAND


def _ids(template: str, url: str) -> dict[str, str]:
    path = url.split("/api/v10", 1)[-1].split("?", 1)[0]
    found = _pattern(template).match(path)
    return found.groupdict() if found else {}


def _files(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for file in files or ():
        file.reset()
        out.append((file.filename, file.fp.read()))
    return out


_REST = {
    ("GET", "/users/@me"): OfflineDiscord._me,
    ("GET", "/oauth2/applications/@me"): OfflineDiscord._application,
    ("PUT", "/applications/{application_id}/commands"): OfflineDiscord._sync,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): OfflineDiscord._sync,
    ("POST", "/channels/{channel_id}/messages"): OfflineDiscord._post,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): OfflineDiscord._edit,
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): OfflineDiscord._thread,
    ("GET", "/channels/{channel_id}"): OfflineDiscord._channel,
    ("PATCH", "/channels/{channel_id}"): OfflineDiscord._edit_channel,
    ("POST", "/users/@me/channels"): OfflineDiscord._open_dm,
}


class _Adapter(AsyncWebhookAdapter):
    """Answers interaction callbacks and follow-ups from the fake instead of the network."""

    def __init__(self, fake: OfflineDiscord) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.fake = fake

    async def request(self, route: Route, session: Any, **kwargs: Any) -> Any:
        body = kwargs.get("payload")
        for part in kwargs.get("multipart") or ():
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        files = _files(kwargs.get("files"))
        fake = self.fake
        fake.requests.append((route.method, route.path, body))
        fake._screen(route.method, route.path, body)
        path = route.url.split("/api/v10", 1)[-1].split("?", 1)[0]
        parts = path.strip("/").split("/")
        if route.method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            return fake._callback(parts[2], body or {}, files)
        if parts[0] == "webhooks":
            token = parts[2]
            if route.method == "POST" and len(parts) == 3:
                return fake._followup(token, body or {}, files)
            if len(parts) == 5 and parts[3] == "messages":
                if route.method == "PATCH":
                    return fake._webhook_edit(token, parts[4], body or {}, files)
                if route.method == "DELETE":
                    return fake._webhook_delete(token, parts[4])
                if route.method == "GET":
                    return fake.messages[fake._original(token, parts[4])]
        raise OfflineError(f"the offline Discord does not answer {route.method} {path}")
