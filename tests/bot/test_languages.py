"""Each reader in their own language (issue 44), end to end through the offline Discord:
private answers in the member's client locale, public posts in the server's language
(`/server settings language:`, else the server's own), DMs in their reader's.

English is detected by keys, not guessed: `fallbacks()` records every key worded in English
because the reader's language lacks it, and no text the bot sent may hold a stretch of an
English sentence of the catalogue that the reader's catalogue does not share."""

from __future__ import annotations

import asyncio
import re
import string
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.clock import DAY
from bot.cogs.settings import LANGUAGE_CHOICES
from bot.offline import OfflineDiscord, Sent
from bot.service import settings as settings_module
from bot.service.offload import Offload, TooComplex
from bot.service.settings import LANGUAGE_NAMES, SERVER_OWN
from bot.store import ServerRow
from bot.texts import ENGLISH, LANGUAGES, catalogue, fallbacks, reading, say, speaking, t
from bot.texts.numbers import Number
from tests.bot.support import new_bot, private, public
from tests.bot.test_offline_lines import session

ENGLISH_ONLY = 20  # characters: a stretch of English this long is a sentence, not a name
CHALLENGE = "challenge"


def _stretches(sentence: str) -> list[str]:
    """The literal parts of a sentence between its placeholders, each stripped."""
    parts = [literal for literal, _, _, _ in string.Formatter().parse(sentence)]
    return [part.strip() for part in parts if part and len(part.strip()) > ENGLISH_ONLY]


@cache
def english_only(language: str) -> frozenset[str]:
    """Stretches of English sentences that no sentence of `language` shares: if a post
    holds one, English was shown to a reader of `language`."""
    theirs = "\n".join(catalogue(language).values())
    return frozenset(
        stretch
        for sentence in catalogue(ENGLISH).values()
        for stretch in _stretches(sentence)
        if stretch not in theirs
    )


def shown(sent: list[Sent]) -> list[str]:
    """Everything a person reads of what the bot did: texts, buttons, menus, embeds, alt
    texts and thread names."""
    texts: list[str] = []
    for item in sent:
        texts += [item.content, *item.buttons, *(d for d in item.descriptions if d)]
        texts += [str(embed) for embed in item.embeds]
        texts += re.findall(r"'label': '([^']*)'", str(item.components))
    return [text for text in texts if text]


def english_in(sent: list[Sent], language: str) -> list[str]:
    stretches = english_only(language)
    return sorted({s for text in shown(sent) for s in stretches if s in text})


def test_english_stretches_are_found_and_shared_ones_are_not() -> None:
    """The detector itself: an English sentence is caught, its German one is not."""
    assert "is not a language the bot speaks." in english_only("de")
    english = Sent("message", 1, content=say(t("languages.unknown", language="xx")))
    german = Sent("message", 1, content=say(t("languages.unknown", language="xx"), "de"))
    assert english_in([english], "de") == ["is not a language the bot speaks."]
    assert english_in([german], "de") == []


async def _game_in(h: OfflineDiscord, language: str) -> None:
    """A whole Quorum game with its mistakes, by members whose Discord speaks `language`,
    in a server set to it."""
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol", manager=False)
    for user in (alice, bob, carol):
        h.speak(user, language)
    await h.command(alice, "server settings", language=language)
    await h.command(alice, CHALLENGE, game="quorum", opponent=bob)
    challenge = h.latest(lambda s: len(s.buttons) == 3)
    accept = challenge.buttons[0]
    (not_theirs,) = private(await h.click(carol, challenge.message_id or 0, accept))
    await h.click(bob, challenge.message_id or 0, accept)
    (out_of_turn,) = private(await h.command(bob, "move", move="h8h4"))
    (wrong_square,) = private(await h.command(alice, "move", move="a1a1"))
    (not_a_move,) = private(await h.command(alice, "move", move="zz"))
    (board,) = public(await h.command(alice, "move", move="a1e3"))
    (strangers_click,) = private(await h.click(carol, board.message_id or 0, board.buttons[0]))
    await h.command(bob, "board")
    await h.command(bob, "help")
    await h.command(bob, "rules", game="quorum")
    (question,) = private(await h.command(bob, "resign"))
    await h.click(bob, question.message_id or 0, question.buttons[0])
    match = await h.bot.service.cache.get(1)
    assert match.outcome is not None, "bob resigned"
    with speaking(language):
        expected = [
            (not_theirs, t("service.challenge.not_for_you", players="bob")),
            (
                out_of_turn,
                t("service.turn.not_yours", name="alice", side=match.game.seat_phrase(1)),
            ),
            (strangers_click, t("service.turn.not_playing", match=match.describe())),
        ]
        over = say(t("posts.game_over", outcome=match.describe_outcome()))
    for answer, text in expected:
        assert answer.content.startswith(say(text, language)), answer.content
    assert wrong_square.content != not_a_move.content, "two refusals, each its own"
    assert any(over in post.content for post in public(h.sent)), "the result is posted"


