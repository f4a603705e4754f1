"""What the offline Discord holds: people, channels, threads, DMs, messages, the bot's
permissions and pending 429s, the interactions awaiting answers, and its clock.

REST routes and interaction callbacks share its message bookkeeping (`message`,
`apply_edit`, `record`) and answer through its refusals (`refuse`, `require`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from typing import Any

import discord

from bot.offline.checks import RequestCheck, is_empty, limit_problems
from bot.offline.records import (
    DM,
    EMPTY_MESSAGE,
    EPHEMERAL,
    FIRST_ID,
    GROUP_DM,
    GUILD_TEXT,
    INVALID_FORM_BODY,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    PUBLIC_THREAD,
    WITHHOLDABLE,
    OfflineError,
    Pending,
    Sent,
    User,
    http_error,
    now_text,
    numbered,
)


class DiscordState:
    """Servers with their text channels and the threads the bot opens, all in memory: the
    first server and its channel (`guild_id`, `channel_id`) exist from the start, any other
    from its first use (`server_channel`)."""

    def __init__(self, *, server: str, channel: str, check_request: RequestCheck | None) -> None:
        self.check_request = check_request
        self.violations: list[str] = []  # refusals not yet reported by `run`
        self._skew = 0.0  # how far `delay` and `advance` moved the clock ahead
        self._ids = itertools.count(FIRST_ID)
        self.bot_user = User(self.next_id(), "Board Games", bot=True)
        self.application_id = self.next_id()
        self.servers: dict[str, int] = {}  # name -> guild id
        self.channels: dict[int, dict[str, Any]] = {}
        self.server = server
        self.channel_id = self.server_channel(server, channel)
        self.guild_id = self.servers[server]
        self.users: dict[str, User] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.sent: list[Sent] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.autocompleted: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[str, Pending] = {}  # by token
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (error 50007)
        self.installed: set[int] = set()  # users who added the app to their account
        self.locales: dict[int, str] = {}  # user id -> their client's locale (else en-US)
        self.members: dict[int, tuple[User, ...]] = {}  # people's DMs and group DMs
        self._owners: dict[int, int] = {}  # ephemeral message id -> the user who sees it
        self._withheld: dict[int, set[str]] = {}  # channel id -> permissions the bot lacks
        self._rate_limited: dict[tuple[str, str], list[float]] = {}  # route -> retry-afters
        self._posts_fail_until: float | None = None  # `now()` until which posts answer 503
        self.uploads: dict[str, bytes] = {}  # CDN url -> a file attached to a command

    def next_id(self) -> int:
        return next(self._ids)

    async def from_cdn(self, url: str) -> bytes:
        """`HTTPClient.get_from_cdn`'s stand-in: a file a member attached, by its url."""
        if url not in self.uploads:
            raise OfflineError(f"nothing was uploaded at {url}")
        return self.uploads[url]

    def now(self) -> float:
        """The offline Discord's clock (seconds): real time plus every `delay`."""
        return time.monotonic() + self._skew

    def delay(self, seconds: float) -> None:
        """Let time pass for Discord's deadlines only (interaction answers and tokens), as
        a slow handler would; `OfflineDiscord.advance` moves the bot's clock too."""
        self._skew += seconds

    # -- people and places ------------------------------------------------------------------

    def user(self, name: str, *, bot: bool = False, manager: bool = True) -> User:
        """The user with this name, created on first use (`manager`: with every permission,
        Manage Server included, as the server's owner; else a plain member's)."""
        if name not in self.users:
            self.users[name] = User(self.next_id(), name, bot, manager)
        return self.users[name]

    def name_of(self, user_id: int) -> str:
        if user_id == self.bot_user.id:
            return self.bot_user.name
        return next((u.name for u in self.users.values() if u.id == user_id), str(user_id))

    def server_channel(self, server: str, channel: str = "games") -> int:
        """The id of the text channel of this name in the server of this name, each made on
        first use (a second server shows what one server must not see of another's)."""
        if server not in self.servers:
            self.servers[server] = self.next_id()
        guild_id = self.servers[server]
        for found in self.channels.values():
            if found["type"] == GUILD_TEXT and (found["guild_id"], found["name"]) == (
                str(guild_id),
                channel,
            ):
                return int(found["id"])
        channel_id = self.next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": GUILD_TEXT,
            "name": channel,
            "guild_id": str(guild_id),
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "flags": 0,
        }
        return channel_id

    def guild_of(self, channel_id: int) -> int | None:
        """The server a channel or thread is in; None for a direct message."""
        guild_id = self.channels[channel_id].get("guild_id")
        return None if guild_id is None else int(guild_id)

    def threads(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The threads, oldest first: all, or one server's."""
        return [
            c
            for c in self.channels.values()
            if c["type"] == PUBLIC_THREAD and guild_id in (None, int(c["guild_id"]))
        ]

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
        for channel_id, channel in self.channels.items():
            if channel_id in self.members:
                continue
            if channel["type"] == DM and channel["recipients"][0]["id"] == str(user.id):
                return channel_id
        return None

    def speak(self, user: User, locale: str) -> None:
        """The user's Discord client is set to `locale`: their interactions carry it."""
        self.locales[user.id] = locale

    def install(self, user: User) -> None:
        """Add the app to this user's account (a user install): its commands then work in
        their DMs and group DMs, where the bot is no member."""
        self.installed.add(user.id)

    def conversation(self, speaker: User, others: list[User]) -> int:
        """The id of the private conversation among these people: a DM for two, a group DM
        for more; the same people name the same conversation, whoever speaks."""
        people = tuple(sorted({speaker, *others}, key=lambda u: u.id))
        if len(people) < 2:
            raise OfflineError("a conversation needs someone else: dm NAME, group NAME NAME")
        for channel_id, members in self.members.items():
            if members == people:
                return channel_id
        channel_id = self.next_id()
        self.members[channel_id] = people
        kind = DM if len(people) == 2 else GROUP_DM
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": kind,
            "last_message_id": None,
            "recipients": [u.payload() for u in people if u != speaker],
            "flags": 0,
        }
        if kind == GROUP_DM:
            self.channels[channel_id] |= {"name": None, "icon": None, "owner_id": str(speaker.id)}
        return channel_id

    def private(self, channel_id: int) -> bool:
        """Whether a channel is people's DM or group DM, where the app may only answer."""
        return channel_id in self.members

    def keep_out(self, channel_id: int) -> None:
        """Refuse (403, 50001) a bot-token request about people's DM or group DM: the app is
        no member there, and can only answer interactions."""
        if self.private(channel_id):
            raise self.refuse(403, MISSING_ACCESS, "Missing Access (a DM the bot is not in)")

    # -- permissions and rate limits ----------------------------------------------------------

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

    def permissions(self, channel_id: int) -> discord.Permissions:
        """The bot's permissions in a channel, as interactions report them."""
        granted = discord.Permissions.all()
        for name in self.lacking(channel_id):
            setattr(granted, name, False)
        return granted

    def require(self, channel_id: int, *needed: str) -> None:
        """Refuse (403, 50013) a request needing a permission withheld in this channel.

        The model: a message needs Send Messages (Send Messages in Threads in a thread), plus
        Attach Files with files, Embed Links with embeds and Read Message History for a reply;
        a thread from a message needs Create Public Threads and Read Message History;
        archiving or locking a thread needs Manage Threads. Interaction answers and their
        follow-ups need none, as on Discord."""
        if self.lacking(channel_id) & set(needed):
            raise http_error(403, "Missing Permissions", MISSING_PERMISSIONS)

    def rate_limit(self, method: str, route: str, retry_after: float = 2.0) -> None:
        """Answer the next `method route` request (a discord.py route template, such as
        "/channels/{channel_id}/messages") with 429 Too Many Requests and this retry-after."""
        self._rate_limited.setdefault((method, route), []).append(retry_after)

    def retry_after(self, method: str, route: str) -> float | None:
        """The retry-after of the 429 a `rate_limit` holds for this request, used up."""
        waits = self._rate_limited.get((method, route))
        return waits.pop(0) if waits else None

    def fail_posts(self, seconds: float | None) -> None:
        """Answer every message post to a channel with 503 for `seconds` of this clock (a
        partial outage: edits, threads and interaction answers still work, except the
        follow-ups that are a private conversation's posts); None ends it."""
        self._posts_fail_until = None if seconds is None else self.now() + seconds

    def posts_failing(self) -> bool:
        """Whether a `fail_posts` outage is still on."""
        return self._posts_fail_until is not None and self.now() < self._posts_fail_until

    # -- refusals ---------------------------------------------------------------------------

    def refuse(self, status: int, code: int, text: str) -> discord.HTTPException:
        """Discord's answer to a request it refuses; kept as a violation for `run` to raise."""
        self.violations.append(f"{text} (error {code})")
        return http_error(status, text, code)

    def screen(self, method: str, route: str, body: Any) -> None:
        """Check a request body against Discord's API specification, when a check is set."""
        if self.check_request is None:
            return
        reasons = self.check_request(method, route, body)
        if reasons:
            raise self.refuse(400, INVALID_FORM_BODY, "; ".join(reasons))

    # -- messages ---------------------------------------------------------------------------

    def message(
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
        self._check(body, files)
        if not loading:
            self._check_not_empty(body, files)
        message_id = message_id or self.next_id()
        guild_id = self.guild_of(channel_id)
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            **({} if guild_id is None else {"guild_id": str(guild_id)}),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": now_text(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(files, body),
            "embeds": body.get("embeds") or [],
            "components": numbered(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": flags | (body.get("flags") or 0),
            "application_id": str(self.application_id),
        }
        self.messages[message_id] = message
        return message

    def apply_edit(
        self, message_id: int, body: Mapping[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        self._check(body, files)
        message = self.messages[message_id]
        edited = {key: body[key] for key in ("content", "components", "embeds") if key in body}
        self._check_not_empty({**message, **edited}, files)
        for key, value in edited.items():
            message[key] = value or ([] if key != "content" else "")
        message["components"] = numbered(message["components"])
        if files:
            message["attachments"] = self._attachments(files, body)
        message["edited_timestamp"] = now_text()
        self.record("edit", message, files, self._owners.get(message_id))
        return message

    def record(
        self,
        kind: str,
        message: dict[str, Any],
        files: list[tuple[str, bytes]],
        for_user: int | None = None,
    ) -> None:
        """Keep what the bot sent or edited as a `Sent`, seen by `for_user` if ephemeral."""
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
                descriptions=[a["description"] for a in message["attachments"]] if files else [],
            )
        )

    def owned(self, message_id: int, user_id: int | None) -> None:
        """An ephemeral message (a private "thinking…") is seen by this user alone."""
        if user_id is not None:
            self._owners[message_id] = user_id

    def latest(self, test: Any = None) -> Sent:
        """The most recent message (not a defer) the bot sent that passes `test`."""
        for sent in reversed(self.sent):
            if sent.kind in ("message", "edit") and (test is None or test(sent)):
                return sent
        raise OfflineError("no such message was sent")

    def _check(self, body: Mapping[str, Any], files: list[tuple[str, bytes]]) -> None:
        """Refuse what Discord refuses (400), so tests catch a message Discord would reject."""
        problems = limit_problems(body, files)
        if problems:
            raise self.refuse(400, INVALID_FORM_BODY, "; ".join(problems))

    def _check_not_empty(self, message: Mapping[str, Any], files: list[tuple[str, bytes]]) -> None:
        if is_empty(message, files):
            raise self.refuse(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def _attachments(
        self, files: list[tuple[str, bytes]], body: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Uploaded files as Discord lists them, with the alt text (`description`) sent."""
        alt = [item.get("description") for item in body.get("attachments") or []]
        listed = []
        for index, (name, data) in enumerate(files):
            entry: dict[str, Any] = {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.offline.invalid/{name}",
                "proxy_url": f"https://media.offline.invalid/{name}",
            }
            if index < len(alt) and alt[index]:
                entry["description"] = alt[index]
            listed.append(entry)
        return listed
