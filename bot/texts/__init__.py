"""The one catalogue of what people read: keys to sentences with named placeholders.

Each language is one TOML file named by its Discord locale (`en.toml`, `de.toml`, `es-ES.toml`,
...), one table per area; a key is the table, then the key inside it: `service.no_match` is
`no_match` under `[service]`. Its `[language]` table gives its own name and the plural form that
counts 0. A new language is a new file with the same keys and the same placeholders
(docs/languages.md); a key it lacks falls back to English.

Placeholders are named (`{player}`, never positional) and filled with `str.format`. A sentence
that depends on a number is a table of plural forms (`one`, `other`) chosen by the value
`count`. A value may itself be a `Text` (or any refusal with a `key` and `values`, as the
rules raise), or anything with a `word(locale)` method, worded in the same language.

A key worded in English because the reader's language lacks it is a fallback: `fallbacks()`
collects them, so a test can prove a whole conversation had none.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from bot.texts.mentions import localised

ENGLISH = "en"
FOLDER = Path(__file__).parent
LANGUAGES = (ENGLISH, *sorted(p.stem for p in FOLDER.glob("*.toml") if p.stem != ENGLISH))
"""The languages the bot speaks, each a file of this package; English first."""

_reader: ContextVar[str] = ContextVar("reader", default=ENGLISH)
_observers: list[set[tuple[str, str]]] = []  # see fallbacks()
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")


class Wordable(Protocol):
    """Anything the catalogue can word: a key and its named values."""

    @property
    def key(self) -> str: ...

    @property
    def values(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class Text:
    """A sentence not yet worded: the reader's language is known only where it is sent."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return say(self)


def t(key: str, **values: Any) -> Text:
    """`t("service.no_match", match=7)`: a key and its named values, worded later."""
    return Text(key, values)


class MissingText(KeyError):
    """A key no catalogue has: a programming error, caught by the catalogue tests."""


@cache
def catalogue(locale: str) -> Mapping[str, str]:
    """Every sentence of one language, flattened to dotted keys (`service.no_match`)."""
    entries: dict[str, str] = {}
    with (FOLDER / f"{locale}.toml").open("rb") as file:
        _flatten("", tomllib.load(file), entries)
    return entries


def _flatten(prefix: str, table: Mapping[str, Any], into: dict[str, str]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if isinstance(value, Mapping):
            _flatten(key, value, into)
        else:
            into[key] = str(value)


def plural_form(locale: str, count: int) -> str:
    """CLDR's cardinal category, for languages whose forms are `one` and `other`: 1 is `one`,
    and 0 is what the language's `language.zero` says (French and Portuguese: `one`)."""
    if count == 0:
        return catalogue(locale).get("language.zero", "other")
    return "one" if count == 1 else "other"


def template(key: str, locale: str | None = None, count: int | None = None) -> str:
    """The sentence behind a key in a language (English where that language lacks it)."""
    if locale is None:
        locale = reading()
    for language in (locale, ENGLISH) if locale != ENGLISH else (ENGLISH,):
        entries = catalogue(language)
        found = entries.get(key)
        if found is None and count is not None:
            found = entries.get(f"{key}.{plural_form(language, count)}")
            if found is None:
                found = entries.get(f"{key}.other")
        if found is not None:
            if language != locale:
                for seen in _observers:
                    seen.add((locale, key))
            return found
    raise MissingText(key)


@contextmanager
def fallbacks() -> Iterator[set[tuple[str, str]]]:
    """Every (language, key) worded in English inside, because that language lacks the key:
    how a test proves that a whole game in German had no English sentence."""
    seen: set[tuple[str, str]] = set()
    _observers.append(seen)
    try:
        yield seen
    finally:
        _observers.remove(seen)


def language_of(discord_locale: str | None) -> str:
    """Ours for a Discord locale (`de`, `es-419`, `en-GB`, ...): the language itself, else one
    of its region's kin we speak (Latin American Spanish reads Spain's), else English."""
    if not discord_locale:
        return ENGLISH
    code = str(discord_locale)
    if code in LANGUAGES:
        return code
    family = code.split("-")[0]
    return next((ours for ours in LANGUAGES if ours.split("-")[0] == family), ENGLISH)


def reading() -> str:
    """The language of whoever reads what is being worded now (English unless `speaking`)."""
    return _reader.get()


def hear(locale: str) -> None:
    """Word the rest of the current task in `locale`: discord.py handles each interaction in
    a task of its own, whose context is a copy, so the first check an interaction passes
    sets its member's language for all it says (its refusals, autocomplete, an apology)."""
    _reader.set(language_of(locale))


@contextmanager
def speaking(locale: str) -> Iterator[None]:
    """Word everything said inside in `locale`: an interaction's answers in the member's
    language, a public post in its server's, a DM in its reader's."""
    token = _reader.set(language_of(locale))
    try:
        yield
    finally:
        _reader.reset(token)


def say(text: Wordable | str, locale: str | None = None) -> str:
    """Word a text in a language (the reader's, `reading()`, unless given); a plain string
    (a name, a move) is shown as it is."""
    if isinstance(text, str):
        return text
    if locale is None:
        locale = reading()
    values = {name: _worded(value, locale) for name, value in text.values.items()}
    count = text.values.get("count")
    pattern = template(text.key, locale, count if isinstance(count, int) else None)
    if locale != ENGLISH:
        pattern = localised(pattern, locale)  # the commands it names, as the reader's client does
    return pattern.format_map(values)


def _worded(value: Any, locale: str) -> Any:
    if hasattr(value, "word"):
        return value.word(locale)
    if hasattr(value, "key") and hasattr(value, "values"):
        return say(value, locale)
    return value
