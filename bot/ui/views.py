"""Message components: persistent buttons that carry the match id, and the move picker.

Buttons only translate a click into a call on the cog that owns the feature; the cogs
are looked up by name so this module imports none of them. Every component naming a match
is `InMatch`: it acts only where that match is in reach (another server's is refused).
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord
from discord import ui

from bot.posts import limits
from bot.service import PickerStep

MAX_OPTIONS = 25
MAX_SELECTS = 4  # a message has 5 rows; the last holds the buttons


class ChallengeAnswers(Protocol):
    async def accept(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def decline(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def withdraw(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def rematch(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...


class MovePlayer(Protocol):
    async def open_picker(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def pick(
        self,
        interaction: discord.Interaction[Any],
        match_id: int,
        ply: int,
        path: tuple[int, ...],
        token: str | None,
    ) -> None: ...
    async def play_picked(
        self, interaction: discord.Interaction[Any], match_id: int, ply: int, path: tuple[int, ...]
    ) -> None: ...


def _cog(interaction: discord.Interaction[Any], name: str) -> Any:
    cog = interaction.client.get_cog(name)
    if cog is None:
        raise RuntimeError(f"the {name} cog is not loaded")
    return cog


class Gate(Protocol):
    async def admit(self, interaction: discord.Interaction[Any], match_id: int) -> bool: ...


class InMatch:
    """Mixed into each component whose custom_id names a match: before its callback runs,
    the Matches cog checks that the match is in reach where it was clicked (and says so
    when not), since a custom_id can name any match."""

    match_id: int

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await cast(Gate, _cog(interaction, "Matches")).admit(interaction, self.match_id)


class AcceptButton(InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:accept:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=limits.custom_id(f"bg:accept:{match_id}"),
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> AcceptButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(ChallengeAnswers, _cog(interaction, "Challenges"))
        await answers.accept(interaction, self.match_id)


class DeclineButton(InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:decline:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Decline",
                style=discord.ButtonStyle.danger,
                custom_id=limits.custom_id(f"bg:decline:{match_id}"),
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> DeclineButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(ChallengeAnswers, _cog(interaction, "Challenges"))
        await answers.decline(interaction, self.match_id)


class WithdrawButton(InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:withdraw:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Withdraw",
                style=discord.ButtonStyle.secondary,
                custom_id=limits.custom_id(f"bg:withdraw:{match_id}"),
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> WithdrawButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(ChallengeAnswers, _cog(interaction, "Challenges"))
        await answers.withdraw(interaction, self.match_id)


class RematchButton(InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:rematch:(?P<id>\d+)"):
    """Under a result: challenges the same players again, seats rotated by one."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Rematch",
                style=discord.ButtonStyle.primary,
                custom_id=limits.custom_id(f"bg:rematch:{match_id}"),
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(ChallengeAnswers, _cog(interaction, "Challenges"))
        await answers.rematch(interaction, self.match_id)


class DrawAnswers(Protocol):
    async def answer_draw(
        self, interaction: discord.Interaction[Any], match_id: int, accept: bool
    ) -> None: ...


