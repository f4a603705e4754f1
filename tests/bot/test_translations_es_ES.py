"""The Spanish (Spain) catalogue, bot/texts/es-ES/, matches the English one: a file for every
English file, the same keys (plural tables alike, each with an `other` form), the same
placeholders in each sentence (name, conversion and format spec), and every sentence formats
with sample values. A key missing here would silently fall back to English; a placeholder
renamed or dropped would raise or lose a value when the sentence is sent."""

from __future__ import annotations

import string

import pytest

from bot.texts import FOLDER, catalogue

LOCALE = "es-ES"


def placeholders(text: str) -> set[tuple[str, str, str]]:
    return {
        (name, conversion or "", spec or "")
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def sample(spec: str) -> object:
    """A value a placeholder's format spec accepts: a number where the spec formats one."""
    return 1234 if spec else "x"


def test_every_english_file_is_translated() -> None:
    english = {path.name for path in (FOLDER / "en").glob("*.toml")}
    spanish = {path.name for path in (FOLDER / LOCALE).glob("*.toml")}
    assert spanish == english


def test_the_same_keys() -> None:
    assert sorted(catalogue(LOCALE)) == sorted(catalogue("en"))


def test_every_plural_table_has_other() -> None:
    for key in catalogue(LOCALE):
        base, _, form = key.rpartition(".")
        if form == "one":
            assert f"{base}.other" in catalogue(LOCALE), key


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_the_same_placeholders(key: str) -> None:
    spanish = catalogue(LOCALE).get(key)
    assert spanish is not None, key
    assert placeholders(spanish) == placeholders(catalogue("en")[key])


@pytest.mark.parametrize("key", sorted(catalogue(LOCALE)))
def test_every_sentence_formats(key: str) -> None:
    text = catalogue(LOCALE)[key]
    values = {name: sample(spec) for name, _, spec in placeholders(text)}
    assert text.format_map(values)
