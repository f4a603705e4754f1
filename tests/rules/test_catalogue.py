"""Every key the rules raise or describe with is in the English catalogue, with exactly the
placeholders the rules pass: found by reading the rules' source (every literal key, and the
values named where a refusal or phrase is made) and by running them (error tables, random
games and their results, the Kyo picker), since some keys travel through tables and helpers.
The words the rules hand out besides (seats, results, variants) read as players knew them."""

from __future__ import annotations

import ast
import pickle
import random
import string
from collections.abc import Callable, Iterator
from functools import cache, partial
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from bot.posts.pictures import picture_words
from bot.texts import catalogue, say, t
from renderers.canvas import seat_word
from rules import GAMES, Game, Outcome, Reason, Record, RulesError, get_game
from rules.outcomes import REASONS, described
from rules.phrases import Phrase, phrase
from rules.playout import random_states

WORDS = picture_words("en")

RULES = Path(__file__).resolve().parents[2] / "rules"
KEY_SHAPE = "rules."
MAKERS = {
    "phrase",
    "RulesError",
    "UnknownGame",
    "UnknownVariant",
    "InvalidMove",
    "IllegalMove",
    "InvalidDiagram",
    "InvalidState",
    "InvalidRecord",
}


@cache
def templates() -> dict[str, list[str]]:
    """The English sentences of each key the rules may use: one, or its plural forms."""
    found: dict[str, list[str]] = {}
    for key, text in catalogue("en").items():
        if not key.startswith(KEY_SHAPE):
            continue
        base, _, form = key.rpartition(".")
        found.setdefault(base if form in ("one", "other") else key, []).append(text)
    return found


def placeholders(key: str) -> set[str]:
    return {
        field.split("!")[0]
        for text in templates()[key]
        for _, field, _, _ in string.Formatter().parse(text)
        if field is not None
    }


def plural(key: str) -> bool:
    return f"{key}.other" in catalogue("en")


def check(key: str, names: set[str]) -> str | None:
    """What is wrong with using `key` with values of these names, if anything."""
    if key not in templates():
        return f"{key} is not in bot/texts/en.toml [rules]"
    wanted = placeholders(key)
    extra = {"count"} if plural(key) else set()
    if plural(key) and "count" not in names:
        return f"{key} has plural forms but no count"
    if not wanted <= names or names - wanted - extra:
        return f"{key} takes {sorted(wanted)}, given {sorted(names)}"
    return None


# --- the source -------------------------------------------------------------------------------


