"""The Brazilian Portuguese catalogue (bot/texts/pt-BR/) matches the English one: the same
keys, the same placeholders in each sentence (with their conversions and format specs, so
`{points:,}` stays a number), a `one` and an `other` form in every plural table, and every
sentence formats with sample values. A missing or renamed key would silently fall back to
English, and a changed placeholder would raise when the sentence is sent."""

from __future__ import annotations

import string
from collections import defaultdict

import pytest

from bot.texts import catalogue

LOCALE = "pt-BR"
PLURAL = ("one", "other")


def fields(text: str) -> set[tuple[str, str | None, str | None]]:
    """Each placeholder of a sentence: its name, conversion (`!r`) and format spec (`:,`)."""
    return {
        (name, conversion, spec)
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def test_same_keys_as_english() -> None:
    english, translated = catalogue("en"), catalogue(LOCALE)
    assert sorted(set(english) - set(translated)) == []
    assert sorted(set(translated) - set(english)) == []


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_same_placeholders(key: str) -> None:
    assert fields(catalogue(LOCALE)[key]) == fields(catalogue("en")[key])


def test_plural_tables_have_one_and_other() -> None:
    tables: dict[str, set[str]] = defaultdict(set)
    for key in catalogue(LOCALE):
        base, _, form = key.rpartition(".")
        if form in PLURAL:
            tables[base].add(form)
    assert tables, "the catalogue has plural tables"
    assert {base: forms for base, forms in tables.items() if forms != set(PLURAL)} == {}


@pytest.mark.parametrize("key", sorted(catalogue(LOCALE)))
def test_formats_with_sample_values(key: str) -> None:
    text = catalogue(LOCALE)[key]
    values = {name: 3 for name, _, _ in fields(text)}
    assert text.format_map(values).strip(), "a sentence says something"
