"""What Discord refuses in a message, checked before the offline Discord keeps it; a
`RequestCheck` (tests/bot/spec.py, from Discord's OpenAPI document) screens every body."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.offline.records import flat

RequestCheck = Callable[[str, str, Any], list[str]]
"""(method, route template, body) -> why Discord would refuse it; see tests/bot/spec.py."""

SELECT_MENUS = (3, 5, 6, 7, 8)
MESSAGE_PARTS = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")


def limit_problems(body: Mapping[str, Any], files: list[tuple[str, bytes]]) -> list[str]:
    """Each limit of Discord's a new or edited message breaks (it answers them with 400)."""
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
    custom_ids = [c["custom_id"] for c in flat(rows) if "custom_id" in c]
    if len(set(custom_ids)) < len(custom_ids):
        problems.append("two components have the same custom_id")
    for component in flat(rows):
        problems += _component_problems(component)
    if any(len(data) > 10 * 1024 * 1024 for _, data in files):
        problems.append("a file is larger than 10 MiB")
    if any(len(a.get("description") or "") > 1024 for a in body.get("attachments") or []):
        problems.append("an attachment's description is longer than 1024 characters")
    return problems + [problem for embed in body.get("embeds") or [] for problem in _embed(embed)]


def is_empty(message: Mapping[str, Any], files: list[tuple[str, bytes]]) -> bool:
    """A message needs content, an embed, a component, a file or a sticker (else 50006)."""
    return not files and not any(message.get(part) for part in MESSAGE_PARTS)


def choice_problems(choices: list[dict[str, Any]]) -> list[str]:
    """What Discord refuses in the choices an autocomplete answer offers."""
    problems = []
    if len(choices) > 25 or any(len(c["name"]) > 100 for c in choices):
        problems.append("at most 25 choices, names of at most 100 characters")
    if any(len(str(c["value"])) > 100 for c in choices):
        problems.append("a choice value is over 100 characters")
    return problems


def _component_problems(component: Mapping[str, Any]) -> list[str]:
    problems = []
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
    return problems


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
