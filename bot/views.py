"""Message components: persistent buttons that carry the match id, and the move picker.

Buttons only translate a click into a call on the cog that owns the feature; the cogs
are looked up by name so this module imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord
from discord import ui

from bot import limits
from rules import MoveTree

MAX_OPTIONS = 25
MAX_SELECTS = 4  # a message has 5 rows; the last holds the buttons


class ChallengeAnswers(Protocol):
    async def accept(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def decline(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def withdraw(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...


class MovePlayer(Protocol):
    async def open_picker(self, interaction: discord.Interaction[Any], match_id: int) -> None: ...
    async def play(
        self, interaction: discord.Interaction[Any], match_id: int, notation: str
    ) -> None: ...


def _cog(interaction: discord.Interaction[Any], name: str) -> Any:
    cog = interaction.client.get_cog(name)
    if cog is None:
        raise RuntimeError(f"the {name} cog is not loaded")
    return cog


class AcceptButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:accept:(?P<id>\d+)"):
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


class DeclineButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:decline:(?P<id>\d+)"):
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


class WithdrawButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:withdraw:(?P<id>\d+)"):
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


class MoveButton(ui.DynamicItem[ui.Button[Any]], template=r"bg:move:(?P<id>\d+)"):
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


PERSISTENT_ITEMS = (AcceptButton, DeclineButton, WithdrawButton, MoveButton, TakebackButton)


def challenge_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    for item in (AcceptButton, DeclineButton, WithdrawButton):
        view.add_item(item(match_id))
    return view


def takeback_view(match_id: int, ply: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(TakebackButton(match_id, ply, True))
    view.add_item(TakebackButton(match_id, ply, False))
    return view


class ConfirmView(ui.View):
    """A private pair of buttons (like Resign / Cancel): the first runs `action`, Cancel
    changes nothing. Sent ephemerally, so only the user who asked can press them."""

    def __init__(
        self,
        user_id: int,
        label: str,
        action: Callable[[discord.Interaction[Any]], Awaitable[None]],
        *,
        timeout: float = 300,
    ) -> None:
        super().__init__(timeout=timeout)
        self.user_id = user_id
        self.action = action
        yes: ui.Button[ConfirmView] = ui.Button(label=label, style=discord.ButtonStyle.danger)
        yes.callback = self._yes  # type: ignore[method-assign]
        no: ui.Button[ConfirmView] = ui.Button(label="Cancel", style=discord.ButtonStyle.secondary)
        no.callback = self._no  # type: ignore[method-assign]
        self.add_item(yes)
        self.add_item(no)

    async def _yes(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        await self.action(interaction)

    async def _no(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content="Cancelled: nothing changed.", view=None)


def board_view(match_id: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(MoveButton(match_id))
    return view


class PickerView(ui.View):
    """An ephemeral, step-by-step move builder over the legal moves' token tree.

    Each step edits the same ephemeral message; nothing is stored until Confirm, which
    goes through the same service call as /move (so every check runs again there).
    """

    def __init__(
        self,
        match_id: int,
        user_id: int,
        heading: str,
        tree: MoveTree,
        notation: dict[Any, str],
        path: tuple[str, ...] = (),
    ) -> None:
        super().__init__(timeout=600)
        self.match_id = match_id
        self.user_id = user_id
        self.heading = heading
        self.tree = tree
        self.notation = notation
        self.path = path
        node = tree.walk(path)
        assert node is not None
        self.node = node
        tokens = list(node.children)
        for number, start in enumerate(range(0, len(tokens), MAX_OPTIONS)):
            if number == MAX_SELECTS:
                break
            chunk = tokens[start : start + MAX_OPTIONS]
            self.add_item(TokenSelect(chunk, number))
        if node.move is not None:
            confirm: ui.Button[PickerView] = ui.Button(
                label=self.play_label(),
                style=discord.ButtonStyle.success,
                row=MAX_SELECTS,
            )
            confirm.callback = self._confirm  # type: ignore[method-assign]
            self.add_item(confirm)
        if path:
            back: ui.Button[PickerView] = ui.Button(
                label="Back", style=discord.ButtonStyle.secondary, row=MAX_SELECTS
            )
            back.callback = self._back  # type: ignore[method-assign]
            self.add_item(back)
        self.hidden = max(0, len(tokens) - MAX_OPTIONS * MAX_SELECTS)

    def play_label(self) -> str:
        """'Play <move>', shortened to fit a button (the text above shows the whole move)."""
        assert self.node.move is not None
        return limits.label(f"Play {self.notation[self.node.move]}")

    def text(self) -> str:
        chosen = " → ".join(self.path) if self.path else "nothing yet"
        lines = [self.heading, f"Chosen: **{chosen}**"]
        if self.node.children:
            lines.append("Pick the next square." if self.path else "Pick where your move starts.")
        if self.node.move is not None:
            move = self.notation[self.node.move]
            lines.append(f"Press **{self.play_label()}** to play **{move}**.")
        if self.hidden:
            lines.append(f"({self.hidden} more choices do not fit here; type them with /move.)")
        return limits.content("\n".join(lines))

    def step(self, path: tuple[str, ...]) -> PickerView:
        return PickerView(self.match_id, self.user_id, self.heading, self.tree, self.notation, path)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.user.id == self.user_id:
            return True
        await interaction.response.send_message(
            "This move picker belongs to someone else.", ephemeral=True
        )
        return False

    async def choose(self, interaction: discord.Interaction[Any], token: str) -> None:
        if token not in self.node.children:
            await interaction.response.send_message(
                f"{token} is not a choice here any more; press Move again.", ephemeral=True
            )
            return
        following = self.step((*self.path, token))
        await interaction.response.edit_message(content=following.text(), view=following)

    async def _back(self, interaction: discord.Interaction[Any]) -> None:
        previous = self.step(self.path[:-1])
        await interaction.response.edit_message(content=previous.text(), view=previous)

    async def _confirm(self, interaction: discord.Interaction[Any]) -> None:
        assert self.node.move is not None
        self.stop()
        player = cast(MovePlayer, _cog(interaction, "Moves"))
        await player.play(interaction, self.match_id, self.notation[self.node.move])


class TokenSelect(ui.Select[PickerView]):
    def __init__(self, tokens: list[str], number: int) -> None:
        placeholder = f"{tokens[0]} … {tokens[-1]}" if len(tokens) > 1 else tokens[0]
        super().__init__(
            placeholder=limits.placeholder(placeholder),
            options=[discord.SelectOption(label=limits.option_label(t), value=t) for t in tokens],
            custom_id=limits.custom_id(f"bg:pick:{number}"),
            row=number,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert self.view is not None
        await self.view.choose(interaction, self.values[0])
