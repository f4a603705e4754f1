"""Discord's published OpenAPI document as a checker of every request body the bot sends.

The harness calls `check_request(method, route, body)` from both network seams; each
violation it returns fails the test that caused it. The document is loaded once per test
session, validators are compiled once per route, and verdicts on bodies seen before are
reused (a game repeats many), so the check stays cheap.

Documented exceptions: discord.py sends `attachments[].id` as an integer (0 for a lone new
upload, else the upload's index), `recipient_id` as an integer when it opens a DM, and the
ids in `allowed_mentions.users` as integers (AllowedMentions(users=[...])); Discord accepts all
three though the document types snowflakes as strings. Those integers are read as
strings before validation; nothing else is relaxed.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).with_name("discord_api") / "openapi.json"
SPEC_URI = "urn:discord:openapi"
PARAMETER = re.compile(r"\{\w+\}")


@cache
def _document() -> dict[str, Any]:
    return json.loads(SPEC.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry().with_resource(
        SPEC_URI, DRAFT202012.create_resource(_document())
    )
    return registry


@cache
def _paths() -> dict[str, str]:
    """Route templates with their parameters' names erased ('/channels/{}/messages'), so
    discord.py's `{webhook_id}` finds the document's `{interaction_id}`."""
    return {PARAMETER.sub("{}", path): path for path in _document()["paths"]}


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


@cache
def _validator(method: str, route: str) -> Draft202012Validator | None:
    """The compiled request-body validator of a route, None if it takes no body.
    Raises KeyError if Discord's API has no such route."""
    path = _paths()[PARAMETER.sub("{}", route)]
    operation = _document()["paths"][path][method.lower()]
    if "requestBody" not in operation:
        return None
    where = _pointer("paths", path, method.lower(), "requestBody", "content")
    schema = {"$ref": f"{SPEC_URI}#/{where}/application~1json/schema"}
    return Draft202012Validator(schema, registry=_registry())


def _with_ids_as_text(body: Any) -> Any:
    """The documented exceptions: ids discord.py sends as JSON integers, which Discord
    accepts though the document types snowflakes as strings: `attachments[].id` (0, or the
    upload's index, in a message or in a callback's `data`), `recipient_id` (when
    opening a direct-message channel) and `allowed_mentions.users`. Only non-negative
    integers pass."""
    if not isinstance(body, dict):
        return body
    fixed = dict(body)
    if isinstance(body.get("data"), dict):
        fixed["data"] = _with_ids_as_text(body["data"])
    if isinstance(body.get("attachments"), list):
        fixed["attachments"] = [
            {**a, "id": str(a["id"])} if isinstance(a, dict) and _integer_id(a.get("id")) else a
            for a in body["attachments"]
        ]
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict) and isinstance(mentions.get("users"), list):
        users = [str(u) if _integer_id(u) else u for u in mentions["users"]]
        fixed["allowed_mentions"] = {**mentions, "users": users}
    if _integer_id(body.get("recipient_id")):
        fixed["recipient_id"] = str(body["recipient_id"])
    return fixed


def _integer_id(value: Any) -> bool:
    return type(value) is int and value >= 0


def check_request(method: str, route: str, body: Any) -> list[str]:
    """Why Discord would refuse this request body (400 Invalid Form Body); empty if valid."""
    return list(_judge(method, route, json.dumps(body, sort_keys=True)))


@lru_cache(maxsize=4096)
def _judge(method: str, route: str, body_json: str) -> tuple[str, ...]:
    """The verdict on one body, kept: a game repeats many bodies (stripped buttons, defers)."""
    body = json.loads(body_json)
    try:
        validator = _validator(method, route)
    except KeyError:
        return (f"{method} {route} is not part of Discord's API",)
    if validator is None:
        return () if body is None else (f"{method} {route} takes no body",)
    errors = validator.iter_errors(_with_ids_as_text(body))
    return tuple(f"{method} {route}: {reason}" for error in errors for reason in _reasons(error))


def _reasons(error: ValidationError) -> list[str]:
    """Plain reasons for an error. Inside `oneOf`/`anyOf`, only the alternative meant for
    what was sent speaks (a button is not faulted for not being a select menu): not one of
    another kind, and of the rest the one with the fewest faults."""
    where = "/".join(map(str, error.absolute_path)) or "body"
    if not error.context:
        return [f"{where}: {_plain(error)}"]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errors for errors in branches.values() if not any(map(_wrong_kind, errors))]
    if not fitting:
        return [f"{where}: fits none of the shapes Discord accepts there"]
    closest = min(fitting, key=lambda errors: sum(map(_size, errors)))
    return [reason for sub in closest for reason in _reasons(sub)]


def _size(error: ValidationError) -> int:
    return 1 + sum(map(_size, error.context))


def _wrong_kind(error: ValidationError) -> bool:
    """An alternative meant for another kind: its `type` discriminator or JSON type differs."""
    if not error.relative_path:
        return bool(error.validator == "type")
    return list(error.relative_path) == ["type"] and error.validator in ("enum", "const")


def _plain(error: ValidationError) -> str:
    if error.validator in ("maxLength", "maxItems", "minLength", "minItems"):
        bound = "at most" if error.validator.startswith("max") else "at least"
        return f"has {len(error.instance)}, {bound} {error.validator_value} allowed"
    message = str(error.message)
    return message if len(message) <= 160 else message[:159] + "…"
