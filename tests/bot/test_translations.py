"""Every language's catalogue (bot/texts/<code>/) keeps faith with the English one: no key
English lacks (a stale or misspelt key would never be read), every plural table with its
`other` form, the same placeholders in each sentence (name, conversion and format alike: a
renamed one would crash at the moment it is sent), and every sentence formats.

A key a language lacks falls back to English; issue 44 makes every language complete, and
then `missing` below must be empty."""

from __future__ import annotations

import string

import pytest

from bot.texts import ENGLISH, FOLDER, LANGUAGES, catalogue, language_of, reading, say, speaking, t

TRANSLATIONS = sorted(p.name for p in FOLDER.iterdir() if p.is_dir() and p.name != ENGLISH)


def test_every_folder_is_a_language_the_bot_speaks() -> None:
    assert sorted(LANGUAGES) == sorted([ENGLISH, *TRANSLATIONS])


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
