"""A Quorum position: the board as a string, its stones as bit masks, the repetition history."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.direct import direct_constructor
from rules.quorum.board import BLACK, WHITE, mask
from rules.repetition import History
from rules.state import CommonState


@dataclass(frozen=True)
class QuorumState(CommonState):
    board: str
    history: History[str]
    """The position keys so far (`key`), the current one last, for the repetition rule."""
    stones: tuple[int, int, int] = field(default=(0, 0, 0), compare=False, repr=False)
    """Derived, never compared: each seat's stones as bits (bit i for board[i]), by seat
    (index 0 unused); `_play` carries them forward move by move, other states work them out
    from `board`. Make positions with the game (or a diagram), not by replacing `board`."""

    def __post_init__(self) -> None:
        if not any(self.stones):
            stones = (0, mask(self.board, WHITE), mask(self.board, BLACK))
            object.__setattr__(self, "stones", stones)

    @property
    def key(self) -> str:
        return f"{self.board}{self.turn}"


# Every field, in the order `_play` has them (see direct_constructor).
made = direct_constructor(
    QuorumState,
    ("board", "history", "stones", "variant", "players", "turn", "ply", "result", "last"),
)