@pytest.mark.parametrize("language", ["de", "es-ES", "fr", "pt-BR"])
def test_a_whole_game_in_one_language_says_nothing_in_english(offline: Any, language: str) -> None:
    """Challenge, a stranger's Accept, a move out of turn, a wrong square, no move at all,
    a stranger's Move button, /board, /help, /rules, resignation and the result post."""

    async def scenario(h: OfflineDiscord) -> tuple[set[tuple[str, str]], list[str]]:
        with fallbacks() as seen:
            await _game_in(h, language)
        return seen, english_in(h.sent, language)

    seen, english = offline(scenario)
    assert (sorted(seen), english) == ([], [])


def test_a_german_member_reads_german_while_the_servers_board_speaks_its_language(
    offline: Any,
) -> None:
    """In an English server, alice (German) is answered in German and her board posts are
    English; once the server chooses French, its boards are French, her answers still
    German, and bob (English) is answered in English."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.speak(alice, "de")
        await h.command(alice, CHALLENGE, game="quorum", opponent=bob)
        challenge = h.latest(lambda s: "Accept" in s.buttons)
        assert challenge.content.startswith(f"<@{alice.id}> challenges"), "the server's English"
        await h.click(bob, challenge.message_id or 0, "Accept")
        (answer,) = private(await h.command(bob, "move", move="h8h4"))
        assert answer.content.startswith("It is alice's turn"), answer.content
        for user, versus in ((alice, "gegen"), (bob, "vs")):  # suggestions while typing
            await h.autocomplete(user, "board", "match", match="")
            (offered,) = list(h.autocompleted.values())[-1]
            assert offered["name"] == f"Quorum #1: alice {versus} bob"
        (board,) = public(await h.command(alice, "move", move="a1e3"))
        assert "alice played **a1e3**." in board.content and board.buttons == ["Move"]
        (answer,) = private(await h.command(alice, "move", move="h8h4"))
        german = say(t("service.turn.not_yours", name="bob", side="Schwarz"), "de")
        assert answer.content.startswith(german), answer.content
        changed = public(await h.command(alice, "server settings", language="fr"))
        assert (
            say(t("languages.setting", language=LANGUAGE_NAMES["fr"]), "fr") in changed[0].content
        )
        (board,) = public(await h.command(bob, "move", move="h8h4"))
        assert say(t("posts.turn.played", player="bob", move="**h8h4**"), "fr") in board.content
        assert board.buttons == [say(t("views.move"), "fr")]
        (answer,) = private(await h.command(alice, "server settings"))
        assert say(t("answers.server.heading"), "de") in answer.content

    offline(scenario)


def test_a_dm_speaks_its_readers_language_and_the_server_its_own(offline: Any) -> None:
    """bob (German) gets his turn by DM in German; the board in the server stays in the
    server's own language, which Discord gave with the last interaction there."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.speak(bob, "de")
        await h.command(bob, "settings", dm="on")
        await h.command(alice, CHALLENGE, game="quorum", opponent=bob)
        await h.click(bob, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        sent = await h.command(alice, "move", move="a1e3")
        (dm,) = [s for s in sent if s.channel_id == h.dm_channel(bob)]
        match = await h.bot.service.cache.get(1)
        heading = say(t("posts.direct.your_move", match=match.describe(), due="", link=""), "de")
        assert dm.content.startswith(heading.split(".")[0]), dm.content
        assert english_in([dm], "de") == []
        assert "alice played **a1e3**." in public(sent)[0].content
        guild = await h.bot.store.server_settings(h.guild_id)
        assert guild.locale == "en-US" and guild.language is None
        assert (await h.bot.store.preferences(bob.id)).locale == "de"

    offline(scenario)


def test_the_server_language_choice_is_checked_and_shown(offline: Any) -> None:
    """A value outside the choices (Discord's API lets anything through) is refused and
    changes nothing; the server's own is the default and can be chosen back."""

    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        (answer,) = private(await h.command(alice, "server settings"))
        own = say(t("languages.setting_own", language=LANGUAGE_NAMES[ENGLISH]))
        assert own in answer.content
        (refused,) = private(await h.command(alice, "server settings", language="klingon"))
        assert "klingon" in refused.content
        assert (await h.bot.store.server_settings(h.guild_id)).language is None
        h.speak(alice, "es-ES")  # each choice as her client shows it, with its value
        (refused,) = private(await h.command(alice, "server settings", language="default"))
        own = say(t("languages.choice_own"), "es-ES")
        assert f"{own} (server), English (en), Deutsch (de)" in refused.content
        h.speak(alice, "en-US")
        await h.command(alice, "server settings", language="es-ES")
        assert (await h.bot.store.server_settings(h.guild_id)).language == "es-ES"
        changed = public(await h.command(alice, "server settings", language="server"))
        assert (
            say(t("languages.setting_own", language=LANGUAGE_NAMES[ENGLISH])) in changed[0].content
        )
        assert (await h.bot.store.server_settings(h.guild_id)).language is None

    offline(scenario)


def test_every_language_has_its_own_name_and_a_choice() -> None:
    names = [LANGUAGE_NAMES[language] for language in LANGUAGES]
    assert all(names) and len(set(names)) == len(LANGUAGES)
    assert [choice.value for choice in LANGUAGE_CHOICES] == [SERVER_OWN, *LANGUAGES]


@pytest.mark.both_backends
def test_languages_and_locales_are_stored(database_url: str) -> None:
    """Both backends keep a server's language, its remembered locale apart from its other
    settings, and a member's locale apart from their preferences."""

    async def check() -> None:
        bot = new_bot(database_url)
        async with OfflineDiscord(bot):
            store = bot.store
            await store.remember_server_locale(7, "fr")
            assert await store.server_settings(7) == ServerRow(7, locale="fr")
            await store.set_server_settings(ServerRow(7, theme="dark", language="de"))
            assert await store.server_settings(7) == ServerRow(
                7, theme="dark", language="de", locale="fr"
            )
            await store.set_dm(3, True)
            await store.remember_locale(3, "pt-BR")
            mine = await store.preferences(3)
            assert mine.dm and mine.locale == "pt-BR" and not mine.installed
            await store.remember_install(3)
            await store.remember_install(4)  # a member with no preferences yet
            mine = await store.preferences(3)
            assert mine.dm and mine.locale == "pt-BR" and mine.installed
            assert (await store.preferences(4)).installed

    asyncio.run(check())


def test_what_members_carry_is_written_once_and_the_memory_of_it_stays_bounded(
    monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    """Settings.heard writes a member's locale and install only when they change, and forgets
    what it wrote past REMEMBERED entries (then writes again) rather than grow forever."""
    monkeypatch.setattr(settings_module, "REMEMBERED", 4)

    async def check() -> None:
        bot = new_bot(database_url)
        async with OfflineDiscord(bot):
            settings, store = bot.service.settings, bot.store
            writes: list[int] = []
            installs: list[int] = []
            remember, install = store.remember_locale, store.remember_install

            async def counted(user_id: int, locale: str) -> None:
                writes.append(user_id)
                await remember(user_id, locale)

            async def counted_install(user_id: int) -> None:
                installs.append(user_id)
                await install(user_id)

            monkeypatch.setattr(store, "remember_locale", counted)
            monkeypatch.setattr(store, "remember_install", counted_install)
            await settings.heard(1, "fr", None, None, installed=True)
            await settings.heard(1, "fr", None, None, installed=True)
            assert writes == [1] and installs == [1]
            for user_id in range(2, 12):
                await settings.heard(user_id, "de", 7, "fr", installed=True)
                remembered = len(settings._stored) + len(settings._installed)
                assert remembered <= 4 + 3  # one call adds three at most
            await settings.heard(1, "fr", None, None, installed=True)
            assert writes[-1] == 1 and installs[-1] == 1  # forgotten, so written again
            assert (await store.preferences(1)).installed
            assert (await store.preferences(11)).locale == "de"

    asyncio.run(check())


@pytest.mark.parametrize("language", ["de", "pt-BR"])
def test_an_offline_session_in_one_language(tmp_path: Path, language: str) -> None:
    """`locale NAME CODE` sets a member's client language for the session (a bad code is
    refused in a line): a Boku game's challenge, answers and boards with no English."""
    accept = say(t("views.accept"), language)
    out = session(
        tmp_path,
        f"locale alice {language}\nlocale bob {language}\nlocale bob xx-YY\n"
        f"alice: /server settings language:{language}\n"
        f"alice: /challenge game:boku opponent:@bob\nbob: click {accept}\n"
        "bob: /move move:a1\nalice: /move move:zz\nalice: /board\nbob: /help\n",
    )
    assert f"   ~ alice's Discord speaks {language}\n" in out
    assert "?? 'xx-YY' is no Discord locale" in out
    chosen = say(t("languages.setting", language=LANGUAGE_NAMES[language]), language)
    assert f"[{accept}]" in out and chosen.replace("**", "") in out  # shown without markdown
    bot_lines = [line for line in out.splitlines() if line.startswith("      ") or "] bot" in line]
    assert [s for s in english_only(language) if any(s in line for line in bot_lines)] == []


def test_rules_work_in_a_thread_words_in_the_readers_language() -> None:
    """The picker and the rules' refusals are worded in a worker thread: it reads in the
    language of the interaction that asked."""

    async def asked_in(language: str) -> str:
        offload = Offload()
        try:
            with speaking(language):
                return await offload.run(5, TooComplex(t("service.picker.too_complex")), reading)
        finally:
            offload.close()

    assert asyncio.run(asked_in("de")) == "de"
    assert asyncio.run(asked_in(ENGLISH)) == ENGLISH


def test_a_follower_gets_the_board_drawn_in_their_own_language(offline: Any) -> None:
    """dave (German) follows a match of an English server: his DM's words and its picture's
    alt text are German, while the thread's board stays English."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, dave = h.user("alice"), h.user("bob"), h.user("dave")
        h.speak(dave, "de")
        await h.command(alice, CHALLENGE, game="quorum", opponent=bob)
        await h.click(bob, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        await h.command(dave, "follow", match="1")
        await h.command(alice, "move", move="a1e3")
        await h.settle()  # followers' DMs go out after the answer
        (dm,) = [s for s in h.sent if s.channel_id == h.dm_channel(dave) and s.pngs]
        board = [s for s in public(h.sent) if s.pngs and s.channel_id != dm.channel_id][-1]
        assert english_in([dm], "de") == [], dm.descriptions
        assert dm.descriptions[0] != board.descriptions[0]
        assert (board.descriptions[0] or "").startswith("Quorum"), board.descriptions

    offline(scenario)


def test_a_challenge_in_a_group_dm_keeps_its_words_and_buttons_in_one_language(
    offline: Any,
) -> None:
    """alice (Brazilian) challenges bob (German) and carol (French) in their group DM: bob's
    acceptance rewrites the challenge in his language, buttons included, and carol accepts
    with the button as it reads now."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        for user, code in ((alice, "pt-BR"), (bob, "de"), (carol, "fr")):
            h.speak(user, code)
            h.install(user)
        group = h.conversation(alice, [bob, carol])
        await h.command(alice, CHALLENGE, group, game="boost", opponent=bob, opponent2=carol)
        posted = h.latest(lambda s: "Aceitar" in s.buttons)
        sent = await h.click(bob, posted.message_id or 0, "Aceitar")
        (edited,) = [s for s in sent if s.kind == "edit" and s.message_id == posted.message_id]
        assert edited.buttons[0] == say(t("views.accept"), "de") and "Annehmen" in edited.content
        await h.click(carol, posted.message_id or 0, "Annehmen")
        match = await h.bot.service.cache.get(max(await h.bot.store.match_ids()))
        assert match.status == "active"

    offline(scenario)


def test_what_misses_a_dm_match_reaches_each_player_in_their_own_language(offline: Any) -> None:
    """alice reads German and bob French: the news that their DM match is aborted (a job,
    with no interaction to post it in the DM) comes to each by DM in their language."""

    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.speak(alice, "de")
        h.speak(bob, "fr")
        h.install(alice)
        dm = h.conversation(alice, [bob])
        await h.command(alice, CHALLENGE, dm, game="quorum", opponent=bob)
        accept = say(t("views.accept"), "de")
        await h.click(bob, h.latest(lambda s: accept in s.buttons).message_id or 0, accept)
        await h.command(alice, "move", dm, move="a1e3")
        sent = await h.advance(4 * DAY)
        match = await h.bot.service.cache.get(1)
        for user, code in ((alice, "de"), (bob, "fr")):
            aborted = say(t("lifecycle.abort.timed_out", game=match.title, player="bob"), code)
            told = [s for s in sent if s.channel_id == h.dm_channel(user) and "**" in s.content]
            assert [s.content.startswith(aborted) for s in told] == [True], (code, told)

    offline(scenario)


@pytest.mark.parametrize(
    ("language", "rating", "loss"),
    [("en", "1,523", "3.4"), ("de", "1.523", "3,4"), ("fr", "1\u202f523", "3,4")],
)
def test_numbers_are_written_as_the_readers_language_writes_them(
    language: str, rating: str, loss: str
) -> None:
    assert Number(1523).word(language) == rating
    assert Number(3.44, places=1).word(language) == loss
    assert Number(1523, signed=True).word(language) == f"+{rating}"
    assert Number(-12, signed=True).word(language) == "-12"
    summary = say(t("analysis.summary", accuracy="90", inaccuracies="", mistakes="",
                    blunders="", loss=Number(3.44, places=1), moves=""), language)  # fmt: skip
    assert loss in summary


def test_a_result_missing_a_dm_match_gives_each_player_the_ratings_in_their_language(
    offline: Any,
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        h.speak(alice, "de")
        h.speak(bob, "fr")
        h.install(alice)
        h.install(bob)
        dm = h.conversation(alice, [bob])
        await h.command(alice, CHALLENGE, dm, game="quorum", opponent=bob, days=1)
        accept = say(t("views.accept"), "de")
        await h.click(bob, h.latest(lambda s: accept in s.buttons).message_id or 0, accept)
        await h.command(alice, "move", dm, move="a1e3")
        await h.command(bob, "move", dm, move="h8h4")
        sent = await h.advance(2 * DAY)  # alice times out, rated: a result by DM
        for user, code in ((alice, "de"), (bob, "fr")):
            ratings = say(t("lifecycle.rating.after", changes=""), code).split(":")[0]
            told = [s.content for s in sent if s.channel_id == h.dm_channel(user)]
            results = [text for text in told if "(+126)" in text]
            assert results and all(ratings + ":" in text for text in results), (code, told)

    offline(scenario)
