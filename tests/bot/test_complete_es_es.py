"""Spanish (es-ES) is complete (issue 44): it has every sentence English has, so no member
reading Spanish meets an English one. Left out: the files other work owns (command names,
words drawn on pictures, language names) and the sentences whose English is being rewritten
now, which are translated with their new English."""

from __future__ import annotations

from bot.texts import ENGLISH, catalogue

LANGUAGE = "es-ES"
OWNED_ELSEWHERE = ("commands", "pictures", "languages")
BEING_REWRITTEN = (
    "service.premove.yours",
    "service.tournament.too_few",
    "service.vacation.left",
    "rules.kyo.outnumbered",
    "posts.undelivered.a_few",
    "service.settings.nothing",
    "rules.count.pawns",
)


def required(key: str) -> bool:
    """Whether Spanish must have this English key: a rewritten key and its plural forms
    (`rules.count.pawns.one`) are not, nor any key named needs_mana."""
    return (
        key.split(".")[0] not in OWNED_ELSEWHERE
        and "needs_mana" not in key.split(".")
        and not any(key == gone or key.startswith(f"{gone}.") for gone in BEING_REWRITTEN)
    )


def test_required_leaves_out_only_what_is_owned_elsewhere_or_rewritten() -> None:
    assert required("service.no_match")
    assert required("rules.count.pawns_extra")
    assert not required("commands.move.description")
    assert not required("rules.count.pawns.one")
    assert not required("rules.kyo.needs_mana")


def test_spanish_has_every_english_sentence() -> None:
    spanish = catalogue(LANGUAGE)
    assert sorted(k for k in catalogue(ENGLISH) if required(k) and k not in spanish) == []
