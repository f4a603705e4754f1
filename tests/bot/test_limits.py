"""Every message stays inside Discord's limits by construction (bot/posts/limits.py)."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from discord import app_commands

from bot.offline import OfflineDiscord
from bot.posts import limits
from bot.service import Match
from bot.service.limits import Limits
from bot.service.picker import _walk
from bot.store import MatchRow, SeatRow, Status
from bot.ui.views import picker_message
from rules import get_game
from rules.movetree import MoveTree
from tests.bot.spec import check_request
from tests.bot.support import private

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
# A Kyo position (found by random play) whose longest legal turn has 81 characters.
LONG_KYO_TURN = """\
    a    b    c    d    e    f    g    h    i    j
10  d    lh   .    ld   k    lS   h    h    l    d
 9  d    .    d    d    SS   l    .    Sl   d    dS
 8  h    .    l    l    dh   q    d    .    .    h
 7  p    l    h    p    l    l    ll   dt   p    p
 6  .    .    p    t    .    dd   p    p    D    .
 5  P    LDP  P    .    P    h    S    DDD  P    .
 4  H    LS   S    P    ST   .    .    S    .    P
 3  .    LLD  D    L    S    L    T    Q    H    LP
 2  .    .    .    .    D    SD   DLLL H    L    H
 1  DH   LDH  L    .    K    SSH  .    D    .    .
to move: red"""


def test_clip_keeps_short_text_and_cuts_long_text_with_an_ellipsis() -> None:
    assert limits.clip("Play e2-e3", 80) == "Play e2-e3"
    cut = limits.clip("x" * 90, 80)
    assert len(cut) == 80 and cut.endswith("…")


def test_pages_keep_every_line_in_order_and_each_page_fits() -> None:
    lines = [f"line {n} " + "x" * (n * 7 % 150) for n in range(100)]
    pages = limits.pages(lines, 500)
    assert [line for page in pages for line in page] == lines
    assert all(len("\n".join(page)) <= 500 for page in pages)
    assert limits.pages([], 500) == [[]]


def test_choices_cut_names_drop_long_values_and_keep_25() -> None:
    offered = [app_commands.Choice(name="n" * 120, value=f"v{n}") for n in range(30)]
    offered.insert(0, app_commands.Choice(name="too long", value="v" * 101))
    fitted = limits.choices(offered)
    assert len(fitted) == 25 and fitted[0].value == "v0"
    assert all(len(c.name) <= 100 for c in fitted)


def test_an_id_or_a_file_too_large_is_refused_not_cut() -> None:
    assert limits.custom_id("bg:move:12") == "bg:move:12"
    with pytest.raises(limits.TooLarge):
        limits.custom_id("bg:" + "9" * 100)
    with pytest.raises(limits.TooLarge, match="board.png"):
        limits.upload(b"\0" * (limits.UPLOAD + 1), "board.png")


@functools.cache
def _long_kyo_position() -> tuple[Any, dict[Any, str]]:
    """A Kyo position with very long turns, and each turn's notation (slow: listed once)."""
    kyo = get_game("kyo")
    state = kyo.parse_diagram(LONG_KYO_TURN)
    return state, {m: kyo.format_move(state, m) for m in kyo.legal_moves(state)}


@functools.cache
def _picker_tree(state: Any) -> MoveTree:
    """The picker's choices in `state`, built once: each node keeps the choices it listed."""
    return get_game("kyo").move_tree(state)


def _picker_path(state: Any, move: Any) -> tuple[int, ...]:
    """Where each of the move's tokens sits among the picker's choices at its step."""
    kyo = get_game("kyo")
    tree, positions = _picker_tree(state), []
    for token in kyo.move_tokens(state, move):
        positions.append(list(tree.children).index(token))
        tree = tree.children[token]
    return tuple(positions)


def _kyo_picker_at(state: Any, move: Any) -> tuple[str, list[dict[str, Any]]]:
    """The picker's text and components once every token of `move` has been chosen."""
    kyo = get_game("kyo")
    row = MatchRow(
        *(123456789012, 1, 2, 3, None, None, "kyo", "standard", 0, Status.ACTIVE, 170, "{}"),
        *(None, None, "", ""),
        seats=(SeatRow(1, 11, "alice", True), SeatRow(2, 12, "bob", True)),
    )
    step = _walk(Match(row, kyo, state), _picker_path(state, move), None)
    text, view = picker_message(step, "**Kyo #1**: your move.")
    answer = {"type": 7, "data": {"content": text, "components": view.to_components()}}
    assert check_request("POST", CALLBACK, answer) == []
    return text, view.to_components()


def _labels(rows: list[dict[str, Any]]) -> list[str]:
    return [c.get("label", "") for row in rows for c in row["components"]]


def test_a_kyo_turn_too_long_for_a_label_fits_the_pickers_play_button() -> None:
    state, notation = _long_kyo_position()
    room = limits.CUSTOM_ID - len("bg:back:123456789012:170:")
    longest = next(
        m
        for m in sorted(notation, key=lambda m: -len(notation[m]))
        if len(".".join(map(str, _picker_path(state, m)))) <= room
    )
    assert len(notation[longest]) > limits.LABEL, "a turn too long for a button label"
    text, rows = _kyo_picker_at(state, longest)
    (play,) = [label for label in _labels(rows) if label.startswith("Play")]
    assert len(play) <= limits.LABEL
    assert notation[longest] in text, "the whole move is shown above the button"


def test_a_kyo_turn_too_long_for_the_pickers_ids_is_to_be_typed() -> None:
    kyo = get_game("kyo")
    state, notation = _long_kyo_position()
    longest = max(notation, key=lambda m: len(kyo.move_tokens(state, m)))
    text, rows = _kyo_picker_at(state, longest)
    assert not [label for label in _labels(rows) if label.startswith("Play")]
    assert f"play it with /move: {notation[longest]}" in text


def test_a_member_with_200_open_matches_pages_through_all_of_them(offline: Any) -> None:
    """The most matches issue 36 names: every one listed once, no line cut (the limits on
    pending challenges raised to let one member make them)."""

    async def scenario(h: OfflineDiscord) -> None:
        bob = h.user("bob")
        for n in range(200):  # each from someone else: a challenge is not repeated while open
            await h.command(h.user(f"player{n}"), "challenge", game="quorum", opponent=bob)
        (first,) = private(await h.command(bob, "matches"))
        total = int(re.search(r"Page 1 of (\d+)", first.content)[1])  # type: ignore[index]
        listed: list[str] = []
        for page in range(1, total + 1):
            (shown,) = private(await h.command(bob, "matches", page=page))
            assert len(shown.content) <= limits.CONTENT
            assert f"Page {page} of {total}" in shown.content
            assert not shown.content.count(limits.ELLIPSIS), "no line cut"
            listed += re.findall(r"Quorum #(\d+)", shown.content)
        assert sorted(map(int, listed)) == sorted(await h.bot.store.match_ids())
        assert len(listed) == 200, "each listed once"
        (last,) = private(await h.command(bob, "matches", page=total + 5))
        assert f"There is no page {total + 5}: this is the last one, page {total}." in (
            last.content
        )

    offline(scenario, limits=Limits(challenges=200, challenges_to_one=200))
