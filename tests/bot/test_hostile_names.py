"""Display names are shown as typed and do nothing (issue 38): one function (bot.posts.names)
escapes markdown, links, mentions and role pills and drops bidirectional overrides and other
invisible characters, in every kind of post, embeds and alt text included."""

from __future__ import annotations

import re
from typing import Any

from bot.offline import OfflineDiscord, Sent
from bot.posts.names import safe_name
from tests.bot.support import resign

HOSTILE = "[Free Nitro](https://evil.example) ||x|| <@&123456789012345678> @everyone \u202eevil"
# What would act in a post: a link, a spoiler, a role pill, a mass mention, an override.
RAW = [re.compile(p) for p in (r"(?<!\\)\]\(https", r"\|\|x", r"(?<!\\)<@&", "@everyone", "\u202e")]
THREAD_NAMED = ("thread", "archive")  # what carries a thread's name as its content
NODES = 40  # level 1's own cap: quick and deterministic


def test_the_one_function() -> None:
    assert safe_name(HOSTILE) == (
        "\\[Free Nitro\\](https\\://evil.example) \\|\\|x\\|\\| \\<@&123456789012345678\\> "
        "@\u200beveryone evil"
    )
    assert safe_name(HOSTILE, markdown=False) == (
        "[Free Nitro](https://evil.example) ||x|| <@&123456789012345678> @everyone evil"
    )
    assert safe_name("# BIG") == "\\# BIG" and safe_name("-# small") == "\\-# small"
    assert safe_name("1. first") == "1\\. first" and safe_name("a_b*c~d`e>f") == (
        "a\\_b\\*c\\~d\\`e\\>f"
    )
    assert safe_name("\u200b\u2066\u202e\n") == "?"
    assert safe_name("Computer (Red)") == "Computer (Red)"


def rendered(sent: Sent) -> list[str]:
    """What of a post Discord renders as markdown: its text and embeds (a thread's name and
    a file's alt text are read as they are, so only invisible characters matter there)."""
    found = [] if sent.kind in THREAD_NAMED else [sent.content]
    for embed in sent.embeds:
        found += [embed.get("title", ""), embed.get("description", "")]
        found += [f.get("name", "") + f.get("value", "") for f in embed.get("fields", [])]
        found += [embed.get("footer", {}).get("text", "")]
    return found


def test_a_hostile_name_is_harmless_in_every_kind_of_post(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        evil, bob = h.user(HOSTILE), h.user("bob")
        await h.command(evil, "challenge", game="quorum", opponent=bob)
        await h.click(bob, h.latest(lambda s: "Accept" in s.buttons).message_id or 0, "Accept")
        await h.command(bob, "challenge", game="boku", opponent=evil)  # names them
        match_id = 1
        thread = (await h.bot.service.cache.get(match_id)).row.thread_id
        await h.command(evil, "move", thread, move="a1e3")
        await h.command(bob, "takeback", thread)
        await h.command(bob, "draw", thread)
        for command in ("board", "matches", "next", "record"):
            await h.command(evil, command, thread)
        await h.command(bob, "vacation", days=1)
        await h.command(bob, "vacation", days=0)
        await resign(h, evil, thread)
        await h.command(bob, "analysis", thread, match=str(match_id))
        await h.command(bob, "replay", thread, match=str(match_id))
        await h.command(bob, "history", user=evil)
        await h.command(bob, "profile", user=evil)
        await h.command(evil, "challenge", game="quorum", opponent=h.bot_user, level=1)
        await h.command(evil, "tournament create", game="quorum", format="swiss")
        await h.click(bob, h.latest(lambda s: "Join" in s.buttons).message_id or 0, "Join")
        await h.command(bob, "tournament standings")
        seen = [text for sent in h.sent for text in rendered(sent)]
        shown = [text for text in seen if "\\[Free Nitro\\](https\\://evil.example)" in text]
        assert len(shown) >= 10, "the name is shown, escaped, in many posts"
        titles = [e.get("title", "") for sent in h.sent for e in sent.embeds]
        analysed = "Computer analysis: Quorum #1: \\[Free Nitro\\]"
        assert any(title.startswith(analysed) for title in titles), titles
        for text in seen:
            for raw in RAW:
                assert not raw.search(text), (raw, text)
        plain = [d or "" for sent in h.sent for d in sent.descriptions]
        plain += [sent.content for sent in h.sent if sent.kind in THREAD_NAMED]
        assert any("[Free Nitro](https://evil.example)" in text for text in plain)
        assert not [text for text in plain if "\u202e" in text]

    offline(scenario, ai_nodes=NODES)
