"""French is complete (issue 44): every English sentence has its French one, so a French
reader never meets an English sentence. Left out: the files other work owns (command names,
words drawn on pictures, language names), and the sentences whose English is being reworded,
which are translated together with their new English."""

from __future__ import annotations

from bot.texts import ENGLISH, PLURAL_FORMS, catalogue

FRENCH = "fr"
OWNED_ELSEWHERE = ("commands.", "pictures.", "languages.")
REWORDED = frozenset(
    {
        "service.premove.yours",
        "service.tournament.too_few",
        "service.vacation.left",
        "rules.kyo.outnumbered",
        "posts.undelivered.a_few",
        "service.settings.nothing",
        "rules.count.pawns",
    }
)


def sentence(key: str) -> str:
    """A plural form's key without its form (`rules.count.stones.one` -> `rules.count.stones`):
    a language has the plural forms it needs, whatever forms English has."""
    table, _, form = key.rpartition(".")
    return table if form in PLURAL_FORMS else key


def being_reworded(key: str) -> bool:
    return sentence(key) in REWORDED or sentence(key).rpartition(".")[2] == "needs_mana"


def test_french_has_every_english_sentence() -> None:
    french = {sentence(key) for key in catalogue(FRENCH)}
    missing = {
        sentence(key)
        for key in catalogue(ENGLISH)
        if not key.startswith(OWNED_ELSEWHERE) and not being_reworded(key)
    } - french
    assert sorted(missing) == []
