"""Lists longer than one Discord message page instead of being cut (issue 36): /matches with
the most matches the issue names, through the offline Discord."""

from __future__ import annotations

import re
from typing import Any

from bot.offline import OfflineDiscord
from bot.posts import limits
from tests.bot.support import private

MOST_MATCHES = 200


def test_two_hundred_matches_page_through_matches_each_line_whole(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice, bob = h.user("alice"), h.user("bob")
        for _ in range(MOST_MATCHES):
            await h.command(alice, "challenge", game="quorum", opponent=bob)
        (first,) = private(await h.command(bob, "matches"))
        total = int(re.search(r"Page 1 of (\d+)", first.content)[1])  # type: ignore[index]
        listed: list[int] = []
        for page in range(1, total + 1):
            (shown,) = private(await h.command(bob, "matches", page=page))
            assert len(shown.content) <= limits.CONTENT
            lines = shown.content.splitlines()
            assert not [line for line in lines if line.endswith(limits.ELLIPSIS)], "none cut"
            listed += [int(n) for line in lines for n in re.findall(r"Quorum #(\d+)", line)]
        assert sorted(listed) == sorted(await h.bot.store.match_ids())
        assert len(listed) == MOST_MATCHES, "every match listed once"

    offline(scenario)
