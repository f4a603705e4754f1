"""Product code uses discord.py's public API only, so a minor release cannot break it: no
private module, no name starting with `_` on another object, no `.http` internals, no
patched discord.py class. The offline Discord (bot/offline) stands in for Discord and may
reach inside."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
PUBLIC_MODULES = {"discord", "discord.abc", "discord.app_commands", "discord.ext"}
PUBLIC_MODULES |= {"discord.ext.commands", "discord.ui", "discord.utils"}
PUBLIC_SUBMODULES = {name.split(".")[1] for name in PUBLIC_MODULES if "." in name}
OWN = {"self", "cls"}  # a class's own private names are its business


def private_uses(source: str) -> list[str]:
    """Each reach into discord.py's internals in `source`, as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("discord"):
            names = [a.name for a in node.names if a.name.startswith("_")]
            if node.module not in PUBLIC_MODULES or names:
                found.append(
                    f"{line}: from {node.module} import {', '.join(a.name for a in node.names)}"
                )
        elif isinstance(node, ast.Attribute):
            chain = _chain(node)
            if node.attr == "http":
                found.append(f"{line}: .http (discord.py's HTTP client)")
            elif node.attr.startswith("_") and not (
                _dunder(node.attr) and "discord" not in node.attr
            ):
                if not _own(node.value):
                    found.append(f"{line}: .{node.attr}")
            elif chain[:1] == ["discord"] and len(chain) > 2 and chain[1].islower():
                if chain[1] not in PUBLIC_SUBMODULES:
                    found.append(f"{line}: {'.'.join(chain)}")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _chain(target)[:1] == ["discord"]:
                    found.append(f"{line}: {'.'.join(_chain(target))} = ... (patches discord.py)")
    return found


def _chain(node: ast.expr) -> list[str]:
    """`a.b.c` as ["a", "b", "c"]; [] when it does not start from a name."""
    if isinstance(node, ast.Attribute):
        head = _chain(node.value)
        return [*head, node.attr] if head else []
    return [node.id] if isinstance(node, ast.Name) else []


def _own(node: ast.expr) -> bool:
    """`self`, `cls`, `cls(...)` or `super()`: an object whose private names are its class's."""
    if isinstance(node, ast.Call):
        node = node.func
        return isinstance(node, ast.Name) and node.id in OWN | {"super"}
    return isinstance(node, ast.Name) and node.id in OWN


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def test_product_code_uses_only_public_discord_py() -> None:
    found = [
        f"{path.relative_to(BOT.parent)}:{use}"
        for path in sorted(BOT.rglob("*.py"))
        if "offline" not in path.relative_to(BOT).parts
        for use in private_uses(path.read_text())
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        "from discord.context_managers import Typing",
        "data = await self.client.http.start_thread_with_message(1, 2, name='x')",
        "discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False",
        "template = view.__discord_ui_compiled_template__",
        "message._state.store_view(view)",
        "route = discord.http.Route('GET', '/users/@me')",
    ],
)
def test_each_kind_of_reach_inside_is_found(line: str) -> None:
    assert private_uses(line) != []


def test_public_uses_pass() -> None:
    source = (
        "from discord.ext import commands\nfrom discord.utils import MISSING\n"
        "self._seen = discord.utils.utcnow()\nname = type(self).__name__\n"
        "view = discord.ui.View(timeout=None)\n"
    )
    assert private_uses(source) == []
