"""A Boku position: the board, the blocked cell, the repetition history and what is derived
from them (the layout string, the free cells, the legal moves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress

from rules.boku.board import (
    DIRECTIONS,
    EMPTY,
    FREE,
    INDEX,
    MARBLE,
    NAMES,
    PLACES,
    SHARED,
    WIN_LENGTH,
    BokuMove,
    Place,
    captures,
    layout_lines,
    wins,
)
from rules.direct import direct_constructor
from rules.notation import Point
from rules.outcomes import Outcome, Reason
from rules.repetition import History
from rules.state import PASS, CommonState


@dataclass(frozen=True, slots=True)
class BokuState(CommonState):
    """A position: `board` holds the 80 cells in notation order ('.', '1' or '2'), `blocked`
    the cell closed to the player to move, `earlier` the repetition keys since the last plain
    placement, this position's last, or None when this position is the only one (see
    `history`). Make positions with the game (or a diagram), not by replacing `board`: the
    derived fields would go stale."""

    board: str
    blocked: int | None = None
    earlier: History[str] | None = field(default=None, kw_only=True)
    # Derived, never compared: the board in layout order (see _layout) and the plain placement
    # on every empty cell, passed in by `_play` (updated from the previous position, they must
    # match `board`) or worked out here; the legal moves, worked out once because every turn
    # needs them twice (to choose one, then to check it), and `taking`, the empty cells where a
    # plain placement is not legal, with the marbles a placement there removes (none for the
    # blocked cell), which lets `apply` check a move without searching the moves.
    lines: str = field(default="", compare=False, repr=False)
    places: tuple[Place, ...] = field(default=(), compare=False, repr=False)
    moves: tuple[BokuMove, ...] = field(init=False, compare=False, repr=False)
    taking: dict[int, tuple[Place, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.lines:
            object.__setattr__(self, "lines", layout_lines(self.board))
        if not self.places:  # also when no cell is empty: working out () again is cheap
            places = tuple(compress(PLACES, self.board.encode().translate(FREE)))
            object.__setattr__(self, "places", places)
        moves, taking = moves_and_taking(
            self.board, self.lines, self.places, self.blocked, self.turn, self.result
        )
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "taking", taking)

    @property
    def history(self) -> History[str]:
        """The repetition keys since the last plain placement, this position's last. Most turns
        are plain placements, after which no earlier position can recur: their history is
        made only when asked for (a capture or a pass, a dump)."""
        if self.earlier is not None:
            return self.earlier
        return History.start(position_key(self.board, self.blocked, self.turn))


# Every field, derived ones too, as `_play` works them out (see direct_constructor).
made = direct_constructor(
    BokuState,
    (
        "board",
        "blocked",
        "earlier",
        "lines",
        "places",
        "moves",
        "taking",
        *("variant", "players", "turn", "ply", "result", "last"),
    ),
)


def position_key(board: str, blocked: int | None, turn: int) -> str:
    """The position for the repetition rule: marbles, blocked cell and side to move."""
    return f"{board}:{'-' if blocked is None else NAMES[blocked]}:{turn}"


def moves_and_taking(
    board: str,
    lines: str,
    places: tuple[Place, ...],
    blocked: int | None,
    turn: int,
    result: Outcome | None,
) -> tuple[tuple[BokuMove, ...], dict[int, tuple[Place, ...]]]:
    """A position's `moves`, every placement on a free cell, a capturing one once per marble
    it may remove (none once the game is over); and its `taking`."""
    if result is not None:
        return (), {}
    mine = MARBLE[turn]
    taking = captures(lines, mine)
    if not taking and blocked is None:
        return places or (PASS,), taking  # the usual case, with nothing to patch
    for cell in [cell for cell in taking if wins(lines, cell, mine)]:
        del taking[cell]  # the win comes first: just a plain placement
    if blocked is not None:
        taking[blocked] = ()
    moves: list[BokuMove] = list(places)
    # Going backwards keeps the places of the cells still to patch where they were.
    for cell in sorted(taking, reverse=True):
        at = board.count(EMPTY, 0, cell)
        moves[at : at + 1] = taking[cell]
    return tuple(moves) or (PASS,), taking


def listed(state: BokuState, move: BokuMove) -> bool:
    """Whether `move` is one of the shared move objects legal in `state`, found without a
    search: a plain placement is legal on an empty cell that `taking` does not hold, a
    capturing one when `taking` lists it."""
    if move is PASS:
        return state.moves[0] is PASS
    if not isinstance(move, Place) or id(move) not in SHARED:
        return False  # a move made elsewhere may hold anything: the usual path judges it
    cell, removed = move.cell, move.removed
    if removed is None:
        return state.board[cell] == EMPTY and cell not in state.taking
    return any(move is legal for legal in state.taking.get(cell, ()))


def winning_line(state: BokuState) -> tuple[Point, ...]:
    """The cells of the line of five or more that won the game, end to end; () if none did."""
    if state.result is None or state.result.reason != Reason.FIVE or state.last is None:
        return ()
    (q, r), mine = state.last.path[0], MARBLE[state.last.seat]
    for dq, dr in DIRECTIONS[::2]:
        line = [(q, r)]
        for sign in (1, -1):
            step = (q + sign * dq, r + sign * dr)
            while step in INDEX and state.board[INDEX[step]] == mine:
                line.append(step)
                step = (step[0] + sign * dq, step[1] + sign * dr)
        if len(line) >= WIN_LENGTH:
            return tuple(sorted(line))
    return ()
