"""The interaction protocol, Discord's side: the payloads an interaction arrives with, and
the answers to the bot's callbacks, follow-ups and edits through the interaction's token
(`AsyncWebhookAdapter.request`'s stand-in), one function per endpoint in `ENDPOINTS`.

It refuses what Discord refuses: a second or late answer (after 3 s), a token used before
the answer or after 15 minutes, on the offline Discord's clock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.offline.checks import choice_problems
from bot.offline.records import (
    ALREADY_ACKNOWLEDGED,
    EPHEMERAL,
    FOLLOW_UPS,
    INVALID_FORM_BODY,
    INVALID_WEBHOOK_TOKEN,
    LOADING,
    UNKNOWN_INTERACTION,
    UNKNOWN_WEBHOOK,
    OfflineError,
    Pending,
    Sent,
    Upload,
    User,
    flat,
    http_error,
)
from bot.offline.routes import Endpoint, Files, answer, json_body
from bot.offline.state import DiscordState

COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2  # option types that nest a command's options
RESPONSE_DEADLINE = 3.0  # seconds to answer an interaction (else 10062)
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used (else 50027)

# -- what an interaction arrives with ---------------------------------------------------------


def interaction(
    state: DiscordState, kind: int, user: User, channel_id: int | None
) -> dict[str, Any]:
    """An interaction of this type from `user` in a channel (the text channel by default),
    without its `data`."""
    interaction_id = state.next_id()
    where = channel_id or state.channel_id
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(state.application_id),
        "type": kind,
        "token": f"token-{interaction_id}",
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel_id": str(where),
        "channel": state.channels[where],
        "locale": state.locales.get(user.id, "en-US"),
        "app_permissions": str(state.permissions(where).value),
        "entitlements": [],
    }
    guild_id = state.guild_of(where)
    if state.private(where):
        # Discord lists a conversation's recipients as the one asking sees them: the others
        others = [member.payload() for member in state.members[where] if member != user]
        payload["channel"] = {**state.channels[where], "recipients": others}
        payload["user"] = user.payload()
        payload["context"] = 2  # people's DM or group DM
        payload["authorizing_integration_owners"] = {"1": str(_installer(state, user, where).id)}
        payload["app_permissions"] = str(discord.Permissions.none().value)
    elif guild_id is None:
        payload["user"] = user.payload()
        payload["context"] = 1  # the bot's DM
        payload["authorizing_integration_owners"] = {"0": "0"}
    else:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
        payload["guild_locale"] = "en-US"
        payload["member"] = user.member()
        payload["context"] = 0  # a server
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
    return payload


def _installer(state: DiscordState, user: User, channel_id: int) -> User:
    """Whose install of the app an interaction in people's conversation goes through: the
    user's own, else (a button on the app's message) a member's who added it."""
    if user.id in state.installed:
        return user
    for member in state.members[channel_id]:
        if member.id in state.installed:
            return member
    raise OfflineError(f"nobody here added the app to their account: install {user.name} first")


def slash_command(
    tree: app_commands.CommandTree[Any], name: str
) -> app_commands.Command[Any, ..., Any]:
    """The slash command of this name in the bot's tree (`tournament create` names a
    subcommand); a script names one that is not."""
    root, *path = name.split()
    command = tree.get_command(root)
    for part in path:
        command = command.get_command(part) if isinstance(command, app_commands.Group) else None
    if not isinstance(command, app_commands.Command):
        raise OfflineError(f"there is no /{name} command")
    return command


