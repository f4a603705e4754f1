"""How a request the bot makes finds the function that answers it: each stand-in endpoint is
one function, registered under discord.py's route template in its module's table."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

import discord

from bot.offline.records import FakeResponse, OfflineError
from bot.offline.state import DiscordState

Files = list[tuple[str, bytes]]
Endpoint = Callable[[DiscordState, dict[str, str], Any, Files], Any]
"""(the offline Discord, the route's parameters, the JSON body, the files) -> the answer."""
Table = Mapping[tuple[str, str], Endpoint]


def answer(
    table: Table,
    state: DiscordState,
    method: str,
    template: str,
    url: str,
    body: Any,
    files: Any,
) -> Any:
    """Log and screen a request, then answer it with a held 429 (`rate_limit`) or with the
    endpoint its table names."""
    state.requests.append((method, template, body))
    state.screen(method, template, body)
    retry_after = state.retry_after(method, template)
    if retry_after is not None:
        raise _too_many_requests(retry_after)
    endpoint = table.get((method, template))
    if endpoint is None:
        raise OfflineError(f"the offline Discord does not answer {method} {template}")
    return endpoint(state, _parameters(template, url), body or {}, _read(files))


def json_body(body: Any, parts: Iterable[Mapping[str, Any]] | None) -> Any:
    """The JSON body, which a multipart request carries in its `payload_json` part."""
    for part in parts or ():
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
    return body


def _too_many_requests(retry_after: float) -> discord.HTTPException:
    response = FakeResponse(429, "Too Many Requests", {"Retry-After": str(retry_after)})
    data = {"message": "You are being rate limited.", "retry_after": retry_after}
    return discord.HTTPException(response, {**data, "global": False, "code": 0})


def _parameters(template: str, url: str) -> dict[str, str]:
    path = url.split("/api/v10", 1)[-1].split("?", 1)[0]
    found = _pattern(template).match(path)
    return found.groupdict() if found else {}


@cache
def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


def _read(files: Any) -> Files:
    out = []
    for file in files or ():
        file.reset()
        out.append((file.filename, file.fp.read()))
    return out
