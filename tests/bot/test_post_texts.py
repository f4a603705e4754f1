"""What the bot posts, what its commands answer and what an admin reads come from the
catalogue: every key the posts, cogs, jobs, permissions, start-up, settings, clock and store
modules use exists, with exactly the placeholders they pass, and no key of their catalogue
files is left unused.

A static scan of the `t("area.key", name=value)` calls, so that a sentence no other test
happens to reach is checked too; a key must be written out (or chosen by `a if c else b`
between two written keys), never computed, for the scan to see it."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.texts import ENGLISH, PLURAL_FORMS, catalogue

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
MODULES = sorted(
    [
        *(BOT / "posts").glob("*.py"),
        *(BOT / "cogs").glob("*.py"),
        *(BOT / "jobs").glob("*.py"),
        *(BOT / "records").glob("*.py"),
        BOT / "ui" / "permissions.py",
        BOT / "launch.py",
        BOT / "__main__.py",
        BOT / "settings.py",
        BOT / "clock.py",
        *(BOT / "store").glob("*.py"),
    ]
)
AREAS = (
    "posts",
    "tournaments",
    "analysis",
    "commands",
    "answers",
    "admin",
    "permissions",
    "settings",
    "records",
)
# Read as whole tables (bot/texts/mentions.py), not by t(): test_command_languages.py checks
# that they name exactly the commands and options there are.
TABLES = ("commands.names.", "commands.option_names.")


def _help_topic(key: ast.expr) -> bool:
    """A game's help topic (`help.<game>.<topic>`) is named by the game's topics; the rules'
    catalogue test checks every one of them."""
    return (
        isinstance(key, ast.JoinedStr)
        and isinstance(key.values[0], ast.Constant)
        and str(key.values[0].value).startswith("help.")
    )


@dataclass(frozen=True)
class Use:
    """One `t(...)` call: the keys it may word and the names of the values it passes."""

    keys: tuple[str, ...]
    names: frozenset[str]
    where: str


def uses(path: Path) -> Iterator[Use | str]:
    """Each `t(...)` call in a module, or where one names its key in a way the scan cannot
    read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id != "t":
            continue
        where = f"{path}:{node.lineno}"
        if _help_topic(node.args[0]):
            continue
        keys = _keys(node.args[0]) if len(node.args) == 1 else None
        spread = any(keyword.arg is None for keyword in node.keywords)
        if keys is None or spread:
            yield where
            continue
        names = frozenset(keyword.arg for keyword in node.keywords if keyword.arg is not None)
        yield Use(keys, names, where)


def _keys(node: ast.expr) -> tuple[str, ...] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.IfExp):
        body, orelse = _keys(node.body), _keys(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def fields(template: str) -> set[str]:
    """The placeholders of a sentence: `{player}`, `{user!r}` -> player, user."""
    found = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is not None:
            found.add(name.split(".")[0].split("[")[0])
    return found


def forms(key: str) -> dict[str, str]:
    """The plural forms of a key (`posts.pace.one`, `posts.pace.other`), if it is a table."""
    entries = catalogue(ENGLISH)
    return {f: entries[f"{key}.{f}"] for f in PLURAL_FORMS if f"{key}.{f}" in entries}


def problem(key: str, names: frozenset[str]) -> str | None:
    """Why a call's key or values do not fit the catalogue, or None if they do."""
    entries = catalogue(ENGLISH)
    if key in entries:
        wanted = fields(entries[key])
        return None if wanted == names else f"{key} takes {sorted(wanted)}, given {sorted(names)}"
    table = forms(key)
    if "other" not in table:
        return f"{key} is not in the catalogue"
    if "count" not in names:
        return f"{key} has plural forms, chosen by a `count` it is not given"
    for form, template in table.items():
        if not fields(template) <= names:
            return f"{key}.{form} takes {sorted(fields(template))}, given {sorted(names)}"
    wanted = set.union(*(fields(template) for template in table.values())) | {"count"}
    return None if wanted == names else f"{key} takes {sorted(wanted)}, given {sorted(names)}"


def test_every_key_used_exists_with_exactly_the_placeholders_passed() -> None:
    found = [use for path in MODULES for use in uses(path)]
    unreadable = [use for use in found if isinstance(use, str)]
    assert not unreadable, f"keys the scan cannot read (write them out): {unreadable}"
    calls = [use for use in found if isinstance(use, Use)]
    assert len(calls) > 300
    problems = [
        f"{use.where}: {why}"
        for use in calls
        for key in use.keys
        if (why := problem(key, use.names)) is not None
    ]
    assert not problems, "\n".join(problems)


def test_no_key_of_these_areas_is_unused() -> None:
    used = {
        key
        for path in sorted(BOT.rglob("*.py"))
        for use in uses(path)
        if isinstance(use, Use)
        for key in use.keys
    }
    unused = []
    for key in catalogue(ENGLISH):
        if key.split(".")[0] not in AREAS or key.startswith(TABLES):
            continue
        table, _, form = key.rpartition(".")
        if key not in used and not (form in PLURAL_FORMS and table in used):
            unused.append(key)
    assert not unused, f"keys nothing words: {unused}"


def test_the_scan_sees_what_it_must(tmp_path: Path) -> None:
    """The checks above can fail: a missing key, a wrong or missing placeholder, a count
    missing for a plural table, a key computed at run time or values spread from a dict."""
    assert problem("posts.no_such_key", frozenset()) == "posts.no_such_key is not in the catalogue"
    assert problem("posts.deadline", frozenset({"deadline"})) is None
    assert problem("posts.deadline", frozenset({"due"})) is not None
    assert problem("posts.deadline", frozenset({"deadline", "extra"})) is not None
    assert problem("posts.pace", frozenset({"count"})) is None
    assert problem("posts.pace", frozenset({"days"})) is not None
    module = tmp_path / "module.py"
    module.write_text(
        't("a.b", x=1)\nt("a.c" if y else "a.d")\nt(key)\nt("a.e", **values)\nsay(x)\n'
    )
    found = list(uses(module))
    readable = [(use.keys, use.names) for use in found if isinstance(use, Use)]
    assert readable == [(("a.b",), {"x"}), (("a.c", "a.d"), frozenset())]
    assert [use for use in found if isinstance(use, str)] == [f"{module}:3", f"{module}:4"]
