"""The German catalogue (bot/texts/de/) matches the English one: the same keys, every plural
table with its `other` form, the same placeholders in each sentence (name, conversion and format
alike, since str.format fills them the same way), and every sentence formats with sample values.
A key German lacked would silently fall back to English; a placeholder it renamed would crash."""

from __future__ import annotations

import string

import pytest

from bot.texts import catalogue

GERMAN = "de"


def fields(text: str) -> set[tuple[str, str | None, str]]:
    """Each `{name!conversion:format}` of a sentence."""
    return {
        (name, conversion, spec or "")
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def test_german_has_every_english_key_and_no_other() -> None:
    english, german = set(catalogue("en")), set(catalogue(GERMAN))
    assert sorted(english - german) == []
    assert sorted(german - english) == []


def test_every_german_plural_table_has_other() -> None:
    keys = catalogue(GERMAN)
    tables = {key.rpartition(".")[0] for key in keys if key.endswith((".one", ".other"))}
    assert sorted(table for table in tables if f"{table}.other" not in keys) == []


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_german_sentence_keeps_the_placeholders(key: str) -> None:
    german = catalogue(GERMAN).get(key)
    assert german is not None, f"{key} has no German sentence"
    assert fields(german) == fields(catalogue("en")[key])
    values = {name: 1234 for name, _, _ in fields(german)}
    assert german.format_map(values)
