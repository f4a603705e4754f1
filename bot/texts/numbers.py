"""Numbers in sentences as the reader writes them: thousands grouped and decimals marked the
way of their language (`1,500` and `3.4` in English, `1.500` and `3,4` in German)."""

from __future__ import annotations

from dataclasses import dataclass

# A language's thousands separator and decimal mark, where they are not English's.
SEPARATORS = {
    "de": (".", ","),
    "es-ES": (".", ","),
    "fr": ("\u202f", ","),  # a narrow no-break space, as French typography groups digits
    "pt-BR": (".", ","),
}


@dataclass(frozen=True)
class Number:
    """A sentence's value (`t("...", points=Number(1523))`), worded when the sentence is."""

    value: float
    places: int = 0  # digits after the decimal mark
    signed: bool = False  # a change: `+12`, `-3`

    def word(self, language: str) -> str:
        sign = "+" if self.signed else ""
        english = f"{self.value:{sign},.{self.places}f}"
        group, mark = SEPARATORS.get(language, (",", "."))
        return english.translate({ord(","): group, ord("."): mark})
