"""The commands in German, Spanish, French and Brazilian Portuguese: the synced payload carries
every name, description and choice in each (bot/ui/translator.py), valid and within Discord's
limits, and sentences that mention a command name it as the reader's client lists it
(bot/texts/mentions.py)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.offline import OfflineDiscord
from bot.texts import ENGLISH, LANGUAGES, catalogue, say, speaking, t
from bot.texts.mentions import COMMAND, Names, OptionName, localised, names
from bot.ui import translator
from bot.ui.commands_sync import payload_hash

GUILD = 1_200_000_000_000_000_001
LOCALES = {"de", "es-ES", "es-419", "fr", "pt-BR"}
TRANSLATIONS = [language for language in LANGUAGES if language != ENGLISH]
COMMAND_SIZE = 8000  # Discord's most characters per command, each field at its longest


def synced(offline: Any) -> list[dict[str, Any]]:
    """The commands the bot registers in its development server at start."""

    async def scenario(h: OfflineDiscord) -> list[dict[str, Any]]:
        (body,) = [b for _, route, b in h.requests if route.endswith("/guilds/{guild_id}/commands")]
        return list(body)

    result: list[dict[str, Any]] = offline(scenario, dev_guild_id=GUILD)
    return result


def nodes(commands: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option, with its qualified name."""
    for command in commands:
        qualified = f"{path} {command['name']}".strip()
        yield qualified, command
        yield from nodes(command.get("options") or [], qualified)


def valid_name(name: str) -> bool:
    """Discord's pattern for names: letters, digits, - _ ' (no spaces), lower case, 1-32."""
    allowed = all(unicodedata.category(c)[0] in "LN" or c in "-_'" for c in name)
    return allowed and 1 <= len(name) <= 32 and name == name.lower()


