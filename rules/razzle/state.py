"""A Razzle Dazzle position: the board, the ineligible pieces, the forced-throw condition and
the repetition history of the turn-start positions."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.direct import direct_constructor
from rules.razzle.board import occupied_bits
from rules.repetition import History
from rules.state import CommonState

# In repetition keys an ineligible piece is written with its own letter.
INELIGIBLE_MARK = {"x": "y", "X": "Y", "o": "p", "O": "P"}


@dataclass(frozen=True)
class RazzleState(CommonState):
    board: str
    ineligible: frozenset[int] = frozenset()
    forced: bool = False
    history: History[str] = field(kw_only=True)
    """The repetition keys of the turn-start positions so far (`key`), the current one last."""
    occupied: int = field(default=-1, kw_only=True, compare=False, repr=False)
    """Derived, never compared: the occupied squares as bits (see occupied_bits); `_play` carries
    it forward (only a knight move changes it), other states work it out from `board`."""

    def __post_init__(self) -> None:
        if self.occupied < 0:
            object.__setattr__(self, "occupied", occupied_bits(self.board))

    @property
    def key(self) -> str:
        """The turn-start position as the repetition rule sees it."""
        return position_key(self.board, self.ineligible, self.forced, self.turn)


# Every field, in the order `_play` has them (see direct_constructor).
made = direct_constructor(
    RazzleState,
    (
        *("board", "ineligible", "forced", "history", "occupied"),
        *("variant", "players", "turn", "ply", "result", "last"),
    ),
)


# The end of a repetition key: whether a throw is forced, and the seat to move.
KEY_ENDINGS = {
    (forced, turn): f"{'!' if forced else '-'}{turn}" for forced in (False, True) for turn in (1, 2)
}


def position_key(board: str, ineligible: frozenset[int], forced: bool, turn: int) -> str:
    return marked_key(list(board), ineligible, forced, turn)


def marked_key(cells: list[str], ineligible: frozenset[int], forced: bool, turn: int) -> str:
    """`position_key` from the board's cells, which it marks in place (`_play` has them at hand)."""
    for square in ineligible:
        cells[square] = INELIGIBLE_MARK[cells[square]]
    return "".join(cells) + KEY_ENDINGS[forced, turn]