def command_data(
    state: DiscordState, command: app_commands.Command[Any, ..., Any], options: Mapping[str, Any]
) -> dict[str, Any]:
    """A slash command's `data`, its options typed as Discord's client types them."""
    name = command.qualified_name
    kinds = {p.name: p.type for p in command.parameters}
    leaf: dict[str, Any] = {"options": []}
    data: dict[str, Any] = {"id": str(state.next_id()), "type": 1}
    data.update(_nested(name.split(), leaf))
    resolved: dict[str, dict[str, Any]] = {
        "users": {},
        "members": {},
        "channels": {},
        "attachments": {},
    }
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
        elif kinds[key] in (
            discord.AppCommandOptionType.user,
            discord.AppCommandOptionType.mentionable,
        ):
            raise OfflineError(f"/{name} {key} takes a member: write @{value}, not {value!r}")
        elif kinds[key] is discord.AppCommandOptionType.integer and isinstance(value, str):
            if not value.strip().isdigit():  # typed in an offline script
                raise OfflineError(f"/{name} {key} takes a whole number, not {value!r}")
            value = int(value)
        elif kinds[key] is discord.AppCommandOptionType.channel:
            if value not in state.channels:
                raise OfflineError(f"/{name} {key} takes a channel, not {value!r}")
            resolved["channels"][str(value)] = {**state.channels[value], "permissions": "0"}
            value = str(value)
        elif isinstance(value, Upload):
            value = attached(state, value, resolved["attachments"])
        elif kinds[key] is discord.AppCommandOptionType.boolean and isinstance(value, str):
            value = value.strip().lower() in ("true", "yes", "on")  # typed in a script
        leaf["options"].append({"name": key, "type": kinds[key].value, "value": value})
    used = {kind: found for kind, found in resolved.items() if found}
    if used:
        data["resolved"] = used
    return data


def attached(state: DiscordState, upload: Upload, into: dict[str, Any]) -> str:
    """An uploaded file as the option's value (its id) and its entry in `resolved`; the
    bot downloads it from its url."""
    attachment_id = state.next_id()
    url = f"https://cdn.discordapp.com/attachments/{state.channel_id}/{attachment_id}/"
    url += upload.filename
    state.uploads[url] = upload.data
    into[str(attachment_id)] = {
        "id": str(attachment_id),
        "filename": upload.filename,
        "size": len(upload.data),
        "url": url,
        "proxy_url": url,
    }
    return str(attachment_id)


