"""Commands named in sentences as the reader's Discord client lists them.

A German client lists /challenge as /herausfordern and its option game: as spiel:, so a German
sentence telling a member to run `/challenge game:Boku` must say `/herausfordern spiel:Boku`.
The names are the catalogue's (`commands.names`, `commands.option_names`). Only mentions are
renamed, never ordinary words: a known /command, its subcommands (`/tournament create`, or
`create|start`), the `option:value` words written right after it, inside `code` also the
bare and [bracketed] option words of a syntax line, and a code span made only of known
`option:value` words (`clock:bank days:3`) or of one option's name (`match`). Values
(`Boku`, `on`) stay as they are written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

CODE = re.compile(r"`([^`\n]*)`")
COMMAND = re.compile(r"(?<![\w/.:<@-])/([a-z][\w-]*)(?![\w-])")
SUBCOMMANDS = re.compile(r" ([a-z][\w-]*(?:\|[a-z][\w-]*)*)(?![\w-])")
OPTION = re.compile(r"(\s+)([a-z][a-z0-9_]*)(:[^\s`]*)")
SYNTAX_OPTION = re.compile(r"(\s+\[?)([a-z][a-z0-9_]*)(:[^\s`]*|…?\]|…|(?=\s|$))")
SETTING = re.compile(r"([a-z][a-z0-9_]*)(:\S*)")


@dataclass(frozen=True)
class Names:
    """One language's names, by the English ones: commands and subcommands by their qualified
    name (`tournament create`), options by their name (the same in every command)."""

    commands: Mapping[str, str]
    options: Mapping[str, str]


@dataclass(frozen=True)
class OptionName:
    """An option's name as a sentence's value ("99 is out of range for {name}"), worded as
    the reader's client lists that option."""

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"commands.option_names.{self.name}"


@cache
def names(locale: str) -> Names:
    """The names a client in `locale` lists (English where that language lacks one)."""
    from bot.texts import ENGLISH, catalogue  # the catalogue imports this module

    english, own = catalogue(ENGLISH), catalogue(locale)

    def table(prefix: str) -> dict[str, str]:
        return {
            key.removeprefix(prefix): own.get(key, value)
            for key, value in english.items()
            if key.startswith(prefix)
        }

    return Names(table("commands.names."), table("commands.option_names."))


@cache
def localised(sentence: str, locale: str) -> str:
    """`sentence` with every mention of a command, subcommand or option in `locale`'s names."""
    own = names(locale)
    pieces = CODE.split(sentence)  # odd places are the insides of `code` spans
    return "`".join(
        _in_code(piece, own) if place % 2 else _renamed(piece, own, syntax=False)
        for place, piece in enumerate(pieces)
    )


def _in_code(span: str, own: Names) -> str:
    """A code span: a syntax line (`/move move [match]`), settings (`clock:bank days:3`) or
    one option's name (`match`)."""
    if span in own.options:
        return own.options[span]
    settings = [SETTING.fullmatch(word) for word in span.split(" ")]
    if span and all(found and found[1] in own.options for found in settings):
        return " ".join(own.options[found[1]] + found[2] for found in settings if found)
    return _renamed(span, own, syntax=True)


def _renamed(text: str, own: Names, *, syntax: bool) -> str:
    """Every /command in `text` with its subcommands and the options written after it."""
    out: list[str] = []
    at = 0
    while (found := COMMAND.search(text, at)) is not None:
        command = found[1]
        out.append(text[at : found.start()])
        at = found.end()
        if command not in own.commands:
            out.append(found[0])
            continue
        out.append("/" + own.commands[command])
        subcommands = SUBCOMMANDS.match(text, at)
        if subcommands is not None:
            qualified = [f"{command} {word}" for word in subcommands[1].split("|")]
            if all(name in own.commands for name in qualified):
                out.append(" " + "|".join(own.commands[name] for name in qualified))
                at = subcommands.end()
        option = SYNTAX_OPTION if syntax else OPTION
        while (word := option.match(text, at)) is not None and word[2] in own.options:
            out.append(word[1] + own.options[word[2]] + word[3])
            at = word.end()
    out.append(text[at:])
    return "".join(out)
