"""/settings board:large|normal (issue 41): a member's own boards in halves for a phone,
threads' boards whole, through the offline Discord."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.offline import OfflineDiscord
from bot.service.matches import ServiceError
from tests.bot.support import private, public, start_match
from tests.bot.test_boards import picture, private_board


def width(png: bytes) -> int:
    return Image.open(io.BytesIO(png)).width


def test_a_large_board_is_that_members_own_and_their_dms_only(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, bob) = await start_match(h)
        (told,) = private(await h.command(alice, "settings", board="large", dm="on"))
        assert "Board size: large" in told.content
        large = await private_board(h, alice, match_id)
        assert large == await picture(h, match_id, perspective=1, large=True)
        assert width(large) == 420, "Quorum's eight files in two halves of four"
        assert await private_board(h, bob, match_id) == await picture(h, match_id, perspective=2)
        await h.command(alice, "move", None, match=str(match_id), move="a1e3")
        posted = public(await h.command(bob, "move", None, match=str(match_id), move="h8h4"))
        assert posted[0].pngs == [await picture(h, match_id)], "the thread keeps one size"
        (direct,) = [s for s in h.sent if s.channel_id == h.dm_channel(alice) and s.pngs]
        assert direct.pngs == [await picture(h, match_id, perspective=1, large=True)]
        (told,) = private(await h.command(alice, "settings", board="normal"))
        assert "Board size: normal." in told.content
        assert width(await private_board(h, alice, match_id)) == 840

    offline(scenario)


def test_a_board_size_not_offered_is_refused_and_changes_nothing(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        match_id, (alice, _) = await start_match(h)
        await h.command(alice, "settings", board="large")
        (told,) = private(await h.command(alice, "settings", board="huge"))
        assert told.content.startswith("'huge' is not a choice for board.")
        assert (await h.bot.service.settings.person(alice.id)).large
        with pytest.raises(ServiceError, match="“huge” is not a board size."):
            await h.bot.service.settings.set_person(alice.id, board="huge")
        assert width(await private_board(h, alice, match_id)) == 420

    offline(scenario)
