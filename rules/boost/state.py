"""A Boost position, and what follows from the board alone: who is out, who has won, who is
next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rules.boost.board import DRAGONS, GEOMETRIES, KNIGHT, PAWN, TOWER, Masks, slot, zobrist
from rules.outcomes import Outcome, Reason
from rules.repetition import History
from rules.state import CommonState, next_seat


@dataclass(frozen=True)
class BoostState(CommonState):
    """A position. `masks`: dragons, then pawns, knights and towers of each seat, as bit masks
    (see rules.boost.board). `history`: the arrangements since the last pawn or knight left
    the board or was promoted (earlier ones can never recur), the current one last, counted by
    their Zobrist keys."""

    masks: Masks
    resigned: tuple[int, ...] = ()
    timed_out: tuple[int, ...] = ()  # the resigned seats that in fact ran out of time
    history: History[Masks] = field(default=History.of(()))
    # The Zobrist key of `masks`, kept so that the repetition test is two XORs per move.
    zkey: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        """A position built from scratch (setups, diagrams) starts its own history."""
        if not self.zkey:
            object.__setattr__(self, "zkey", zobrist(self.masks))
        if not self.history:
            object.__setattr__(self, "history", History.start(self.masks, self.zkey))

    @property
    def size(self) -> int:
        return 7 if self.variant == "mini" else 9


def defeated_by_board(masks: Masks, seat: int) -> bool:
    """No tower and too few pieces to build one, or nothing left but towers."""
    base = slot(seat, PAWN)
    movers = masks[base].bit_count() + masks[base + KNIGHT].bit_count()
    towers = masks[base + TOWER].bit_count()
    return movers == 0 or (towers == 0 and movers < 4)


def out_of_game(state: BoostState) -> tuple[int, ...]:
    """The seats out of the game: resigned or beaten on the board."""
    return tuple(
        seat
        for seat in range(1, state.players + 1)
        if seat in state.resigned or defeated_by_board(state.masks, seat)
    )


def alive_seats(masks: Masks, players: int, resigned: Sequence[int]) -> tuple[int, ...]:
    """The seats still playing: neither resigned nor beaten on the board."""
    return tuple(
        seat
        for seat in range(1, players + 1)
        if seat not in resigned and not defeated_by_board(masks, seat)
    )


def verdict(
    masks: Masks, size: int, players: int, resigned: Sequence[int], reason: Reason
) -> Outcome | None:
    """Tower victory first, then the last player standing (`reason` says how the others fell),
    then a draw when nobody is left."""
    ringed = GEOMETRIES[size].surrounded(masks[DRAGONS])
    if ringed:
        winners = tuple(
            seat
            for seat in range(1, players + 1)
            if seat not in resigned and masks[slot(seat, TOWER)] & ringed
        )
        if winners:
            return Outcome(winners, Reason.TOWER)
    alive = alive_seats(masks, players, resigned)
    if len(alive) == 1:
        return Outcome(alive, reason)
    if not alive:
        return Outcome((), Reason.NO_MOVES)
    return None


def following(seat: int, alive: Sequence[int], players: int) -> int:
    """The next seat after `seat` still in the game (defeated seats are skipped)."""
    nxt = next_seat(seat, players)
    for _ in range(players):
        if nxt in alive:
            return nxt
        nxt = next_seat(nxt, players)
    return seat


def settle(state: BoostState) -> BoostState:
    """A position as if a move had just led to it: decided, or a live seat to move."""
    result = verdict(state.masks, state.size, state.players, state.resigned, Reason.CAPTURE)
    alive = alive_seats(state.masks, state.players, state.resigned)
    turn = state.turn
    if result is None and turn not in alive:
        turn = following(turn, alive, state.players)
    return replace(state, result=result, turn=turn)
