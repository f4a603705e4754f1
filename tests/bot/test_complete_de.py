"""German is complete: it has every key English has, so no German reader meets an English
sentence (issue 44). Left out: the files other helpers own in every language (commands,
pictures, languages), and the few sentences whose English is being rewritten now, translated
with it."""

from __future__ import annotations

from bot.texts import ENGLISH, PLURAL_FORMS, catalogue

OWNED_ELSEWHERE = ("commands", "pictures", "languages")
REWORDED = (
    "service.premove.yours",
    "service.tournament.too_few",
    "service.vacation.left",
    "rules.kyo.outnumbered",
    "posts.undelivered.a_few",
    "service.settings.nothing",
    "rules.count.pawns",
)


def left_out(key: str) -> bool:
    """A key of a file owned elsewhere or a sentence being reworded (alone or as a table of
    plural forms)."""
    stem, _, form = key.rpartition(".")
    sentence = stem if form in PLURAL_FORMS else key
    return (
        key.partition(".")[0] in OWNED_ELSEWHERE
        or sentence in REWORDED
        or sentence.rpartition(".")[2] == "needs_mana"
    )


def test_german_has_every_english_key() -> None:
    german = catalogue("de")
    assert [key for key in catalogue(ENGLISH) if key not in german and not left_out(key)] == []


def test_only_those_keys_are_left_out() -> None:
    assert left_out("commands.challenge.description")
    assert left_out("service.vacation.left.other")
    assert left_out("rules.kyo.needs_mana")
    assert not left_out("service.vacation.left_hint")
    assert not left_out("rules.count.pawns_total")
