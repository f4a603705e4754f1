"""The bot's modules import each other without a circle, and nothing outside the cogs imports one.

Counted are the imports a module runs when it is loaded (TYPE_CHECKING blocks are not run).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_files(package: str) -> dict[str, Path]:
    files = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def _type_checking(statement: ast.If) -> bool:
    test = statement.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_on_load(statements: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module body, including those under `if` and `try`."""
    found: list[ast.Import | ast.ImportFrom] = []
    for statement in statements:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            found.append(statement)
        elif isinstance(statement, ast.If):
            if not _type_checking(statement):
                found += _run_on_load(statement.body)
            found += _run_on_load(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                found += _run_on_load(block)
            for handler in statement.handlers:
                found += _run_on_load(handler.body)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` to the modules of `package` it imports when loaded."""
    files = module_files(package)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: set[str] = set()
        for statement in _run_on_load(ast.parse(path.read_text()).body):
            if isinstance(statement, ast.Import):
                targets.update(alias.name for alias in statement.names)
                continue
            base = statement.module or ""
            if statement.level:
                anchor = here[: len(here) - statement.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in statement.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in files else base)
        graph[name] = {target for target in targets if target in files and target != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle as a path that ends where it starts, or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        path.append(module)
        for target in sorted(graph[module]):
            if cycle := visit(target):
                return cycle
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if cycle := visit(module):
            return cycle
    return []


def test_no_import_circle_in_bot() -> None:
    graph = import_graph("bot")
    assert graph["bot.app"] >= {"bot.jobs.reminders", "bot.posts.notifications"}  # it sees them
    assert find_cycle(graph) == []


def test_the_circle_finder_finds_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_no_module_outside_the_cogs_imports_a_cog() -> None:
    """Job handlers, views and the announcer never reach up into a cog for its words."""
    reaching_up = {
        module
        for module, targets in import_graph("bot").items()
        if not module.startswith("bot.cogs") and any(t.startswith("bot.cogs.") for t in targets)
    }
    assert reaching_up == set()