def longest(node: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it: its longest localisation or the default."""
    localised_values = (node.get(f"{field}_localizations") or {}).values()
    return max(len(node.get(field) or ""), *map(len, localised_values))


def size(node: dict[str, Any]) -> int:
    """The characters of a command (name, description, options, choices) Discord counts."""
    total = longest(node, "name") + longest(node, "description")
    for choice in node.get("choices") or []:
        total += longest(choice, "name") + len(str(choice["value"]))
    return total + sum(size(option) for option in node.get("options") or [])


def siblings(commands: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The top-level commands, then each command's (or subcommand's) options."""
    yield commands
    for _, node in nodes(commands):
        if node.get("options"):
            yield node["options"]


def test_the_payload_carries_every_language_valid_and_within_discords_limits(
    offline: Any,
) -> None:
    commands = synced(offline)
    for qualified, node in nodes(commands):
        assert set(node.get("name_localizations") or {}) == LOCALES, qualified
        assert set(node.get("description_localizations") or {}) == LOCALES, qualified
        names_ = [node["name"], *node["name_localizations"].values()]
        assert all(valid_name(name) for name in names_), (qualified, names_)
        assert longest(node, "description") <= 100, qualified
        assert node["name_localizations"]["es-419"] == node["name_localizations"]["es-ES"]
        for choice in node.get("choices") or []:
            assert set(choice.get("name_localizations") or {}) == LOCALES, (qualified, choice)
            assert longest(choice, "name") <= 100, (qualified, choice)
    for group in siblings(commands):
        for locale in LOCALES:
            counted = Counter(node["name_localizations"][locale] for node in group)
            assert [name for name, n in counted.items() if n > 1] == [], (locale, group[0]["name"])
    too_big = {c["name"]: size(c) for c in commands if size(c) > COMMAND_SIZE}
    assert too_big == {}
    assert max(size(c) for c in commands) > 1000  # the count reaches the options and choices


def test_german_names_descriptions_and_choices(offline: Any) -> None:
    found = dict(nodes(synced(offline)))
    challenge, game = found["challenge"], found["challenge game"]
    assert challenge["name_localizations"]["de"] == "herausfordern"
    assert challenge["description_localizations"]["de"] == say(
        t("commands.challenge.description"), "de"
    )
    assert game["name_localizations"]["de"] == "spiel"
    assert found["tournament create"]["name_localizations"]["fr"] == "créer"
    assert found["tournament create max_players"]["name_localizations"]["pt-BR"] == "máx-jogadores"
    level = {c["value"]: c["name_localizations"] for c in found["challenge level"]["choices"]}
    assert level[1]["de"] == "1: leicht" and level[3]["es-ES"] == "3: difícil"
    boku = next(c for c in game["choices"] if c["value"] == "boku")
    assert set(boku["name_localizations"].values()) == {"Boku"}  # a game's name stays
    assert "en-US" not in challenge["name_localizations"]


def test_the_name_tables_cover_exactly_the_commands_and_options(offline: Any) -> None:
    found = dict(nodes(synced(offline)))
    commands = {q for q, node in found.items() if node["type"] in (1, 2)}  # (sub)commands, groups
    options = {node["name"] for node in found.values() if node["type"] not in (1, 2)}
    english = names(ENGLISH)
    assert set(english.commands) == commands
    assert set(english.options) == options
    assert all(english.commands[q] == q.split()[-1] for q in commands)
    assert all(english.options[o] == o for o in options)


def test_a_changed_translation_changes_the_registered_hash(
    offline: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    german = names("de")
    renamed = Names({**german.commands, "challenge": "fordern"}, german.options)

    async def scenario(h: OfflineDiscord) -> None:
        before = await payload_hash(h.bot.tree, GUILD)
        assert await payload_hash(h.bot.tree, GUILD) == before
        monkeypatch.setattr(translator, "names", lambda language: renamed)
        changed = await payload_hash(h.bot.tree, GUILD)
        assert changed != before
        await h.bot.tree.set_translator(None)
        assert await payload_hash(h.bot.tree, GUILD) not in (before, changed)

    offline(scenario, dev_guild_id=GUILD)


def test_a_challenge_worded_in_german_names_the_german_command_and_option() -> None:
    sentence = "Try `/challenge game:Boku opponent:@bob`, or /challenge game:Kyo alone."
    assert localised(sentence, "de") == (
        "Try `/herausfordern spiel:Boku gegner:@bob`, or /herausfordern spiel:Kyo alone."
    )
    with speaking("de"):
        worded = say(t("posts.direct.unfollow", match=7))
    assert "`/entfolgen partie:7`" in worded
    assert "`/unfollow match:7`" in say(t("posts.direct.unfollow", match=7))  # English stays


def test_an_option_named_in_a_refusal_is_the_readers_option() -> None:
    refusal = t("service.option.out_of_range", value="99", name=OptionName("days"))
    assert say(refusal) == "99 is out of range for days."
    with speaking("pt-BR"):
        assert "dias" in say(refusal) and "days" not in say(refusal)


@pytest.mark.parametrize(
    ("sentence", "french"),
    [
        ("`/tournament create|start|list`", "`/tournoi créer|lancer|liste`"),
        (
            "`/move move [match]` or `/challenge game [opponent…]`",
            "`/coup coup [partie]` or `/défier jeu [adversaire…]`",
        ),
        (
            "`/time give days`; `/settings dm:on|off`",
            "`/temps offrir jours`; `/réglages mp:on|off`",
        ),
        ("A bank: `clock:bank days:3 cap:7`.", "A bank: `pendule:bank jours:3 plafond:7`."),
        ("due within `days`; the `match` option", "due within `jours`; the `partie` option"),
        ("(/vacation days:0 ends it)", "(/vacances jours:0 ends it)"),
        ("/board shows the match and its game", "/plateau shows the match and its game"),
    ],
)
def test_mentions_are_renamed_subcommands_options_and_settings(sentence: str, french: str) -> None:
    assert localised(sentence, "fr") == french


@pytest.mark.parametrize(
    "sentence",
    [
        "the match option, the game, your move",  # no command: ordinary words
        "`game match` and `all games`",  # code that is neither a syntax line nor an option
        "/cogs/moves.py, https://discord.com/channels/1/2, sqlite:////data/move",
        "</move:123> and /unknown game:Boku",
        "`a1e3 game:Boku`",  # a code span that is not only settings
    ],
)
def test_ordinary_words_paths_and_links_stay(sentence: str) -> None:
    assert localised(sentence, "es-ES") == sentence


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_no_sentence_of_the_catalogue_names_an_english_command(language: str) -> None:
    own = names(language)
    english = set(names(ENGLISH).commands) - set(own.commands.values())
    left = {
        key: found[1]
        for key, sentence in catalogue(language).items()
        for found in COMMAND.finditer(localised(sentence, language))
        if found[1] in english
    }
    assert left == {}


def test_the_docs_list_every_name_in_every_language() -> None:
    page = (Path(__file__).parents[2] / "docs" / "languages.md").read_text(encoding="utf-8")
    section = page.split("## Commands in other languages", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip(" `") for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| `")
    ]

    def command(language: str, qualified: str) -> str:
        words = qualified.split()
        own = names(language).commands
        return "/" + " ".join(own[" ".join(words[: n + 1])] for n in range(len(words)))

    assert rows == [
        *([command(language, q) for language in LANGUAGES] for q in names(ENGLISH).commands),
        *(
            [f"{names(language).options[o]}:" for language in LANGUAGES]
            for o in names(ENGLISH).options
        ),
    ]
