"""Persistent components: each declares its custom_id once, and is answered by type.

A component posted weeks ago must still work after any number of restarts, so everything it
needs is in its custom_id. Each item class declares that id's format once, as a `CustomId`
(`CustomId("bg:accept:{match_id}", match_id=NUMBER)`): the pattern discord.py parses clicks
with and the builder that writes ids both come from it, so they cannot drift apart.

On a click, discord.py rebuilds the item from its id (`Persistent.from_custom_id`) and calls
it; the item hands itself to whatever the bot's `Clicks` registered for its class (a cog,
when it loads), so an item finds its handler by type and this module imports no cog.

A custom_id can be forged (Discord's API lets a client send any), so every value is checked
where it goes: an id must be a snowflake (1 to 2^63 - 1, what every id column holds), a count
such as a ply fits a 32-bit column. An id of a known format with a value out of range is
answered "this button is out of date" (`Persistent.interaction_check`), and an item naming a
match or a tournament acts only where that is in reach (the one gate, `Clicks.admit`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord
from discord import ui

from bot.posts import limits
from bot.texts import Text, hear, say, t

Interaction = discord.Interaction[Any]
T = TypeVar("T")
P = TypeVar("P", bound="Persistent")
Answer = Callable[[Interaction, P], Awaitable[None]]
Admit = Callable[[Interaction, int], Awaitable[bool]]


@dataclass(frozen=True)
class Part(Generic[T]):
    """One value a custom_id carries: the text it may be, how it is read and written, and
    which values read are sound (a forged id may carry any digits)."""

    pattern: str
    read: Callable[[str], T]
    write: Callable[[T], str] = str
    sound: Callable[[T], bool] = lambda value: True


LARGEST_ID = 2**63 - 1  # a snowflake, and the largest value of a BIGINT column
LARGEST_COUNT = 2**31 - 1  # the largest value of an INTEGER column (PostgreSQL)
OUT_OF_DATE = t("gates.out_of_date")


def snowflake(value: int) -> bool:
    """Whether a number can be an id: a match, tournament or member (Discord's snowflakes)."""
    return 0 < value <= LARGEST_ID


def count(value: int) -> bool:
    """Whether a number can be a ply, a page or a position in a list."""
    return 0 <= value <= LARGEST_COUNT


NUMBER = Part("[0-9]{1,20}", int, sound=snowflake)
COUNT = Part("[0-9]{1,10}", int, sound=count)
YES_NO = Part("yes|no", lambda text: text == "yes", lambda yes: "yes" if yes else "no")


class CustomId:
    """A custom_id's format, declared once: the literal text with `{name}` where each part
    goes, and each part's `Part`. Gives the pattern clicks are parsed with and the builder."""

    def __init__(self, format: str, **parts: Part[Any]) -> None:
        pieces = list(string.Formatter().parse(format))
        named = [name for _, name, _, _ in pieces if name is not None]
        if sorted(named) != sorted(parts) or any(spec or kind for _, _, spec, kind in pieces):
            raise ValueError(f"{format!r} must name each of {sorted(parts)} once, as {{name}}")
        self.pieces = [(literal, name) for literal, name, _, _ in pieces]
        self.parts = parts
        self.pattern = re.compile(
            "".join(
                re.escape(literal) + (f"(?P<{name}>{parts[name].pattern})" if name else "")
                for literal, name in self.pieces
            )
        )

    def text(self, **values: Any) -> str:
        """The id these values make, unchecked (see `fits` and `build`)."""
        if values.keys() != self.parts.keys():
            raise TypeError(f"a custom_id needs exactly {sorted(self.parts)}, not {sorted(values)}")
        return "".join(
            literal + (self.parts[name].write(values[name]) if name else "")
            for literal, name in self.pieces
        )

    def fits(self, **values: Any) -> bool:
        """Whether these values make an id within Discord's limit that parses back."""
        text = self.text(**values)
        return len(text) <= limits.CUSTOM_ID and self.pattern.fullmatch(text) is not None

    def build(self, **values: Any) -> str:
        text = self.text(**values)
        if self.pattern.fullmatch(text) is None:
            raise ValueError(f"{text!r} does not parse back with {self.pattern.pattern!r}")
        return limits.custom_id(text)

    def parse(self, custom_id: str) -> dict[str, Any] | None:
        """The values an id carries, or None if it is not of this format or a value is not
        sound."""
        found = self.pattern.fullmatch(custom_id)
        return None if found is None else self.read(found)

    def read(self, found: re.Match[str]) -> dict[str, Any] | None:
        """The values of an id of this format, or None if one is not sound."""
        values = {name: part.read(found[name]) for name, part in self.parts.items()}
        sound = all(part.sound(values[name]) for name, part in self.parts.items())
        return values if sound else None


class Persistent(ui.DynamicItem[ui.Item[Any]], template=r"(?!)"):  # the base matches nothing
    """A component rebuilt from its custom_id on every click. A subclass declares the id as
    `custom_id=CustomId(...)` and annotates an attribute per part: the parsed values are
    set on the item under the parts' names."""

    custom_ids: ClassVar[CustomId]
    component: ClassVar[type[ui.Item[Any]]] = ui.Button  # what it is on a message

    def __init_subclass__(cls, *, custom_id: CustomId) -> None:
        hidden = [name for name in custom_id.parts if hasattr(cls, name)]
        if hidden:
            raise TypeError(f"{cls.__name__}: parts {hidden} would hide attributes")
        cls.custom_ids = custom_id
        super().__init_subclass__(template=custom_id.pattern)

    def __init__(self, item: ui.Item[Any], **values: Any) -> None:
        super().__init__(item)
        self.sound = bool(values) or not self.custom_ids.parts
        for name, value in values.items():
            setattr(self, name, value)

    @classmethod
    def button(
        cls,
        label: Text,
        style: discord.ButtonStyle,
        *,
        disabled: bool = False,
        row: int | None = None,
        **values: Any,
    ) -> Self:
        """This item as a button showing `label`, carrying `values` in its custom_id."""
        button: ui.Button[Any] = ui.Button(
            label=limits.label(say(label)),
            style=style,
            disabled=disabled,
            row=row,
            custom_id=cls.custom_ids.build(**values),
        )
        return cls(button, **values)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The item its id describes; one whose values are not sound (or that is not the
        kind of component its class is, a forged menu with a button's id) carries none, and
        its check answers that it is out of date."""
        if not isinstance(item, cls.component):
            return cls(item)
        return cls(item, **(cls.custom_ids.read(match) or {}))

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Refuse an unsound id, or a click out of its place; from here on, the click speaks
        its member's language."""
        hear(str(interaction.locale))
        if not self.sound:
            await interaction.response.send_message(say(OUT_OF_DATE), ephemeral=True)
            return False
        return await self.admitted(interaction)

    async def admitted(self, interaction: Interaction) -> bool:
        """Whether this click may act where it was made (see InMatch, InTournament)."""
        return True

    async def callback(self, interaction: Interaction) -> None:
        await clicks_of(interaction).answer(interaction, self)


class InMatch:
    """Mixed into each item whose custom_id names a match: before its callback runs, the
    bot checks that the match is in reach where it was clicked (and says so when not),
    since a custom_id can name any match."""

    match_id: int

    async def admitted(self, interaction: Interaction) -> bool:
        return await clicks_of(interaction).admit(interaction, Named.MATCH, self.match_id)


class InTournament:
    """Mixed into each item whose custom_id names a tournament: it acts only in the
    tournament's own server (another's reads as one that does not exist)."""

    tournament_id: int

    async def admitted(self, interaction: Interaction) -> bool:
        return await clicks_of(interaction).admit(interaction, Named.TOURNAMENT, self.tournament_id)


class Named(StrEnum):
    """What a custom_id names, which a gate checks is in reach."""

    MATCH = "match"
    TOURNAMENT = "tournament"


class Clicks:
    """Who answers each persistent item: the cog that owns a feature registers a handler
    per item class when it loads, so a handler is found by type and checked by mypy; and
    the one gate per kind of thing an item names."""

    def __init__(self) -> None:
        self._answers: dict[type[Persistent], Answer[Any]] = {}
        self._gates: dict[Named, Admit] = {}

    def on(self, item: type[P], answer: Answer[P]) -> None:
        self._answers[item] = answer

    def guard(self, named: Named, admit: Admit) -> None:
        """Set what decides whether a click naming a match (or a tournament) may act where
        it was made; it tells the member when not."""
        self._gates[named] = admit

    async def answer(self, interaction: Interaction, item: Persistent) -> None:
        answer = self._answers.get(type(item))
        if answer is None:
            raise RuntimeError(f"nothing answers {type(item).__name__}")
        await answer(interaction, item)

    async def admit(self, interaction: Interaction, named: Named, thing_id: int) -> bool:
        gate = self._gates.get(named)
        if gate is None:
            raise RuntimeError(f"nothing admits clicks that name a {named}")
        return await gate(interaction, thing_id)


class ClickHolder(Protocol):
    """The part of the bot items use (bot.app.BoardBot), named here so no item imports the
    application that imports them."""

    clicks: Clicks


def clicks_of(interaction: Interaction) -> Clicks:
    holder: ClickHolder = interaction.client
    return holder.clicks