class DrawButton(
    InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:draw:(?P<answer>yes|no):(?P<id>\d+)"
):
    """Accept draw or Decline under a draw offer; they answer the offer standing when
    pressed (an offer that lapsed is refused)."""

    def __init__(self, match_id: int, accept: bool) -> None:
        answer = "yes" if accept else "no"
        super().__init__(
            ui.Button(
                label="Accept draw" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=limits.custom_id(f"bg:draw:{answer}:{match_id}"),
            )
        )
        self.match_id = match_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> DrawButton:
        return cls(int(match["id"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(DrawAnswers, _cog(interaction, "Endings"))
        await answers.answer_draw(interaction, self.match_id, self.accept)


class MoveButton(InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:move:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Move",
                style=discord.ButtonStyle.primary,
                custom_id=limits.custom_id(f"bg:move:{match_id}"),
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        player = cast(MovePlayer, _cog(interaction, "Moves"))
        await player.open_picker(interaction, self.match_id)


class TakebackAnswers(Protocol):
    async def answer(
        self, interaction: discord.Interaction[Any], match_id: int, ply: int, accept: bool
    ) -> None: ...


class TakebackButton(
    InMatch,
    ui.DynamicItem[ui.Button[Any]],
    template=r"bg:takeback:(?P<answer>yes|no):(?P<id>\d+):(?P<ply>\d+)",
):
    """Accept or Decline under a takeback request; the ply names the request, so a click
    on an old request is refused once the match has moved on."""

    def __init__(self, match_id: int, ply: int, accept: bool) -> None:
        answer = "yes" if accept else "no"
        super().__init__(
            ui.Button(
                label="Accept takeback" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=limits.custom_id(f"bg:takeback:{answer}:{match_id}:{ply}"),
            )
        )
        self.match_id = match_id
        self.ply = ply
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> TakebackButton:
        return cls(int(match["id"]), int(match["ply"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answers = cast(TakebackAnswers, _cog(interaction, "Takebacks"))
        await answers.answer(interaction, self.match_id, self.ply, self.accept)


class ResignAnswers(Protocol):
    async def confirm_resign(
        self, interaction: discord.Interaction[Any], match_id: int
    ) -> None: ...


class ResignButton(
    InMatch, ui.DynamicItem[ui.Button[Any]], template=r"bg:resign:(?P<answer>yes|no):(?P<id>\d+)"
):
    """Resign or Cancel under the private question /resign asks: a stray /resign must not
    end a game. Sent ephemerally, so only the member who asked sees them."""

    def __init__(self, match_id: int, confirm: bool) -> None:
        answer = "yes" if confirm else "no"
        super().__init__(
            ui.Button(
                label="Resign" if confirm else "Cancel",
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=limits.custom_id(f"bg:resign:{answer}:{match_id}"),
            )
        )
        self.match_id = match_id
        self.confirm = confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["id"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if not self.confirm:
            await interaction.response.edit_message(
                content="Cancelled: nothing changed.", view=None
            )
            return
        answers = cast(ResignAnswers, _cog(interaction, "Endings"))
        await answers.confirm_resign(interaction, self.match_id)


class Pager(Protocol):
    async def history_page(
        self, interaction: discord.Interaction[Any], user_id: int, game: str | None, page: int
    ) -> None: ...
    async def replay_step(
        self, interaction: discord.Interaction[Any], match_id: int, ply: int
    ) -> None: ...


ALL_GAMES = "all"
BACK, FORWARD = "◀", "▶"


class HistoryButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"bg:history:(?P<user>\d+):(?P<game>[a-z]+):(?P<page>\d+):(?P<way>[pn])",
):
    """Turns a /history page; the custom_id carries whose history, the game and the page it
    opens, so it works after a restart."""

    def __init__(self, user_id: int, game: str | None, page: int, way: str, enabled: bool) -> None:
        super().__init__(
            ui.Button(
                label=BACK if way == "p" else FORWARD,
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=limits.custom_id(
                    f"bg:history:{user_id}:{game or ALL_GAMES}:{page}:{way}"
                ),
            )
        )
        self.user_id, self.game, self.page = user_id, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        game = None if match["game"] == ALL_GAMES else match["game"]
        return cls(int(match["user"]), game, int(match["page"]), match["way"], True)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        pager = cast(Pager, _cog(interaction, "Standings"))
        await pager.history_page(interaction, self.user_id, self.game, self.page)


# A replay's steps: the label, and how far each goes from the position shown (None: to the
# setup or to the end). The letter keeps two buttons aiming at one position apart.
REPLAY_STEPS = {
    "f": ("⏮", None),
    "b": ("-10", -10),
    "p": (BACK, -1),
    "n": (FORWARD, 1),
    "j": ("+10", 10),
    "l": ("⏭", None),
}


class ReplayButton(
    InMatch,
    ui.DynamicItem[ui.Button[Any]],
    template=r"bg:replay:(?P<id>\d+):(?P<ply>\d+):(?P<way>[fbpnjl])",
):
    """Steps a /replay to the position its custom_id names (match id and ply)."""

    def __init__(self, match_id: int, ply: int, way: str, enabled: bool) -> None:
        super().__init__(
            ui.Button(
                label=REPLAY_STEPS[way][0],
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=limits.custom_id(f"bg:replay:{match_id}:{ply}:{way}"),
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["id"]), int(match["ply"]), match["way"], True)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        pager = cast(Pager, _cog(interaction, "Standings"))
        await pager.replay_step(interaction, self.match_id, self.ply)


def history_view(user_id: int, game: str | None, page: int, pages: int) -> ui.View:
    """◀ ▶ under history page `page` (1-based) of `pages`."""
    view = ui.View(timeout=None)
    view.add_item(HistoryButton(user_id, game, max(page - 1, 1), "p", page > 1))
    view.add_item(HistoryButton(user_id, game, min(page + 1, pages), "n", page < pages))
    return view


def replay_view(match_id: int, ply: int, last: int) -> ui.View:
    """⏮ -10 ◀ ▶ +10 ⏭ under the replay of position `ply` (0 = the setup) of `last`: each
    button is off where it would not move."""
    view = ui.View(timeout=None)
    for way, (_, step) in REPLAY_STEPS.items():
        if step is None:
            target = 0 if way == "f" else last
        else:
            target = min(max(ply + step, 0), last)
        button = ReplayButton(match_id, target, way, target != ply)
        button.item.row = 0 if way in "fpnl" else 1
        view.add_item(button)
    return view


def challenge_view(match_id: int, *, open_seats: bool = False) -> ui.View:
    """Accept, Decline and Withdraw; an open challenge names nobody who could decline."""
    view = ui.View(timeout=None)
    answers = (AcceptButton,) if open_seats else (AcceptButton, DeclineButton)
    for item in (*answers, WithdrawButton):
        view.add_item(item(match_id))
    return view


def rematch_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(RematchButton(match_id))
    return view


def draw_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(DrawButton(match_id, True))
    view.add_item(DrawButton(match_id, False))
    return view


def takeback_view(match_id: int, ply: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(TakebackButton(match_id, ply, True))
    view.add_item(TakebackButton(match_id, ply, False))
    return view


def resign_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ResignButton(match_id, True))
    view.add_item(ResignButton(match_id, False))
    return view


def board_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(MoveButton(match_id))
    return view


def _path_text(positions: tuple[int, ...]) -> str:
    return ".".join(map(str, positions))


def _positions(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part)


# A picker's components carry everything it knows: match, ply, the path as positions among
# each step's choices (at most 3 digits each, bounded so a forged id cannot be huge).
MAX_PATH = 40
_PICKER = rf"(?P<id>\d{{1,20}}):(?P<ply>\d{{1,9}}):(?P<path>(?:\d{{1,3}}\.?){{0,{MAX_PATH}}})"


def _picker_id(kind: str, step: PickerStep, *extra: str) -> str:
    parts = [f"bg:{kind}", str(step.match.id), str(step.match.row.ply), _path_text(step.positions)]
    return ":".join([*parts, *extra])


def _fits(kind: str, step: PickerStep, *extra: str) -> bool:
    """Whether this step's component id fits Discord's limit and our own template."""
    short = len(step.positions) <= MAX_PATH
    return short and len(_picker_id(kind, step, *extra)) <= limits.CUSTOM_ID


def _option(token: str, label: str) -> discord.SelectOption:
    """A picker choice: what it does in words, with its notation beneath when they differ."""
    described = None if label == token else limits.option_label(token)
    return discord.SelectOption(
        label=limits.option_label(label), value=token, description=described
    )


class PickSelect(InMatch, ui.DynamicItem[ui.Select[Any]], template=rf"bg:pick:{_PICKER}:(?P<n>\d)"):
    """One menu of the next choices (a step may need several: 25 options each)."""

    def __init__(self, item: ui.Select[Any], match_id: int, ply: int, path: str) -> None:
        super().__init__(item)
        self.match_id, self.ply, self.path = match_id, ply, _positions(path)

    @classmethod
    def build(cls, step: PickerStep, tokens: tuple[str, ...], number: int) -> PickSelect:
        placeholder = f"{tokens[0]} … {tokens[-1]}" if len(tokens) > 1 else tokens[0]
        select: ui.Select[Any] = ui.Select(
            placeholder=limits.placeholder(placeholder),
            options=[_option(t, step.labels[step.choices.index(t)]) for t in tokens],
            custom_id=limits.custom_id(_picker_id("pick", step, str(number))),
            row=number,
        )
        return cls(select, step.match.id, step.match.row.ply, _path_text(step.positions))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        assert isinstance(item, ui.Select)
        return cls(item, int(match["id"]), int(match["ply"]), match["path"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        player = cast(MovePlayer, _cog(interaction, "Moves"))
        chosen = self.item.values[0] if self.item.values else ""
        await player.pick(interaction, self.match_id, self.ply, self.path, chosen)


class PickPlay(InMatch, ui.DynamicItem[ui.Button[Any]], template=rf"bg:play:{_PICKER}"):
    """Plays the move the path spells, through the same service call as /move."""

    def __init__(self, item: ui.Button[Any], match_id: int, ply: int, path: str) -> None:
        super().__init__(item)
        self.match_id, self.ply, self.path = match_id, ply, _positions(path)

    @classmethod
    def build(cls, step: PickerStep) -> PickPlay:
        assert step.move is not None
        button: ui.Button[Any] = ui.Button(
            label=play_label(step.move),
            style=discord.ButtonStyle.success,
            custom_id=limits.custom_id(_picker_id("play", step)),
            row=MAX_SELECTS,
        )
        return cls(button, step.match.id, step.match.row.ply, _path_text(step.positions))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PickPlay:
        assert isinstance(item, ui.Button)
        return cls(item, int(match["id"]), int(match["ply"]), match["path"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        player = cast(MovePlayer, _cog(interaction, "Moves"))
        await player.play_picked(interaction, self.match_id, self.ply, self.path)


class PickBack(InMatch, ui.DynamicItem[ui.Button[Any]], template=rf"bg:back:{_PICKER}"):
    """Goes one choice back."""

    def __init__(self, item: ui.Button[Any], match_id: int, ply: int, path: str) -> None:
        super().__init__(item)
        self.match_id, self.ply, self.path = match_id, ply, _positions(path)

    @classmethod
    def build(cls, step: PickerStep) -> PickBack:
        button: ui.Button[Any] = ui.Button(
            label="Back",
            style=discord.ButtonStyle.secondary,
            custom_id=limits.custom_id(_picker_id("back", step)),
            row=MAX_SELECTS,
        )
        return cls(button, step.match.id, step.match.row.ply, _path_text(step.positions))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> PickBack:
        assert isinstance(item, ui.Button)
        return cls(item, int(match["id"]), int(match["ply"]), match["path"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        player = cast(MovePlayer, _cog(interaction, "Moves"))
        await player.pick(interaction, self.match_id, self.ply, self.path[:-1], None)


class TournamentEntry(Protocol):
    async def join(self, interaction: discord.Interaction[Any], tournament_id: int) -> None: ...
    async def leave_button(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None: ...


class JoinButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:join:(?P<tournament>\d+)"):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Join",
                style=discord.ButtonStyle.success,
                custom_id=limits.custom_id(f"bg:join:{tournament_id}"),
            )
        )
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        entry = cast(TournamentEntry, _cog(interaction, "Tournaments"))
        await entry.join(interaction, self.tournament_id)


class LeaveButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:leave:(?P<tournament>\d+)"):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            ui.Button(
                label="Leave",
                style=discord.ButtonStyle.secondary,
                custom_id=limits.custom_id(f"bg:leave:{tournament_id}"),
            )
        )
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> LeaveButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        entry = cast(TournamentEntry, _cog(interaction, "Tournaments"))
        await entry.leave_button(interaction, self.tournament_id)


def entry_view(tournament_id: int) -> ui.View:
    """A tournament's entry message while it takes entries."""
    view = ui.View(timeout=None)
    view.add_item(JoinButton(tournament_id))
    view.add_item(LeaveButton(tournament_id))
    return view


PERSISTENT_ITEMS = (
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
    HistoryButton,
    ReplayButton,
    JoinButton,
    LeaveButton,
)


def play_label(move: str) -> str:
    """'Play <move>', shortened to fit a button (the text above shows the whole move)."""
    return limits.label(f"Play {move}")


def played_line(step: PickerStep) -> str:
    """What the Play button does, and what else may be done instead."""
    others = ["**Back** to change it"] if step.path else []
    if step.choices:
        others.insert(0, "pick more to make a longer move")
    instead = f", or {' or '.join(others)}" if others else ""
    return f"**{step.move}** is a whole move: **Play** makes it{instead}."


def picker_message(step: PickerStep, heading: str) -> tuple[str, ui.View]:
    """The picker at this step: its text and its components (nothing kept in memory)."""
    chosen = " → ".join(step.path) if step.path else "nothing yet"
    lines = [heading, f"Chosen: **{chosen}**"]
    view = ui.View(timeout=None)
    if step.choices and _fits("pick", step, "0"):
        lines.append("Pick the next square." if step.path else "Pick where your move starts.")
        for number, start in enumerate(range(0, len(step.choices), MAX_OPTIONS)):
            if number == MAX_SELECTS:
                break
            chunk = step.choices[start : start + MAX_OPTIONS]
            view.add_item(PickSelect.build(step, chunk, number))
        hidden = len(step.choices) - MAX_OPTIONS * MAX_SELECTS
        if hidden > 0:
            lines.append(f"({hidden} more choices do not fit here; type them with /move.)")
    elif step.choices:
        lines.append("This move is too long for the picker; type the rest with /move.")
    if step.move is not None and _fits("play", step):
        lines.append(played_line(step))
        view.add_item(PickPlay.build(step))
    elif step.move is not None:
        lines.append(
            f"This move is too long for the picker's buttons; play it with /move: {step.move}"
        )
    if step.path and _fits("back", step):
        view.add_item(PickBack.build(step))
    return limits.content("\n".join(lines)), view
