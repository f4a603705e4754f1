"""The guided move picker's steps, worked out from the match itself each time.

A picker keeps no memory of its own: its components carry the match, the ply it was opened
at and the path chosen so far (as positions among each step's choices), so it works the same
after a restart or an hour of thought. When the match has moved on, the step says so and the
cog offers a fresh picker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service.cache import MatchCache
from bot.service.matches import Match, ServiceError, opening
from bot.service.offload import PICKER_SECONDS, Offload, TooComplex
from bot.service.turns import require_turn
from bot.texts import say, t

SQUARE = re.compile(r"([a-z])\d+")
MENU = 25  # the most choices one menu offers (Discord's limit on a select's options)
TOO_COMPLEX = TooComplex(t("service.picker.too_complex"), t("service.picker.too_complex_hint"))


class OutOfDate(ServiceError):
    """The picker was opened at another ply, or its path no longer leads anywhere."""


@dataclass(frozen=True)
class PickerStep:
    """Where a member stands in the picker: the choices chosen (`path`, as tokens and as
    their positions among each step's choices), what may follow, and the move it makes."""

    match: Match
    path: tuple[str, ...]
    positions: tuple[int, ...]
    choices: tuple[str, ...]
    labels: tuple[str, ...]  # each choice in words ("lift 2 chips"), or its token
    move: str | None  # the notation of the complete move the path spells, if it is one

    @property
    def groups(self) -> dict[str, tuple[str, ...]]:
        """The choices by their square's letter, when more than one menu holds and every
        choice is a square: a letter, then a square in it, reaches any of them in two
        choices (Boku's 80 cells: 10 letters of at most 10). Empty when one menu is enough,
        or a choice is no square, or a letter would hold more than a menu."""
        if len(self.choices) <= MENU:
            return {}
        groups: dict[str, tuple[str, ...]] = {}
        for choice in self.choices:
            square = SQUARE.fullmatch(choice)
            if square is None:
                return {}
            groups[square[1]] = (*groups.get(square[1], ()), choice)
        fits = len(groups) <= MENU and all(len(group) <= MENU for group in groups.values())
        return groups if fits else {}


class Picker:
    def __init__(self, cache: MatchCache, offload: Offload) -> None:
        self.cache = cache
        self.offload = offload

    async def step(
        self,
        match_id: int,
        user_id: int,
        ply: int | None = None,
        positions: tuple[int, ...] = (),
        token: str | None = None,
    ) -> PickerStep:
        """The step after following `positions` (then `token`, if given) from the start of a
        turn. OutOfDate when `ply` is not the match's ply any more; `None` opens afresh."""
        match = await self.cache.get(match_id)
        if ply is not None and ply != match.row.ply:
            raise OutOfDate(t("service.picker.moved_on"))
        require_turn(match, user_id)
        return await self.offload.run(PICKER_SECONDS, TOO_COMPLEX, _walk, match, positions, token)


def _walk(match: Match, positions: tuple[int, ...], token: str | None) -> PickerStep:
    """Follow the path through the move tree (run in a worker: the tree can be large)."""
    game, state = match.game, match.state
    node = game.move_tree(state)
    path: list[str] = []
    for position in positions:
        tokens = list(node.children)
        if not 0 <= position < len(tokens):
            raise OutOfDate(t("service.picker.no_fit"))
        path.append(tokens[position])
        node = node.children[tokens[position]]
    if token is not None:
        if token not in node.children:
            raise OutOfDate(t("service.picker.gone", token=opening(token)))
        positions = (*positions, list(node.children).index(token))
        path.append(token)
        node = node.children[token]
    move = None if node.move is None else game.format_move(state, node.move)
    choices = tuple(node.children)
    labels = tuple(say(game.token_label(state, path, token)) for token in choices)
    return PickerStep(match, tuple(path), positions, choices, labels, move)
