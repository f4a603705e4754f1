"""The French catalogue (bot/texts/fr/) matches the English one: same keys, same placeholders,
every plural table has `other`, and every sentence formats with sample values.

Files not yet translated are listed in `LEFT`; the test checks every other file of
bot/texts/en/ (a key missing from French would fall back to English, which this test forbids).
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot import texts

FRENCH = "fr"
ENGLISH_FOLDER = texts.FOLDER / texts.ENGLISH
FRENCH_FOLDER = texts.FOLDER / FRENCH
# English files with no French version yet.
LEFT: frozenset[str] = frozenset({"rules"})
FILES = sorted(path.stem for path in ENGLISH_FOLDER.glob("*.toml") if path.stem not in LEFT)


def _flat(path: Path) -> dict[str, str]:
    entries: dict[str, str] = {}
    with path.open("rb") as file:
        texts._flatten(path.stem, tomllib.load(file), entries)
    return entries


def _fields(sentence: str) -> set[str]:
    return {
        f"{name}!{conversion}:{spec}"
        for _, name, spec, conversion in string.Formatter().parse(sentence)
        if name is not None
    }


class _Sample(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        return 1234


def test_the_french_folder_has_every_file_not_left() -> None:
    have = {path.stem for path in FRENCH_FOLDER.glob("*.toml")}
    assert have == set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_same_keys_and_placeholders(name: str) -> None:
    english = _flat(ENGLISH_FOLDER / f"{name}.toml")
    french = _flat(FRENCH_FOLDER / f"{name}.toml")
    assert french.keys() == english.keys()
    for key, sentence in english.items():
        assert _fields(french[key]) == _fields(sentence), key


@pytest.mark.parametrize("name", FILES)
def test_plural_tables_have_other(name: str) -> None:
    french = _flat(FRENCH_FOLDER / f"{name}.toml")
    tables = {key.rsplit(".", 1)[0] for key in french if key.rsplit(".", 1)[-1] in ("one",)}
    for table in tables:
        assert f"{table}.other" in french, table


@pytest.mark.parametrize("name", FILES)
def test_every_sentence_formats(name: str) -> None:
    for key, sentence in _flat(FRENCH_FOLDER / f"{name}.toml").items():
        assert sentence.format_map(_Sample()), key


def test_the_catalogue_words_french() -> None:
    catalogue: Mapping[str, str] = texts.catalogue(FRENCH)
    assert catalogue["views.accept"] == "Accepter"
    assert texts.say(texts.t("common.day", count=0), FRENCH) == "0 jour"
    assert texts.say(texts.t("common.day", count=2), FRENCH) == "2 jours"
