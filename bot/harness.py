"""Offline Discord: the real discord.py with its two network seams answered in memory.

`HTTPClient.request` (bot-token REST: login, command sync, channel messages, threads) and
`AsyncWebhookAdapter.request` (interaction callbacks and follow-ups) are replaced on this
bot only; interactions enter through `parse_interaction_create`, as from the gateway.
Everything the bot sends is kept as `Sent` records (images included), so tests and
`python -m bot --offline` see exactly what Discord would have shown.

These are private discord.py names: the package pins discord.py's minor version, and all
knowledge of them stays in this module.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.app import BoardBot
from bot.clock import ManualClock

EPHEMERAL = 64
FIRST_ID = 1_300_000_000_000_000_000  # 19-digit snowflakes, like Discord's
DISPATCH_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")
COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4


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
            "permissions": str(discord.Permissions.all().value),
        }


@dataclass
class _Interaction:
    id: int
    token: str
    user: User
    channel_id: int
    message_id: int | None  # the message a component sits on
    original: int | None = None  # the response message, once there is one
    deferred: bool = False  # a deferred reply whose first follow-up fills it
    ephemeral: bool = False


class OfflineError(RuntimeError):
    """The bot made a call the fake Discord does not know: a gap in the harness or a bug."""


class _FakeResponse:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _flat(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _flat(component.get("components", []))


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


class OfflineDiscord:
    """One server, one text channel and the threads the bot opens, all in memory."""

    def __init__(self, bot: BoardBot, *, server: str = "Offline", channel: str = "games") -> None:
        self.bot = bot
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
            }
        }
        self.users: dict[str, User] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.sent: list[Sent] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.autocompleted: dict[int, list[dict[str, Any]]] = {}
        self._owners: dict[int, int] = {}  # ephemeral message id -> the user who sees it
        self.fail_threads = False
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (error 50007)
        self._interactions: dict[str, _Interaction] = {}
        self._adapter = _Adapter(self)
        self._context_token: Any = None

    def next_id(self) -> int:
        return next(self._ids)

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
        return [c for c in self.channels.values() if c["type"] == 11]

    def dm_channel(self, user: User) -> int | None:
        """The id of the bot's DM channel with this user, once the bot opened one."""
        for channel in self.channels.values():
            if channel["type"] == 1 and channel["recipients"][0]["id"] == str(user.id):
                return int(channel["id"])
        return None

    # -- driving the bot ------------------------------------------------------------------

    def _base(self, kind: int, user: User, channel_id: int | None) -> tuple[dict[str, Any], str]:
        interaction_id = self.next_id()
        token = f"token-{interaction_id}"
        where = channel_id or self.channel_id
        payload = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(where),
            "channel": self.channels[where],
            "member": user.member(),
            "locale": "en-US",
            "app_permissions": str(discord.Permissions.all().value),
        }
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
            elif kinds[key] is discord.AppCommandOptionType.integer:
                value = int(value)
            data["options"].append({"name": key, "type": kinds[key].value, "value": value})
        if resolved["users"]:
            data["resolved"] = resolved
        return data

    def dispatch(self, payload: dict[str, Any], user: User, message_id: int | None = None) -> None:
        """Hand an interaction to the bot as the gateway would (it runs in the background)."""
        self._interactions[payload["token"]] = _Interaction(
            int(payload["id"]), payload["token"], user, int(payload["channel_id"]), message_id
        )
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    def command_payload(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> dict[str, Any]:
        payload, _ = self._base(COMMAND, user, channel_id)
        payload["data"] = self._command_data(name, options)
        return payload

    async def command(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> list[Sent]:
        """Run a slash command and return what the bot did in answer."""
        return await self.run(self.command_payload(user, name, channel_id, **options), user)

    async def run(
        self, payload: dict[str, Any], user: User, message_id: int | None = None
    ) -> list[Sent]:
        start = len(self.sent)
        self.dispatch(payload, user, message_id)
        await self.settle()
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

    async def settle(self) -> None:
        """Wait until every handler the bot started for an interaction has finished."""
        me = asyncio.current_task()
        while True:
            running = [
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(DISPATCH_TASKS)
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
            due = await self.bot.store.next_due()
            if due is None or due > until:
                break
            clock.advance(max(0.0, due - clock.now()))
        clock.advance(until - clock.now())

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
        if channel["type"] == 11:
            channel["thread_metadata"]["archived"] = False
        if channel["type"] == 1 and int(channel["recipients"][0]["id"]) in self.closed_dms:
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
        if self.fail_threads:
            raise self._http_error(403, "Missing Permissions")
        parent = int(ids["channel_id"])
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
        if "archived" in body:
            channel["thread_metadata"]["archived"] = bool(body["archived"])
            if body["archived"]:
                self.sent.append(Sent("archive", int(channel["id"]), None, channel["name"]))
        return channel

    def _open_dm(self, ids: dict[str, str], body: Any, files: Any) -> Any:
        user_id = int(body["recipient_id"])
        existing = next(
            (
                c
                for c in self.channels.values()
                if c["type"] == 1 and c["recipients"][0]["id"] == str(user_id)
            ),
            None,
        )
        if existing is not None:
            return existing
        name = self.name_of(user_id)
        recipient = next((u for u in self.users.values() if u.id == user_id), User(user_id, name))
        channel_id = self.next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 1,
            "last_message_id": None,
            "recipients": [recipient.payload()],
        }
        return self.channels[channel_id]

    def _http_error(self, status: int, text: str, code: int = 0) -> discord.HTTPException:
        response = _FakeResponse(status, text)
        error = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
        return error(response, {"message": text, "code": code})

    # -- messages ---------------------------------------------------------------------------

    def _message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[tuple[str, bytes]],
        flags: int,
        message_id: int | None = None,
    ) -> dict[str, Any]:
        self._check_limits(body, files)
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
            "components": body.get("components") or [],
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
        for component in _flat(rows):
            if len(component.get("custom_id", "")) > 100:
                problems.append("a custom_id is longer than 100 characters")
            if len(component.get("options", [])) > 25:
                problems.append("a select menu has more than 25 options")
            if len(component.get("label", "")) > 80:
                problems.append("a label is longer than 80 characters")
        if any(len(data) > 10 * 1024 * 1024 for _, data in files):
            problems.append("a file is larger than 10 MiB")
        if problems:
            raise self._http_error(400, "; ".join(problems))

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
        for key in ("content", "components", "embeds"):
            if key in body:
                message[key] = body[key] or ([] if key != "content" else "")
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
            )
        )

    # -- the fake Discord: interaction callbacks and follow-ups --------------------------------

    def _callback(self, token: str, body: dict[str, Any], files: Any) -> Any:
        info = self._interactions[token]
        kind = body["type"]
        data = body.get("data") or {}
        ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        resource: dict[str, Any] | None = None
        message_id: int | None = None
        if kind == 8:
            choices = data.get("choices", [])
            if len(choices) > 25 or any(len(c["name"]) > 100 for c in choices):
                raise self._http_error(400, "at most 25 choices of at most 100 characters")
            self.autocompleted[info.id] = choices
        elif kind in (4, 5):
            info.ephemeral = ephemeral
            info.deferred = kind == 5
            message = self._message(info.channel_id, data, files, EPHEMERAL if ephemeral else 0)
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

    def _followup(self, token: str, body: dict[str, Any], files: Any) -> Any:
        info = self._interactions[token]
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
        info = self._interactions[token]
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
    ("POST", "/users/@me/channels"): OfflineDiscord._open_dm,
    ("GET", "/channels/{channel_id}"): OfflineDiscord._channel,
    ("PATCH", "/channels/{channel_id}"): OfflineDiscord._edit_channel,
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
