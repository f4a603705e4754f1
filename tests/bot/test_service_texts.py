"""What the service tells members comes from its catalogue, bot/texts/en.toml [service].

Read from the code without running it: every `t("service.…", name=…)` call names a key the
file has, with the placeholders its sentence uses; every key of the file is used; and no error
the service raises is worded in the code.
"""

from __future__ import annotations

import ast
from pathlib import Path
from string import Formatter

import pytest

from bot.service import refusal
from bot.texts import PLURAL_FORMS, catalogue, say

ROOT = Path(__file__).resolve().parents[2]
SCANNED = [*sorted((ROOT / "bot" / "service").rglob("*.py")), ROOT / "bot" / "ui" / "interface.py"]
ERRORS = {"ServiceError", "TooComplex", "OutOfDate"}  # the service's errors a member reads
AREA = "service."


def _calls(path: Path) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)]


def _named(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None


def _uses() -> list[tuple[str, str, frozenset[str]]]:
    """Each `t(...)` call of the scanned files: where, its key and the names it passes."""
    found = []
    for path in SCANNED:
        for call in _calls(path):
            if _named(call) != "t":
                continue
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            key = call.args[0] if call.args else None
            assert isinstance(key, ast.Constant) and isinstance(key.value, str), (
                f"{where}: a key is written out, so it can be checked"
            )
            names = [keyword.arg for keyword in call.keywords]
            assert None not in names, f"{where}: values are named one by one, not unpacked"
            found.append((where, key.value, frozenset(name for name in names if name)))
    return found


def _entries() -> dict[str, dict[str, str]]:
    """The service's sentences by key: a plain one under "", or its plural forms."""
    entries: dict[str, dict[str, str]] = {}
    for key, text in catalogue("en").items():
        if not key.startswith(AREA):
            continue
        base, _, form = key.rpartition(".")
        if form in PLURAL_FORMS:
            entries.setdefault(base, {})[form] = text
        else:
            entries.setdefault(key, {})[""] = text
    return entries


def _placeholders(text: str) -> set[str]:
    fields = (field for _, field, _, _ in Formatter().parse(text) if field is not None)
    return {field.split(".")[0].split("[")[0] for field in fields}


def test_every_key_used_exists_with_the_placeholders_passed() -> None:
    entries = _entries()
    uses = [(where, key, names) for where, key, names in _uses() if key.startswith(AREA)]
    assert uses
    for where, key, names in uses:
        assert key in entries, f"{where}: {key} is not in bot/texts/en.toml [service]"
        forms = entries[key]
        table = "" not in forms
        assert not table or "count" in names, f"{where}: {key} has plural forms but no count"
        wanted = set().union(*map(_placeholders, forms.values()))
        assert wanted <= names, f"{where}: {key} needs {sorted(wanted - names)}"
        spare = names - wanted - ({"count"} if table else set())
        assert not spare, f"{where}: {key} does not use {sorted(spare)}"
        assert table or set(forms) == {""}, f"{key} is both a sentence and a table"


def test_every_key_in_the_file_is_used() -> None:
    used = {key for _, key, _ in _uses()}
    unused = sorted(set(_entries()) - used)
    assert not unused, f"bot/texts/en.toml [service] has keys nothing uses: {unused}"


def test_no_error_of_the_service_is_worded_in_code() -> None:
    worded = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path in SCANNED
        for call in _calls(path)
        if _named(call) in ERRORS
        and any(isinstance(arg, ast.JoinedStr | ast.Constant) for arg in call.args)
    ]
    assert not worded, f"errors worded in code, not from the catalogue: {worded}"


@pytest.mark.parametrize(
    ("phrase", "names", "sentence"),
    [
        ("the game is over", (), "The game is over."),
        ("c3 has no stone", (), "c3 has no stone."),
        ("'x' is not a square", (), "'x' is not a square."),
        ("ivy's pawn cannot move there", ("ivy",), "ivy's pawn cannot move there."),
        ("ivy cannot move", ("bob",), "Ivy cannot move."),
    ],
)
def test_a_refusal_is_told_as_a_sentence(
    phrase: str, names: tuple[str, ...], sentence: str
) -> None:
    """The rules word a refusal to fit inside other sentences; told alone, it starts with a
    capital (not a square's or a player's name) and ends with a stop."""
    assert say(refusal(phrase, names)) == sentence
