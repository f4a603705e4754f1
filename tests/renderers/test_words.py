"""The words on the pictures are the caller's: a board, a replay's frames, the key to a board
and the analysis graph draw the words they are handed, in any language, and none of their own
(issue 44); the font those words are drawn in has every letter of the bot's languages.

What is drawn is read where it is drawn (`ImageDraw.text`), not from the pixels."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.posts.pictures import picture_words
from bot.texts import LANGUAGES, speaking
from renderers import render, render_replay
from renderers.canvas import words_font
from renderers.graph import Dot, render_graph
from renderers.key import key_image
from renderers.words import PictureWords
from rules import GAMES, get_game
from rules.playout import random_states

ENGLISH, GERMAN = picture_words("en"), picture_words("de")
NAMES = ["ann", "bo", "cy", "di"]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text drawn from now on (sprites drawn before and cached are not drawn again)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def played(game_name: str, turns: int, players: int = 2, seed: int = 1) -> list[Any]:
    game = get_game(game_name)
    start = game.new(players=players, seed=seed)
    return list(random_states(game, random.Random(seed), start, bound=turns))


def test_the_reader_s_words_are_what_the_pictures_get() -> None:
    with speaking("de"):
        assert picture_words() == GERMAN
    assert picture_words() == ENGLISH != GERMAN
    assert GERMAN.board["to_move"] == "{player} ist am Zug"
    assert GERMAN.seats["rules.seat.white"] == "Weiß"
    assert GERMAN.graph["blunder"] == "Patzer"


def test_a_board_for_a_german_reader_speaks_german(drawn: list[str]) -> None:
    game = get_game("quorum")
    state = played("quorum", 2)[-1]
    render("quorum", state, names=NAMES[:2], words=GERMAN)
    last = game.last(state)
    assert last is not None
    assert "ann ist am Zug" in drawn
    assert f"Zug 2: bo spielte {last.notation}" in drawn
    drawn.clear()
    render("quorum", game.resign(state, 1), words=GERMAN)
    assert "Sieg: Schwarz (Aufgabe)" in drawn
    drawn.clear()
    render("quorum", game.new(), words=GERMAN)
    assert {"Weiß ist am Zug", "Noch keine Züge", "Weiß", "Schwarz"} <= set(drawn)


def test_every_frame_of_a_german_replay_has_a_german_header(drawn: list[str]) -> None:
    states = played("quorum", 3)
    gif = render_replay("quorum", states, names=NAMES[:2], words=GERMAN)
    details = [text for text in drawn if text.startswith(("Zug ", "Noch keine"))]
    assert details[0] == "Noch keine Züge"
    assert [detail.split(":")[0] for detail in details[1:]] == ["Zug 1", "Zug 2", "Zug 3"]
    assert gif != render_replay("quorum", states, names=NAMES[:2], words=ENGLISH)


def test_the_analysis_graph_speaks_german(drawn: list[str]) -> None:
    chances = [(0.5, 0.5), (0.7, 0.3), (0.2, 0.8)]
    render_graph(chances, names=["Jürgen", "Zoë"], words=GERMAN, dots=[Dot(2, 1, "blunder")])
    assert {"Zug", "Ungenauigkeit", "Fehler", "Patzer", "50 %", "100 %"} <= set(drawn)
    assert {"Jürgen", "Zoë"} <= set(drawn)
    assert not {"turn", "blunder", "50%"} & set(drawn)


class Marked(dict[str, str]):
    """A table in which each word is its name, marked: `⟦to_move⟧`."""

    def __missing__(self, name: str) -> str:
        return f"⟦{name}⟧"


MARKED = PictureWords(Marked(), Marked(), Marked(), Marked(), Marked())
MARK = re.compile(r"⟦[^⟧]*(⟧|…$)")  # a word, or its start where it did not fit


def own_words(texts: list[str], given: list[str]) -> list[str]:
    """What was drawn besides the marked words, the names, the notation and the titles given:
    a word of three letters or more there is a word the renderer wrote itself."""
    found = []
    for text in texts:
        rest = MARK.sub(" ", text)
        for value in given:
            rest = rest.replace(value, " ")
        if re.search(r"[A-Za-z]{3,}", rest):
            found.append(text)
    return found


def positions(game_name: str) -> Iterator[Any]:
    """A start, a game under way with every player, and one that is over."""
    game = get_game(game_name)
    players = max(game.player_counts)
    states = played(game_name, 8 if game_name == "kyo" else 40, players)  # Kyo's turns are slow
    yield states[0]
    yield states[len(states) // 2]
    yield (
        game.resign(states[-1], game.to_move(states[-1]))
        if game.outcome(states[-1]) is None
        else states[-1]
    )


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_renderer_draws_only_the_words_it_is_given(game_name: str, drawn: list[str]) -> None:
    game = get_game(game_name)
    given = [game.title, *NAMES]
    for state in positions(game_name):
        for names in (NAMES, None):
            render(game_name, state, names=names, words=MARKED)
            last = game.last(state)
            given += [last.notation] if last else []
    key_image(game_name, words=MARKED)
    render_graph(
        [(0.5, 0.5), (0.9, 0.1)], names=NAMES[:2], words=MARKED, dots=[Dot(1, 1, "blunder")]
    )
    assert "⟦to_move⟧" in " ".join(drawn)
    assert own_words(drawn, given) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_entry_of_a_key_reads_whole(game_name: str, language: str, drawn: list[str]) -> None:
    """No meaning is cut short with an ellipsis: a longer language is drawn smaller."""
    key_image(game_name, words=picture_words(language))
    assert [text for text in drawn if text.endswith("…")] == []


def glyph(character: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((4, 4), character, font=words_font(32), fill=255)
    return image.tobytes()


NOTDEF = glyph("\uffff")  # a noncharacter: every font draws it as its missing-glyph box


def test_the_font_of_words_has_every_letter_of_the_bot_s_languages() -> None:
    letters = set("äöüÄÖÜßéèêàâçÇãõÃÕáíóúñ¿¡ëïœ«»„“”’…")
    for language in LANGUAGES:
        words = picture_words(language)
        for table in (words.seats, words.reasons, words.board, words.key, words.graph):
            letters |= {c for word in table.values() for c in word if not c.isspace()}
    missing = sorted(c for c in letters if glyph(c) == NOTDEF)
    assert missing == []
    assert glyph("ä") != glyph("a") != NOTDEF
