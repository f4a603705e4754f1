"""What the views say, pinned: the picker's lines for each kind of step, and every key the
views name is in the English catalogue (a missing one would fail only when clicked)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.service.picker import PickerStep
from bot.texts import catalogue
from bot.ui.views import picker_message

ROOT = Path(__file__).resolve().parents[2]
MATCH: Any = SimpleNamespace(id=7, row=SimpleNamespace(ply=3))
MANY = tuple(f"c{number}" for number in range(101))


def step(path: tuple[str, ...], choices: tuple[str, ...], move: str | None) -> PickerStep:
    return PickerStep(MATCH, path, tuple(range(len(path))), choices, choices, move)


@pytest.mark.parametrize(
    ("path", "choices", "move", "lines"),
    [
        ((), ("a1", "b2"), None, ["Chosen: **nothing yet**", "Pick where your move starts."]),
        (
            ("a1",),
            ("e3",),
            "a1e3",
            [
                "Chosen: **a1**",
                "Pick the next square.",
                "**a1e3** is a whole move: **Play** makes it, or pick more to make a longer move"
                " or **Back** to change it.",
            ],
        ),
        (
            ("a1", "e3"),
            (),
            "a1e3",
            [
                "Chosen: **a1 → e3**",
                "**a1e3** is a whole move: **Play** makes it, or **Back** to change it.",
            ],
        ),
        (
            (),
            (),
            "pass",
            ["Chosen: **nothing yet**", "**pass** is a whole move: **Play** makes it."],
        ),
        (
            (),
            MANY,
            None,
            [
                "Chosen: **nothing yet**",
                "Pick where your move starts.",
                "(1 more choice does not fit here; type it with /move.)",
            ],
        ),
        (
            ("x",) * 41,
            ("a",),
            "m",
            [
                f"Chosen: **{' → '.join('x' * 41)}**",
                "This move is too long for the picker; type the rest with /move.",
                "This move is too long for the picker's buttons; play it with /move: m",
            ],
        ),
    ],
)
def test_the_picker_says_what_it_always_said(
    path: tuple[str, ...], choices: tuple[str, ...], move: str | None, lines: list[str]
) -> None:
    text, _ = picker_message(step(path, choices, move), "**Quorum #7**: your move.")
    assert text.split("\n") == ["**Quorum #7**: your move.", *lines]


def test_every_key_the_views_name_is_in_the_catalogue() -> None:
    named = set()
    for source in ("bot/ui/views.py", "bot/cogs/strays.py"):
        named |= set(re.findall(r'"(views\.[a-z_.]+)"', (ROOT / source).read_text()))
    assert len(named) > 20
    keys = set(catalogue("en"))
    assert {key for key in named if key not in keys and f"{key}.other" not in keys} == set()
