"""Message components: persistent buttons that carry the match id, and the move picker.

Each item declares its custom_id once (see bot.ui.persistent) and only hands a click to the
handler its feature's cog registered for it. Every component naming a match is `InMatch`: it
acts only where that match is in reach (another server's is refused).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.posts import limits
from bot.service import PickerStep
from bot.texts import Text, say, t
from bot.ui.persistent import NUMBER, YES_NO, CustomId, InMatch, Interaction, Part, Persistent

MAX_OPTIONS = 25
MAX_SELECTS = 4  # a message has 5 rows; the last holds the buttons

SUCCESS, DANGER = discord.ButtonStyle.success, discord.ButtonStyle.danger
PRIMARY, SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary


class AcceptButton(
    InMatch, Persistent, custom_id=CustomId("bg:accept:{match_id}", match_id=NUMBER)
):
    """Accepts a challenge (or takes a free seat in an open one)."""


class DeclineButton(
    InMatch, Persistent, custom_id=CustomId("bg:decline:{match_id}", match_id=NUMBER)
):
    """Declines a challenge addressed to the member who presses it."""


class WithdrawButton(
    InMatch, Persistent, custom_id=CustomId("bg:withdraw:{match_id}", match_id=NUMBER)
):
    """Withdraws a challenge: only its challenger may."""


class RematchButton(
    InMatch, Persistent, custom_id=CustomId("bg:rematch:{match_id}", match_id=NUMBER)
):
    """Under a result: challenges the same players again, seats rotated by one."""


class DrawButton(
    InMatch,
    Persistent,
    custom_id=CustomId("bg:draw:{accept}:{match_id}", accept=YES_NO, match_id=NUMBER),
):
    """Accept draw or Decline under a draw offer; they answer the offer standing when
    pressed (an offer that lapsed is refused)."""

    accept: bool


class MoveButton(InMatch, Persistent, custom_id=CustomId("bg:move:{match_id}", match_id=NUMBER)):
    """Opens the picker under a board."""


class TakebackButton(
    InMatch,
    Persistent,
    custom_id=CustomId(
        "bg:takeback:{accept}:{match_id}:{ply}", accept=YES_NO, match_id=NUMBER, ply=NUMBER
    ),
):
    """Accept or Decline under a takeback request; the ply names the request, so a click
    on an old request is refused once the match has moved on."""

    ply: int
    accept: bool


class ResignButton(
    InMatch,
    Persistent,
    custom_id=CustomId("bg:resign:{confirm}:{match_id}", confirm=YES_NO, match_id=NUMBER),
):
    """Resign or Cancel under the private question /resign asks: a stray /resign must not
    end a game. Sent ephemerally, so only the member who asked sees them."""

    confirm: bool

    async def callback(self, interaction: Interaction) -> None:
        if self.confirm:
            await super().callback(interaction)
        else:
            await interaction.response.edit_message(content=say(t("views.cancelled")), view=None)


ALL_GAMES = "all"
GAME: Part[str | None] = Part(
    "[a-z]+", lambda text: None if text == ALL_GAMES else text, lambda g: g or ALL_GAMES
)


class HistoryButton(
    Persistent,
    custom_id=CustomId(
        "bg:history:{user_id}:{game}:{page}:{way}",
        user_id=NUMBER,
        game=GAME,
        page=NUMBER,
        way=Part("[pn]", str),
    ),
):
    """Turns a /history page; the custom_id carries whose history, the game and the page it
    opens, so it works after a restart."""

    user_id: int
    game: str | None
    page: int
    way: str


class ReplayButton(
    InMatch,
    Persistent,
    custom_id=CustomId(
        "bg:replay:{match_id}:{ply}:{way}", match_id=NUMBER, ply=NUMBER, way=Part("[fbpnjl]", str)
    ),
):
    """Steps a /replay to the position its custom_id names (match id and ply)."""

    ply: int
    way: str


# A replay's steps: the label, and how far each goes from the position shown (None: to the
# setup or to the end). The letter keeps two buttons aiming at one position apart.
REPLAY_STEPS: dict[str, tuple[Text, int | None]] = {
    "f": (t("views.replay.first"), None),
    "b": (t("views.replay.back_ten"), -10),
    "p": (t("views.previous"), -1),
    "n": (t("views.next"), 1),
    "j": (t("views.replay.ahead_ten"), 10),
    "l": (t("views.replay.last"), None),
}


def _view(*items: ui.Item[Any]) -> ui.View:
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def history_view(user_id: int, game: str | None, page: int, pages: int) -> ui.View:
    """◀ ▶ under history page `page` (1-based) of `pages`."""
    shown: dict[str, Any] = {"user_id": user_id, "game": game}
    return _view(
        HistoryButton.button(
            t("views.previous"),
            SECONDARY,
            disabled=page <= 1,
            page=max(page - 1, 1),
            way="p",
            **shown,
        ),
        HistoryButton.button(
            t("views.next"),
            SECONDARY,
            disabled=page >= pages,
            page=min(page + 1, pages),
            way="n",
            **shown,
        ),
    )


def replay_view(match_id: int, ply: int, last: int) -> ui.View:
    """⏮ -10 ◀ ▶ +10 ⏭ under the replay of position `ply` (0 = the setup) of `last`: each
    button is off where it would not move."""
    buttons = []
    for way, (label, step) in REPLAY_STEPS.items():
        if step is None:
            target = 0 if way == "f" else last
        else:
            target = min(max(ply + step, 0), last)
        row = 0 if way in "fpnl" else 1
        buttons.append(
            ReplayButton.button(
                label,
                SECONDARY,
                disabled=target == ply,
                row=row,
                match_id=match_id,
                ply=target,
                way=way,
            )
        )
    return _view(*buttons)


def challenge_view(match_id: int, *, open_seats: bool = False) -> ui.View:
    """Accept, Decline and Withdraw; an open challenge names nobody who could decline."""
    accept = AcceptButton.button(t("views.accept"), SUCCESS, match_id=match_id)
    decline = DeclineButton.button(t("views.decline"), DANGER, match_id=match_id)
    withdraw = WithdrawButton.button(t("views.withdraw"), SECONDARY, match_id=match_id)
    return _view(accept, withdraw) if open_seats else _view(accept, decline, withdraw)


def rematch_view(match_id: int) -> ui.View:
    return _view(RematchButton.button(t("views.rematch"), PRIMARY, match_id=match_id))


def draw_view(match_id: int) -> ui.View:
    return _view(
        DrawButton.button(t("views.accept_draw"), SUCCESS, match_id=match_id, accept=True),
        DrawButton.button(t("views.decline"), DANGER, match_id=match_id, accept=False),
    )


def takeback_view(match_id: int, ply: int) -> ui.View:
    asked: dict[str, Any] = {"match_id": match_id, "ply": ply}
    return _view(
        TakebackButton.button(t("views.accept_takeback"), SUCCESS, accept=True, **asked),
        TakebackButton.button(t("views.decline"), DANGER, accept=False, **asked),
    )


def resign_view(match_id: int) -> ui.View:
    return _view(
        ResignButton.button(t("views.resign"), DANGER, match_id=match_id, confirm=True),
        ResignButton.button(t("views.cancel"), SECONDARY, match_id=match_id, confirm=False),
    )


def board_view(match_id: int) -> ui.View:
    return _view(MoveButton.button(t("views.move"), PRIMARY, match_id=match_id))


# A picker's components carry everything it knows: match, ply, the path as positions among
# each step's choices (at most 3 digits each, bounded so a forged id cannot be huge).
MAX_PATH = 40
PICKED: dict[str, Part[Any]] = {
    "match_id": Part(r"\d{1,20}", int),
    "ply": Part(r"\d{1,9}", int),
    "path": Part(
        rf"(?:\d{{1,3}}\.?){{0,{MAX_PATH}}}",
        lambda text: tuple(int(part) for part in text.split(".") if part),
        lambda positions: ".".join(map(str, positions)),
    ),
}


def _picked(step: PickerStep) -> dict[str, Any]:
    """The values every picker component of this step carries."""
    return {"match_id": step.match.id, "ply": step.match.row.ply, "path": step.positions}


def _option(token: str, label: str) -> discord.SelectOption:
    """A picker choice: what it does in words, with its notation beneath when they differ."""
    described = None if label == token else limits.option_label(token)
    return discord.SelectOption(
        label=limits.option_label(label), value=token, description=described
    )


class PickSelect(
    InMatch,
    Persistent,
    custom_id=CustomId(
        "bg:pick:{match_id}:{ply}:{path}:{number}", **PICKED, number=Part(r"\d", int)
    ),
):
    """One menu of the next choices (a step may need several: 25 options each)."""

    ply: int
    path: tuple[int, ...]
    number: int

    @classmethod
    def build(cls, step: PickerStep, tokens: tuple[str, ...], number: int) -> PickSelect:
        if len(tokens) > 1:
            placeholder = say(t("views.picker.range", first=tokens[0], last=tokens[-1]))
        else:
            placeholder = tokens[0]
        values = {**_picked(step), "number": number}
        select: ui.Select[Any] = ui.Select(
            placeholder=limits.placeholder(placeholder),
            options=[_option(token, step.labels[step.choices.index(token)]) for token in tokens],
            custom_id=cls.custom_ids.build(**values),
            row=number,
        )
        return cls(select, **values)

    @property
    def chosen(self) -> str:
        """The option picked (discord.py sets the values the click carries)."""
        values = self.item.values if isinstance(self.item, ui.Select) else []
        return values[0] if values else ""


class PickPlay(
    InMatch, Persistent, custom_id=CustomId("bg:play:{match_id}:{ply}:{path}", **PICKED)
):
    """Plays the move the path spells, through the same service call as /move."""

    ply: int
    path: tuple[int, ...]


class PickBack(
    InMatch, Persistent, custom_id=CustomId("bg:back:{match_id}:{ply}:{path}", **PICKED)
):
    """Goes one choice back."""

    ply: int
    path: tuple[int, ...]


class KeepButton(InMatch, Persistent, custom_id=CustomId("bg:keep:{match_id}", match_id=NUMBER)):
    """Cancel under a typed move shown to confirm (`/settings confirm:on`): nothing is
    played. Play beside it is the picker's PickPlay, carrying the move as its path."""


