"""Each persistent item's custom_id, pinned: buttons already posted in Discord carry these exact
strings, so a change to a format would break every one of them. Each case builds an id from
values, compares it with the literal the bot has always written, and parses it back."""

from __future__ import annotations

from typing import Any

import pytest
from discord import ui

from bot.posts import limits
from bot.ui import views
from bot.ui.persistent import NUMBER, CustomId, Persistent
from bot.ui.views import PERSISTENT_ITEMS, challenge_view, history_view

PINNED: list[tuple[type[Persistent], dict[str, Any], str]] = [
    (views.AcceptButton, {"match_id": 7}, "bg:accept:7"),
    (views.DeclineButton, {"match_id": 7}, "bg:decline:7"),
    (views.WithdrawButton, {"match_id": 7}, "bg:withdraw:7"),
    (views.RematchButton, {"match_id": 7}, "bg:rematch:7"),
    (views.DrawButton, {"match_id": 7, "accept": True}, "bg:draw:yes:7"),
    (views.DrawButton, {"match_id": 7, "accept": False}, "bg:draw:no:7"),
    (views.MoveButton, {"match_id": 7}, "bg:move:7"),
    (views.TakebackButton, {"match_id": 7, "ply": 3, "accept": True}, "bg:takeback:yes:7:3"),
    (views.TakebackButton, {"match_id": 7, "ply": 3, "accept": False}, "bg:takeback:no:7:3"),
    (views.ResignButton, {"match_id": 7, "confirm": True}, "bg:resign:yes:7"),
    (views.ResignButton, {"match_id": 7, "confirm": False}, "bg:resign:no:7"),
    (
        views.PickSelect,
        {"match_id": 7, "ply": 3, "path": (0, 12, 5), "number": 1},
        "bg:pick:7:3:0.12.5:1",
    ),
    (views.PickSelect, {"match_id": 7, "ply": 3, "path": (), "number": 0}, "bg:pick:7:3::0"),
    (views.PickPlay, {"match_id": 7, "ply": 3, "path": (0, 12, 5)}, "bg:play:7:3:0.12.5"),
    (views.PickPlay, {"match_id": 7, "ply": 3, "path": ()}, "bg:play:7:3:"),
    (views.PickBack, {"match_id": 7, "ply": 3, "path": (0, 12, 5)}, "bg:back:7:3:0.12.5"),
    (views.KeepButton, {"match_id": 7}, "bg:keep:7"),
    (
        views.HistoryButton,
        {"user_id": 5, "game": None, "page": 2, "way": "n"},
        "bg:history:5:all:2:n",
    ),
    (
        views.HistoryButton,
        {"user_id": 5, "game": "boku", "page": 1, "way": "p"},
        "bg:history:5:boku:1:p",
    ),
    (views.ReplayButton, {"match_id": 7, "ply": 3, "way": "j"}, "bg:replay:7:3:j"),
    (views.JoinButton, {"tournament_id": 4}, "bg:join:4"),
    (views.LeaveButton, {"tournament_id": 4}, "bg:leave:4"),
]


def test_every_persistent_item_is_pinned() -> None:
    assert {item for item, _, _ in PINNED} == set(PERSISTENT_ITEMS)


@pytest.mark.parametrize(
    ("item", "values", "literal"), PINNED, ids=[literal for _, _, literal in PINNED]
)
def test_a_custom_id_is_built_as_before_and_parses_back(
    item: type[Persistent], values: dict[str, Any], literal: str
) -> None:
    assert item.custom_ids.build(**values) == literal
    assert item.custom_ids.parse(literal) == values
    assert [other for other in PERSISTENT_ITEMS if other.custom_ids.parse(literal)] == [item]


def posted(view: ui.View) -> list[str]:
    """The custom_ids of a view's items, each a persistent item that routes its own id."""
    ids = []
    for item in view.children:
        assert isinstance(item, Persistent) and item.template.fullmatch(item.custom_id)
        ids.append(item.custom_id)
    return ids


def test_posted_components_carry_the_built_ids() -> None:
    assert posted(challenge_view(7)) == ["bg:accept:7", "bg:decline:7", "bg:withdraw:7"]
    assert posted(history_view(5, None, 1, 3)) == ["bg:history:5:all:1:p", "bg:history:5:all:2:n"]


def test_a_format_and_its_parts_must_agree() -> None:
    with pytest.raises(ValueError, match="must name each"):
        CustomId("bg:x:{match_id}:{ply}", match_id=NUMBER)
    with pytest.raises(ValueError, match="must name each"):
        CustomId("bg:x:{match_id:>4}", match_id=NUMBER)
    ids = CustomId("bg:x:{match_id}", match_id=NUMBER)
    with pytest.raises(TypeError, match="exactly"):
        ids.build(match_id=1, ply=2)
    with pytest.raises(ValueError, match="does not parse back"):
        ids.build(match_id=-1)
    assert ids.parse("bg:x:one") is None and ids.parse("bg:x:1:") is None


def test_an_id_too_long_for_discord_is_refused_not_cut() -> None:
    path = tuple(range(100, 140))  # 40 positions of 3 digits: parses, but 168 characters
    assert not views.PickPlay.custom_ids.fits(match_id=7, ply=3, path=path)
    with pytest.raises(limits.TooLarge):
        views.PickPlay.custom_ids.build(match_id=7, ply=3, path=path)
    assert not views.PickPlay.custom_ids.fits(match_id=7, ply=3, path=(1,) * 41)  # past MAX_PATH


def test_an_item_part_cannot_hide_an_attribute() -> None:
    with pytest.raises(TypeError, match="would hide"):

        class Hiding(Persistent, custom_id=CustomId("bg:x:{row}", row=NUMBER)):
            pass
