"""A Kyo position: the stacks, and the position keys since the last item left the board (for
the repetition rule); a turn, known by the position it leaves; and what the board alone
decides, a win."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.kyo.board import SIDES
from rules.kyo.notation import join
from rules.kyo.turns import Board
from rules.outcomes import Outcome
from rules.state import CommonState, Pass

DEFAULT_VARIANT = "trench"  # Kyo's standard game


@dataclass(frozen=True)
class Turn:
    """A whole turn: the position it leaves, which is what makes two turns the same move
    (rule 16), and its tokens, origin square first (see rules.kyo.notation)."""

    tokens: tuple[str, ...] = field(compare=False)
    board: Board

    def __str__(self) -> str:
        return join(self.tokens)


KyoMove = Turn | Pass


@dataclass(frozen=True)
class KyoState(CommonState):
    board: Board
    variant: str = field(default=DEFAULT_VARIANT, kw_only=True)
    history: tuple[str, ...] = ()  # position keys since the last item left the board


def winner(board: Board, mover: int) -> Outcome | None:
    """Rule 14, the opponent first: only the side that just moved can have taken anything."""
    items = "".join(board)
    for loser in (3 - mover, mover):
        side = SIDES[loser]
        others = (3 - loser,)
        if side.king not in items:
            return Outcome(others, "king")
        if side.mana[0] not in items and side.mana[1] not in items:
            return Outcome(others, "mana")
    return None
