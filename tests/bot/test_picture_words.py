"""Pictures, their alt texts and thread names in the reader's language (issue 44): the
announcer hands the renderers the words of the language it speaks in (to a thread, and to the
worker process that draws a replay), an alt text has no English-only sentence in another
language, and every language stays within Discord's limits with the longest values put in."""

from __future__ import annotations

import io
import random
import re
import string
from typing import Any

import pytest
from PIL import Image

from bot.offline import OfflineDiscord
from bot.posts import limits
from bot.posts.match_texts import alt_text, plain, replay_alt
from bot.posts.pictures import picture_words
from bot.service import Match
from bot.store import MatchRow, SeatRow, Status
from bot.texts import ENGLISH, LANGUAGES, catalogue, say, speaking, t
from renderers import record_gif, render_png
from rules import GAMES, get_game
from rules.playout import random_states
from tests.bot.support import public, resign, start_match

LONGEST_NAME = "W" * 32  # Discord's longest display name, in its widest letter
LONGEST_ID = 2**31 - 1


def test_every_language_has_every_word_of_the_pictures() -> None:
    english = sorted(key for key in catalogue(ENGLISH) if key.startswith("pictures."))
    for language in LANGUAGES:
        assert sorted(k for k in catalogue(language) if k.startswith("pictures.")) == english


def match_of(game_name: str, state: Any, names: list[str], match_id: int = 7) -> Match:
    """A match as the store would load it, seated by `names`."""
    game = get_game(game_name)
    seats = tuple(
        SeatRow(seat, 100_000_000_000_000_000 + seat, name, True)
        for seat, name in enumerate(names, start=1)
    )
    row = MatchRow(
        id=match_id,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        challenge_message_id=None,
        board_message_id=None,
        game=game.name,
        variant=state.variant,
        seed=1,
        status=Status.ACTIVE,
        ply=int(game.ply(state)),
        snapshot="",
        outcome=None,
        draw_offer=None,
        created_at="",
        updated_at="",
        seats=seats,
    )
    return Match(row, game, state)


def busy(game_name: str, players: int, seed: int = 2) -> Any:
    """A position some way into a random game, still going on."""
    game = get_game(game_name)
    start = game.new(players=players, seed=seed)
    states = list(random_states(game, random.Random(seed), start, bound=24))
    return next(s for s in reversed(states) if game.outcome(s) is None)


def english_only(language: str) -> set[str]:
    """Runs of words in English sentences that the language words otherwise: found in that
    language's text, they are English it was not meant to have. A key the language lacks
    falls back to English, and the translations' own tests catch that."""
    english, other = catalogue(ENGLISH), catalogue(language)
    found = set()
    for key, sentence in english.items():
        if key in other and other[key] != sentence:
            for literal, *_ in string.Formatter().parse(sentence):
                run = literal.strip(" .,:;()")
                if len(re.findall(r"[A-Za-z]{2,}", run)) >= 2:
                    found.add(run)
    return found


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_german_alt_text_has_no_english_sentence(game_name: str) -> None:
    game = get_game(game_name)
    state = busy(game_name, 2)
    match = match_of(game_name, state, ["ann", "bo"])
    with speaking("de"):
        german = alt_text(match, state)
        heading = say(t("posts.alt.board", title=match.title, variant=state.variant, count=1))
    english = alt_text(match, state)
    assert german != english
    assert german.startswith(heading.split(" (")[0])
    assert [run for run in english_only("de") if run in german] == []
    last = game.last(state)
    assert last is not None and last.notation in german  # notation stays as it is


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_thread_names_and_alt_texts_fit_with_the_longest_values(
    game_name: str, language: str
) -> None:
    game = get_game(game_name)
    players = max(game.player_counts)
    state = busy(game_name, players)
    match = match_of(game_name, state, [LONGEST_NAME] * players, LONGEST_ID)
    with speaking(language):
        thread = limits.thread_name(plain(match.describe()))
        alt = alt_text(match, state)
        replay = limits.description(say(replay_alt(match)))
    assert len(thread) <= limits.THREAD_NAME and thread.startswith(match.title)
    assert len(alt) <= limits.ATTACHMENT_DESCRIPTION
    assert not alt.endswith(limits.ELLIPSIS), "the counted position fits whole"
    assert len(replay) <= limits.ATTACHMENT_DESCRIPTION


def test_the_announcer_draws_in_the_language_it_speaks(
    offline: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board drawn inside `speaking("de")` gets the German words and a German alt text (the
    result, posted in its English server, English ones); a replay posted once the server
    speaks German, drawn in the worker process, gets them too (its frames are the German
    ones)."""
    seen: list[Any] = []

    def recording(*args: Any, **kwargs: Any) -> bytes:
        seen.append(kwargs["words"])
        return render_png(*args, **kwargs)

    async def scenario(h: OfflineDiscord) -> tuple[str, bytes, str, Any]:
        match_id, (alice, bob) = await start_match(h)
        await h.command(alice, "move", move="a1e3")
        monkeypatch.setattr(h.bot.announcer, "render", recording)
        match = await h.bot.service.cache.get(match_id)
        view = await h.bot.service.settings.private_view(match, alice.id)
        with speaking("de"):
            board = await h.bot.announcer.board_file(match, view)
        await resign(h, bob)
        await h.command(alice, "server settings", language="de")  # a post speaks its place's
        before = len(h.sent)
        await h.bot.announcer.post_replay(match_id)
        (posted,) = [s for s in public(h.sent[before:]) if s.files]
        ((_, gif),) = posted.files
        record = await h.bot.service.queries.record(match_id)
        return board.description or "", gif, posted.descriptions[0] or "", record

    alt, gif, replay_alt_text, record = offline(scenario)
    assert seen == [picture_words("de"), picture_words(ENGLISH)]  # the board, then the result
    assert alt.startswith("Brett von Quorum #1") and "ist am Zug" in alt, alt
    assert replay_alt_text.startswith("Animiertes Replay von Quorum #1"), replay_alt_text
    assert gif == record_gif(record, names=["alice", "bob"], words=picture_words("de"))
    assert gif != record_gif(record, names=["alice", "bob"], words=picture_words(ENGLISH))
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF"