def confirm_view(match_id: int, ply: int, positions: tuple[int, ...], move: str) -> ui.View:
    """Play and Cancel under a typed move shown first; no Play when its path is too long
    for a button (a very long Kyo turn), which the text then says."""
    at: dict[str, Any] = {"match_id": match_id, "ply": ply, "path": positions}
    items: list[ui.Item[Any]] = []
    if PickPlay.custom_ids.fits(**at):
        items.append(PickPlay.button(t("views.picker.play", move=move), SUCCESS, **at))
    items.append(KeepButton.button(t("views.cancel"), SECONDARY, match_id=match_id))
    return _view(*items)


class JoinButton(Persistent, custom_id=CustomId("bg:join:{tournament_id}", tournament_id=NUMBER)):
    """Enters the member in a tournament that takes entries."""

    tournament_id: int


class LeaveButton(Persistent, custom_id=CustomId("bg:leave:{tournament_id}", tournament_id=NUMBER)):
    """Takes the member's entry back before the start."""

    tournament_id: int


def entry_view(tournament_id: int) -> ui.View:
    """A tournament's entry message while it takes entries."""
    return _view(
        JoinButton.button(t("views.join"), SUCCESS, tournament_id=tournament_id),
        LeaveButton.button(t("views.leave"), SECONDARY, tournament_id=tournament_id),
    )


