"""The folder list shows the layers: the product imports nothing made for tests, and the
benchmarks and the tests share what both need through `fixtures/`, never each other."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("rules", "renderers", "ai", "bot")
TEST_ONLY = {"tests", "benchmarks", "fixtures", "pytest", "hypothesis", "jsonschema"}


def imported(package: str) -> Iterator[tuple[Path, str]]:
    """Every (file, top-level package) import in a package, wherever it is written."""
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, alias.name.partition(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                yield path, node.module.partition(".")[0]


def test_the_product_imports_nothing_made_for_tests() -> None:
    found = [
        f"{path.relative_to(ROOT)} imports {name}"
        for package in PRODUCT
        for path, name in imported(package)
        if name in TEST_ONLY
    ]
    assert found == []


def test_benchmarks_and_tests_never_import_each_other() -> None:
    found = [f"{path.relative_to(ROOT)} imports {name}" for path, name in imported("benchmarks")]
    found += [f"{path.relative_to(ROOT)} imports {name}" for path, name in imported("tests")]
    crossing = [
        line
        for line in found
        if line.startswith("benchmarks")
        and line.endswith(" imports tests")
        or line.startswith("tests")
        and line.endswith(" imports benchmarks")
    ]
    assert crossing == []


def test_no_module_of_the_bot_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if (lines := len(path.read_text().splitlines())) > 600
    }
    assert long == {}


def test_the_five_games_are_laid_out_alike() -> None:
    """A package per game, each with the same modules (Kyo adds its turn finder, replay and
    picker)."""
    from rules import GAMES

    shapes = {name: {path.stem for path in (ROOT / "rules" / name).glob("*.py")} for name in GAMES}
    common = set.intersection(*shapes.values())
    assert common >= {"__init__", "board", "state", "game", "notation", "diagram", "explain"}
    assert {name: shape - common for name, shape in shapes.items() if shape - common} == {
        "kyo": {"turns", "replay", "picker"}
    }
    assert not list((ROOT / "rules").glob("core.py"))


PROCESS_STARTERS = {"create_subprocess_exec", "create_subprocess_shell", "Popen", "fork"}
PROCESS_STARTERS |= {"ProcessPoolExecutor"}
PROCESS_MODULES = {"multiprocessing", "subprocess"}


def test_one_place_in_the_bot_starts_processes_and_no_thread_waits_on_one() -> None:
    """Only the worker pool starts processes (bot/workers/pool.py), and nothing waits for a
    worker in a thread: no `asyncio.to_thread` around a pipe's `poll` or `recv`."""
    starters, thread_waits = set(), []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in PROCESS_STARTERS:
                starters.add(where)
            if isinstance(node, ast.Name) and node.id in PROCESS_STARTERS:
                starters.add(where)
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                module = node.module if isinstance(node, ast.ImportFrom) else None
                if any(n.partition(".")[0] in PROCESS_MODULES for n in [*names, module or ""]):
                    starters.add(where)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "to_thread"
                and node.args
                and isinstance(node.args[0], ast.Attribute)
                and node.args[0].attr in {"poll", "recv", "recv_bytes"}
            ):
                thread_waits.append(where)
    assert starters == {"bot/workers/pool.py"}
    assert thread_waits == []
