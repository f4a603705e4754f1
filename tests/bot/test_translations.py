"""Every language's catalogue (bot/texts/<code>.toml) keeps faith with the English one: every
key English has (a key a language lacks would be read in English), no key English lacks (a
stale or misspelt key would never be read), every plural table with its `other` form, the same
placeholders in each sentence (name, conversion and format alike: a renamed one would crash at
the moment it is sent), and every sentence formats. A plural table may have the forms its
language needs where English has others."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.texts import (
    ENGLISH,
    LANGUAGES,
    PLURAL_FORMS,
    catalogue,
    language_of,
    plural_form,
    reading,
    say,
    speaking,
    t,
)
from bot.texts.mentions import localised

TRANSLATIONS = [language for language in LANGUAGES if language != ENGLISH]


def test_the_bot_speaks_english_first_then_every_file_of_the_catalogue() -> None:
    assert LANGUAGES == ("en", "de", "es-ES", "fr", "pt-BR")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_names_itself_and_how_it_counts_zero(language: str) -> None:
    entries = catalogue(language)
    assert entries["language.name"] and entries["language.zero"] in ("one", "other")
    assert plural_form(language, 1) == "one" and plural_form(language, 2) == "other"


def test_french_and_portuguese_count_zero_with_one_german_and_spanish_do_not() -> None:
    assert [plural_form(language, 0) for language in LANGUAGES] == [
        "other",
        "other",
        "other",
        "one",
        "one",
    ]


@pytest.mark.parametrize(
    ("discord_locale", "ours"),
    [
        ("de", "de"),
        ("pt-BR", "pt-BR"),
        ("es-419", "es-ES"),
        ("en-GB", "en"),
        ("ja", "en"),
        (None, "en"),
    ],
)
def test_a_discord_locale_reads_the_nearest_language(discord_locale: str | None, ours: str) -> None:
    assert language_of(discord_locale) == ours


def test_speaking_words_everything_inside_in_that_language_then_restores() -> None:
    with speaking("de"):
        assert reading() == "de"
        inside = say(t("analysis.graph_title", match="#7"))
        with speaking("fr"):
            assert reading() == "fr"
        assert reading() == "de"
    assert reading() == ENGLISH
    title = t("analysis.graph_title", match="#7")
    assert inside == say(title, "de") != say(title)


def fields(text: str) -> set[tuple[str, str | None, str]]:
    """Each `{name!conversion:format}` of a sentence."""
    return {
        (name, conversion, spec or "")
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def _sentences(language: str) -> set[str]:
    """Each key, a plural table counted once by its name."""
    return {
        key.rpartition(".")[0] if key.rpartition(".")[2] in PLURAL_FORMS else key
        for key in catalogue(language)
    }


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_sentence_english_has(language: str) -> None:
    assert sorted(_sentences(ENGLISH) - _sentences(language)) == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_no_key_english_lacks(language: str) -> None:
    assert sorted(set(catalogue(language)) - set(catalogue(ENGLISH))) == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_plural_table_has_other(language: str) -> None:
    keys = catalogue(language)
    tables = {key.rpartition(".")[0] for key in keys if key.endswith((".one", ".other"))}
    assert sorted(table for table in tables if f"{table}.other" not in keys) == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_sentence_keeps_the_english_placeholders_and_formats(language: str) -> None:
    english = catalogue(ENGLISH)
    wrong = []
    for key, sentence in catalogue(language).items():
        plural = key.rpartition(".")[0] if key.endswith((".one", ".other", ".zero")) else None
        model = english.get(key) or english.get(f"{plural}.other", "")
        if fields(sentence) != fields(model):
            wrong.append(key)
            continue
        sentence.format_map({name: 1234 for name, _, _ in fields(sentence)})
    assert wrong == []


class _Longest:
    """A value at its longest where a sentence is sent: a 32-character display name."""

    def __format__(self, spec: str) -> str:
        return "W" * 32

    def __repr__(self) -> str:
        return "W" * 32


class _AllLongest(dict[str, _Longest]):
    def __missing__(self, key: str) -> _Longest:
        return _Longest()


def _longest(sentence: str) -> int:
    return len(string.Formatter().vformat(sentence, (), _AllLongest()))


BUTTONS = set(
    re.findall(
        r'\.button\(\s*t\("(views\.[a-z_.]+)"',
        (Path(__file__).parents[2] / "bot" / "ui" / "views.py").read_text(encoding="utf-8"),
    )
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_fits_discord_with_its_longest_values(language: str) -> None:
    """A message holds 2,000 characters and a button's label 80 (Discord's limits), the commands
    a sentence names in the reader's words; names and descriptions of commands, thread names
    and alt texts are checked where they are made."""
    entries = {key: localised(text, language) for key, text in catalogue(language).items()}
    assert len(BUTTONS) > 10
    assert {key for key, text in entries.items() if _longest(text) > 2000} == set()
    assert {key for key in BUTTONS if _longest(entries[key]) > 80} == set()