def _nested(names: list[str], leaf: dict[str, Any]) -> dict[str, Any]:
    """A command's name and options, its subcommand (and group) nested as Discord nests
    them: the leaf's options sit inside the innermost subcommand."""
    if len(names) == 1:
        leaf["name"] = names[0]
        return leaf
    inner = _nested(names[1:], leaf)
    inner["type"] = SUB_COMMAND_GROUP if len(names) > 2 else SUB_COMMAND
    return {"name": names[0], "options": [inner]}


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options the command itself takes, inside any subcommand nesting."""
    options: list[dict[str, Any]] = data.get("options", [])
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        options = options[0].get("options", [])
    return options


def component(state: DiscordState, message_id: int, test: Any, what: str) -> dict[str, Any]:
    """The first component of a message that passes `test`; `what` names it if none does."""
    message = state.messages.get(message_id)
    if message is None:
        raise OfflineError(f"there is no message {message_id}")
    for found in flat(message.get("components", [])):
        if test(found):
            return found
    raise OfflineError(f"message {message_id} has no {what}")


# -- what the bot answers with ----------------------------------------------------------------


class WebhookAdapter(AsyncWebhookAdapter):
    """Answers interaction callbacks and follow-ups from the offline Discord instead of the
    network."""

    def __init__(self, state: DiscordState) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.state = state

    async def request(self, route: Route, session: Any, **kwargs: Any) -> Any:
        body = json_body(kwargs.get("payload"), kwargs.get("multipart"))
        files = kwargs.get("files")
        return answer(ENDPOINTS, self.state, route.method, route.path, route.url, body, files)


def callback(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    """The interaction's one answer: a message, a deferral, an edit or autocomplete choices."""
    info = state.interactions[ids["webhook_token"]]
    if info.responded:
        raise state.refuse(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged")
    if state.now() - info.created > RESPONSE_DEADLINE:
        raise state.refuse(404, UNKNOWN_INTERACTION, "Unknown interaction (answered after 3 s)")
    kind = body["type"]
    data = body.get("data") or {}
    ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
    resource: dict[str, Any] | None = None
    message_id: int | None = None
    if kind == 8:
        problems = choice_problems(data.get("choices", []))
        if problems:
            raise state.refuse(400, INVALID_FORM_BODY, "; ".join(problems))
        state.autocompleted[info.id] = data.get("choices", [])
    elif kind in (4, 5):
        info.ephemeral = ephemeral
        info.deferred = kind == 5
        flags = EPHEMERAL if ephemeral else 0
        loading = LOADING if kind == 5 else 0
        message = state.message(info.channel_id, data, files, flags | loading, loading=kind == 5)
        info.original = message_id = int(message["id"])
        if kind == 4:
            state.record("message", message, files, info.user.id)
        else:
            state.owned(message_id, info.user.id if ephemeral else None)
            state.sent.append(
                Sent("defer", info.channel_id, message_id, "", ephemeral, for_user=info.user.id)
            )
        resource = {"type": kind, "message": message}
    elif kind == 6:
        state.sent.append(Sent("defer", info.channel_id, info.message_id, "", False))
    elif kind == 7:
        assert info.message_id is not None
        message = state.apply_edit(info.message_id, data, files)
        message_id = info.message_id
        resource = {"type": kind, "message": message}
    else:
        raise OfflineError(f"interaction callback type {kind} is not supported offline")
    info.responded = True
    return {
        "interaction": {
            "id": str(info.id),
            "type": _reported_type(kind),
            "response_message_id": str(message_id) if message_id else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": ephemeral,
        },
        "resource": resource,
    }


def followup(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    """A follow-up message; the first after a deferred reply fills its "thinking…"."""
    info = _token_use(state, ids)
    if info.deferred and info.original is not None:
        info.deferred = False
        message = state.messages[info.original]
        message.update(state.message(info.channel_id, body, files, 0, info.original))
        message["flags"] = EPHEMERAL if info.ephemeral else 0
        state.record("message", message, files, info.user.id)
        return message
    if state.private(info.channel_id) and state.posts_failing():
        raise http_error(503, "Service Unavailable")  # a conversation's posts are follow-ups
    if state.private(info.channel_id) and info.follow_ups >= FOLLOW_UPS:
        raise state.refuse(400, 0, f"Maximum follow-up messages reached ({FOLLOW_UPS})")
    info.follow_ups += 1
    flags = (body.get("flags") or 0) & EPHEMERAL
    message = state.message(info.channel_id, body, files, flags)
    info.made.add(int(message["id"]))
    state.record("message", message, files, info.user.id)
    return message


def get_message(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    return state.messages[_target(state, ids)]


def edit_message(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    message_id = _target(state, ids)
    info = state.interactions[ids["webhook_token"]]
    own = {info.original, info.message_id, *info.made}
    if state.private(info.channel_id) and message_id not in own:
        raise state.refuse(400, 0, "A token edits only the messages of its own interaction")
    if info.deferred and message_id == info.original:
        info.deferred = False
    state.messages[message_id]["flags"] &= ~LOADING
    return state.apply_edit(message_id, body, files)


def delete_message(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    message_id = _target(state, ids)
    message = state.messages.pop(message_id)
    state.sent.append(Sent("delete", int(message["channel_id"]), message_id))


def _token_use(state: DiscordState, ids: dict[str, str]) -> Pending:
    """The interaction whose token a follow-up or edit uses, if Discord would accept it."""
    info = state.interactions[ids["webhook_token"]]
    if not info.responded:
        raise state.refuse(404, UNKNOWN_WEBHOOK, "Unknown Webhook (used before the response)")
    if state.now() - info.created > TOKEN_LIFETIME:
        raise state.refuse(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token (over 15 min)")
    return info


def _target(state: DiscordState, ids: dict[str, str]) -> int:
    """The message a token's request names: by id, or `@original` (its route has no id)."""
    info = _token_use(state, ids)
    if "message_id" in ids:
        return int(ids["message_id"])
    target = info.original or info.message_id
    if target is None:
        raise http_error(404, "Unknown Message")
    return target


def _reported_type(kind: int) -> int:
    """The interaction type Discord reports back for a callback type (only 'component' matters
    to discord.py, and it never reads it)."""
    return COMPONENT if kind in (6, 7) else COMMAND


TOKEN = "/webhooks/{webhook_id}/{webhook_token}"
MESSAGE, ORIGINAL = TOKEN + "/messages/{message_id}", TOKEN + "/messages/@original"
ENDPOINTS: dict[tuple[str, str], Endpoint] = {
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): callback,
    ("POST", TOKEN): followup,
    ("GET", MESSAGE): get_message,
    ("GET", ORIGINAL): get_message,
    ("PATCH", MESSAGE): edit_message,
    ("PATCH", ORIGINAL): edit_message,
    ("DELETE", MESSAGE): delete_message,
    ("DELETE", ORIGINAL): delete_message,
}