PERSISTENT_ITEMS: tuple[type[Persistent], ...] = (
    AcceptButton,
    DeclineButton,
    WithdrawButton,
    RematchButton,
    DrawButton,
    MoveButton,
    TakebackButton,
    ResignButton,
    PickSelect,
    PickPlay,
    PickBack,
    KeepButton,
    HistoryButton,
    ReplayButton,
    JoinButton,
    LeaveButton,
)

# What the Play button does, and what else may be done instead: (more to pick, a way back).
PLAYED = {
    (False, False): "views.picker.whole_move",
    (True, False): "views.picker.whole_move_or_more",
    (False, True): "views.picker.whole_move_or_back",
    (True, True): "views.picker.whole_move_or_more_or_back",
}


def picker_message(step: PickerStep, heading: str) -> tuple[str, ui.View]:
    """The picker at this step: its text and its components (nothing kept in memory)."""
    chosen = " → ".join(step.path) if step.path else say(t("views.picker.nothing_chosen"))
    lines = [heading, say(t("views.picker.chosen", path=chosen))]
    view = ui.View(timeout=None)
    at = _picked(step)
    if step.choices and PickSelect.custom_ids.fits(**at, number=0):
        lines.append(
            say(t("views.picker.next_square" if step.path else "views.picker.first_square"))
        )
        for number, start in enumerate(range(0, len(step.choices), MAX_OPTIONS)):
            if number == MAX_SELECTS:
                break
            chunk = step.choices[start : start + MAX_OPTIONS]
            view.add_item(PickSelect.build(step, chunk, number))
        hidden = len(step.choices) - MAX_OPTIONS * MAX_SELECTS
        if hidden > 0:
            lines.append(say(t("views.picker.more_choices", count=hidden)))
    elif step.choices:
        lines.append(say(t("views.picker.too_long")))
    if step.move is not None and PickPlay.custom_ids.fits(**at):
        lines.append(say(t(PLAYED[bool(step.choices), bool(step.path)], move=step.move)))
        label = t("views.picker.play", move=step.move)
        view.add_item(PickPlay.button(label, SUCCESS, row=MAX_SELECTS, **at))
    elif step.move is not None:
        lines.append(say(t("views.picker.too_long_to_play", move=step.move)))
    if step.path and PickBack.custom_ids.fits(**at):
        view.add_item(PickBack.button(t("views.picker.back"), SECONDARY, row=MAX_SELECTS, **at))
    return limits.content("\n".join(lines)), view