def rules_source() -> Iterator[tuple[Path, ast.AST]]:
    for path in sorted(RULES.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def literal_keys() -> set[str]:
    return {
        node.value
        for _, tree in rules_source()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith(KEY_SHAPE)
        and " " not in node.value
    }


def test_every_key_written_in_the_rules_is_in_the_catalogue() -> None:
    keys = literal_keys()
    assert len(keys) > 200
    assert sorted(k for k in keys if k not in templates()) == []


def test_every_refusal_and_phrase_made_in_the_rules_names_the_catalogues_placeholders() -> None:
    problems, made = [], 0
    for path, tree in rules_source():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in MAKERS or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if any(keyword.arg is None for keyword in node.keywords):
                continue  # values passed on (**error.values): checked by running the rules
            made += 1
            problem = check(first.value, {str(keyword.arg) for keyword in node.keywords})
            if problem:
                problems.append(f"{path.relative_to(RULES.parent)}:{node.lineno}: {problem}")
    assert made > 200
    assert problems == []


def test_every_key_in_the_catalogue_is_used_by_the_rules() -> None:
    assert sorted(set(templates()) - literal_keys()) == []


# --- running the rules ------------------------------------------------------------------------


def worded(value: Any) -> Iterator[Phrase | RulesError]:
    """A refusal or phrase and every one nested in its values."""
    if isinstance(value, Phrase | RulesError):
        yield value
        for inner in value.values.values():
            yield from worded(inner)


TYPED = ["", "pass", "place", "end", "x", "a1", "z9", "e5xf6", "d1-e1, e2-e5", "b1-c3, d1-e1"]
TYPED += ["e2:9-e3", "e2=LDS", "e2+f3", "e2>e3", "e2-e3-e4-e5", "a1b2c3", "e2:1-e3:0=SD"]


def said(game: Game[Any, Any], rng: random.Random) -> Iterator[Any]:
    """What one random game makes the rules say: each position summed up, each played move
    described, refusals of typed texts, for Kyo the picker's labels, and how it ended."""
    start = game.new(players=max(game.player_counts), seed=rng.randrange(100))
    line = list(random_states(game, rng, start, bound=40 if game.may_list_slowly else 300))
    names = ["ivy", "Bob", "carol", "dan"]
    width, height = game.board_size
    squares = [f"{'abcdefghij'[f]}{r + 1}" for f in range(width) for r in range(height)]
    for state in line[:: max(1, len(line) // 12)]:
        yield game.describe_position(state)
        yield game.describe_position(state, names)
        yield described(game.outcome(state), names)
        tree = game.move_tree(state)
        for move in islice(tree.moves(0.2), 40):
            yield game.describe_move(state, move, names)
            yield game.describe_move(state, move)
        for path in (["a1"], [], *([token] for token in islice(tree.children, 6))):
            node = tree.walk(path)
            for token in list(node.children)[:8] if node else ():
                yield game.token_label(state, path, token)
        for text in TYPED + rng.sample(squares, 8) + [a + b for a, b in [rng.sample(squares, 2)]]:
            try:
                game.parse_move(state, text + rng.choice(["", "-" + rng.choice(squares)]))
            except RulesError as error:
                yield error


def refusals_of_setup(game: Game[Any, Any]) -> Iterator[RulesError]:
    start = game.format_diagram(game.new())
    bad_diagrams = [
        "x",
        "foo: 1",
        start + "\nfoo: bar",
        start + "\nto move: nobody",
        start.replace(".", "?", 1).replace("·", "?", 1),
        "1: E5 E5",
        "1: E5\nblocked: E5",
        start + "\nineligible: a1",
        start + "\nineligible: z9",
        start + "\nlast move: b1",
        start + "\nlast move: d1-e1",
        start + "\nlast move: b1-c3",
        start + "\nlast move: d1-e1, e2-e3",
        start + "\nplayers: 9",
        start + "\nvariant: huge",
        start.replace("X", "x").replace("p", "P7", 1),
        start.replace("DDDH", "DHDH", 1),
    ]
    dump = game.dump(game.new())
    bad_dumps: list[Any] = [None, {**dump, "format": 9}, {**dump, "game": "chess"}]
    bad_dumps.append({**dump, "state": {**dump["state"], "board": ["xx"]}})
    over = game.resign(game.new(), 1)
    attempts: list[Callable[[], Any]] = [
        *(partial(game.parse_diagram, text) for text in bad_diagrams),
        *(partial(game.load, data) for data in bad_dumps),
        partial(game.new, variant="giant"),
        partial(game.new, players=9),
        partial(game.resign, game.new(), 9),
        partial(game.apply, game.new(), "nonsense"),
        partial(game.end, over, Outcome((2,), "agreement")),
    ]
    for attempt in attempts:
        try:
            attempt()
        except RulesError as error:
            yield error


RECORDS = [
    "nonsense",
    '[Game "quorum"]',
    '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "0"]\n\n2. a1e3',
    '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "0"]\n[Reason "luck"]',
    '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "0"]\n[Winners "x"]\n'
    '[Reason "five"]',
    '[Game "quorum"]\n[Variant "standard"]\n[Players "2"]\n[Seed "0"]\n\n1. a1e3\n2. a1e3',
]


def refusals_of_records() -> Iterator[RulesError]:
    for text in RECORDS:
        try:
            Record.from_text(text).replay(get_game("quorum"))
        except RulesError as error:
            yield error
    try:
        Record.from_text(RECORDS[2].replace("2. ", "1. ")).replay(get_game("boku"))
    except RulesError as error:
        yield error
    try:
        get_game("chess")
    except RulesError as error:
        yield error


@pytest.mark.parametrize("name", list(GAMES))
def test_what_the_rules_say_in_play_is_in_the_catalogue(name: str) -> None:
    game = get_game(name)
    rng = random.Random(name)
    said_here = [*said(game, rng), *refusals_of_setup(game), *refusals_of_records()]
    problems, keys = set(), set()
    for value in said_here:
        for made in worded(value):
            keys.add(made.key)
            problem = check(made.key, set(made.values))
            if problem:
                problems.add(problem)
    assert len(keys) > 20
    assert sorted(problems) == []
    assert all(say(value) for value in said_here)  # worded in full, no placeholder left over


SEATS = {
    "boost": ["Blue", "Red", "Green", "Yellow"],
    "quorum": ["White", "Black"],
    "boku": ["Dark", "Light"],
    "razzle": ["White", "Black"],
    "kyo": ["Gold", "Red"],
}


def test_every_seat_goes_by_its_colour_in_posts_and_pictures() -> None:
    for name, game in GAMES.items():
        assert len(game.seat_keys) >= max(game.player_counts)
        seats = range(1, len(game.seat_keys) + 1)
        assert [say(game.seat_phrase(seat)) for seat in seats] == SEATS[name]
        assert [seat_word(game, seat, WORDS) for seat in seats] == SEATS[name]


def test_a_result_reads_with_the_winners_names_or_their_seats() -> None:
    names = ["ivy", "Bob", "carol", "dan"]
    assert say(described(None, names)) == "the game goes on"
    assert say(described(Outcome((), "move-limit"), names)) == "draw (move limit)"
    assert say(described(Outcome((2,), "resignation"), names)) == "Bob wins (resignation)"
    three = described(Outcome((1, 3, 4), "board-full"), names)
    assert say(three) == "ivy and carol and dan win (board full)"
    assert say(Outcome((), "move-limit").by_seat()) == "draw (move-limit)"
    assert say(Outcome((1, 3), "timeout").by_seat()) == "seat 1, 3 wins (timeout)"


def test_every_reason_a_game_ends_for_has_its_words() -> None:
    assert set(REASONS) == set(Reason)
    for reason, key in REASONS.items():
        assert say(phrase(key)) == reason.value.replace("-", " ")


def test_every_variant_is_described_in_the_catalogue() -> None:
    for name, game in GAMES.items():
        for variant in game.variants.values():
            assert variant.description.key == f"rules.variant.{name}.{variant.name}"
            assert 30 < len(say(variant.description)) < 80, (name, variant.name)
    described_variant = get_game("kyo").variants["trench"].description
    assert say(described_variant) == "light pawns on ranks 4 and 7 (the standard game)"


def test_every_help_topic_is_in_the_catalogue_and_nothing_else() -> None:
    entries = catalogue("en")
    for name, game in GAMES.items():
        written = [key.split(".")[2] for key in entries if key.startswith(f"help.{name}.")]
        assert written == list(game.help_topics), name
        for topic in game.help_topics:
            assert 80 < len(say(t(f"help.{name}.{topic}"))) < 1500, (name, topic)
    assert {key.split(".")[1] for key in entries if key.startswith("help.")} == set(GAMES)


def test_a_refusal_keeps_its_key_and_values_through_pickling() -> None:
    """Workers in other processes hand refusals back pickled."""
    error = get_game("quorum").diagnose(get_game("quorum").new(), "h8f6", ["ivy", "Bob"])
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.key, again.values) == (type(error), error.key, error.values)
    assert say(again) == "h8 holds Bob's stone, not yours (you play White)"
