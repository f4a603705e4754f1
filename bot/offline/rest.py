"""The offline Discord's REST API, as the bot's token calls it (login, command sync, channel
messages, threads, DMs): one function per endpoint, each registered in `ENDPOINTS`."""

from __future__ import annotations

from typing import Any

from discord.http import Route

from bot.offline.records import DM, GUILD_TEXT, PUBLIC_THREAD, Sent, http_error, now_text
from bot.offline.routes import Endpoint, Files, answer, json_body
from bot.offline.state import DiscordState


async def request(
    state: DiscordState, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
) -> Any:
    """`HTTPClient.request`'s stand-in."""
    body = json_body(kwargs.get("json"), form)
    return answer(ENDPOINTS, state, route.method, route.path, route.url, body, files)


def me(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    return state.bot_user.payload()


def application(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    return {
        "id": str(state.application_id),
        "name": "Board Games",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": state.user("owner").payload(),
        "verify_key": "offline",
        "flags": 0,
    }


def sync(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    return [
        {
            **command,
            "id": str(state.next_id()),
            "application_id": str(state.application_id),
            "version": "1",
            "default_member_permissions": None,
            "dm_permission": True,
        }
        for command in body
    ]


def post(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    channel_id = int(ids["channel_id"])
    channel = state.channels.get(channel_id)
    if channel is None:
        raise http_error(404, "Unknown Channel")
    state.keep_out(channel_id)
    if state.posts_failing():
        raise http_error(503, "Service Unavailable")
    in_thread = channel["type"] == PUBLIC_THREAD
    needed = ["send_messages_in_threads" if in_thread else "send_messages"]
    needed += ["attach_files"] * bool(files) + ["embed_links"] * bool(body.get("embeds"))
    needed += ["read_message_history"] * bool(body.get("message_reference"))
    state.require(channel_id, *needed)
    if in_thread:
        channel["thread_metadata"]["archived"] = False
    if channel["type"] == DM and int(channel["recipients"][0]["id"]) in state.closed_dms:
        raise http_error(403, "Cannot send messages to this user", 50007)
    message = state.message(channel_id, body, files, 0)
    state.record("message", message, files)
    return message


def edit(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    message_id = int(ids["message_id"])
    state.keep_out(int(ids["channel_id"]))
    if message_id not in state.messages:
        raise http_error(404, "Unknown Message")
    return state.apply_edit(message_id, body, files)


def thread(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    parent = int(ids["channel_id"])
    state.keep_out(parent)
    state.require(parent, "create_public_threads", "read_message_history")
    if state.channels[parent]["type"] != GUILD_TEXT:
        raise http_error(400, "Cannot create a thread here")
    thread_id = int(ids["message_id"])  # Discord gives the thread its message's id
    state.channels[thread_id] = {
        "id": str(thread_id),
        "type": PUBLIC_THREAD,
        "name": body["name"],
        "guild_id": state.channels[parent]["guild_id"],
        "parent_id": str(parent),
        "owner_id": str(state.bot_user.id),
        "message_count": 0,
        "member_count": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": body.get("auto_archive_duration", 1440),
            "archive_timestamp": now_text(),
            "locked": False,
        },
    }
    state.sent.append(Sent("thread", parent, thread_id, body["name"]))
    return state.channels[thread_id]


def channel(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    found = state.channels.get(int(ids["channel_id"]))
    if found is None:
        raise http_error(404, "Unknown Channel")
    state.keep_out(int(ids["channel_id"]))
    return found


def edit_channel(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    edited = channel(state, ids, body, files)
    if edited["type"] == PUBLIC_THREAD and (body.get("archived") or body.get("locked")):
        state.require(int(edited["id"]), "manage_threads")
    if "archived" in body:
        edited["thread_metadata"]["archived"] = bool(body["archived"])
        if body["archived"]:
            state.sent.append(Sent("archive", int(edited["id"]), None, edited["name"]))
    return edited


def open_dm(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    recipient = int(body["recipient_id"])
    user = next((u for u in state.users.values() if u.id == recipient), None)
    if user is None:
        raise http_error(400, "Unknown User", 10013)
    return state.channels[state.dm(user)]


def typing(state: DiscordState, ids: dict[str, str], body: Any, files: Files) -> Any:
    """The typing indicator: shown for a few seconds, recorded as a "typing" event."""
    channel_id = int(ids["channel_id"])
    if channel_id not in state.channels:
        raise http_error(404, "Unknown Channel")
    state.keep_out(channel_id)
    state.sent.append(Sent("typing", channel_id))
    return None


ENDPOINTS: dict[tuple[str, str], Endpoint] = {
    ("GET", "/users/@me"): me,
    ("GET", "/oauth2/applications/@me"): application,
    ("PUT", "/applications/{application_id}/commands"): sync,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): sync,
    ("POST", "/channels/{channel_id}/messages"): post,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): edit,
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): thread,
    ("GET", "/channels/{channel_id}"): channel,
    ("PATCH", "/channels/{channel_id}"): edit_channel,
    ("POST", "/users/@me/channels"): open_dm,
    ("POST", "/channels/{channel_id}/typing"): typing,
}
