"""What a Boost turn did and how the game stands, in the words of a move's post."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.boost.board import (
    DRAGONS,
    GEOMETRIES,
    KIND_NAMES,
    KNIGHT,
    PAWN,
    TOWER,
    Action,
    Build,
    Promote,
    owner_slot,
    resolve,
    slot,
    slot_kind,
    slot_seat,
)
from rules.boost.notation import format_move
from rules.boost.state import BoostState, out_of_game
from rules.phrases import counted, join_clauses, join_words, owned_pieces


def seat_words(state: BoostState, seat: int) -> str:
    """What one seat has on the board: `8 pawns, 1 knight and no towers`."""
    if seat in state.resigned:
        return "out of the game"
    kinds = ((PAWN, "pawn"), (KNIGHT, "knight"), (TOWER, "tower"))
    return join_words([counted(state.masks[slot(seat, k)].bit_count(), n) for k, n in kinds])


def describe_move(
    state: BoostState, move: Action, after: BoostState, whose: Callable[[int], str]
) -> str:
    """`c5c6, taking bob's pawn on c7`; `whose(seat)` names a player."""
    notation = format_move(state.size, move)
    if isinstance(move, Build):
        return f"{notation}, building a tower"
    if isinstance(move, Promote):
        return f"{notation}, promoting a pawn to a knight"
    events = []
    if owner_slot(state.masks, move.start) == DRAGONS:
        events.append("moving a dragon")
    _, captured = resolve(GEOMETRIES[state.size], state.masks, state.turn, move)
    if captured:
        events.append(f"taking {_victims(state, captured, whose)}")
    if after.result is None:
        fallen = [s for s in out_of_game(after) if s not in out_of_game(state)]
        if fallen:
            out = join_words([whose(s) for s in fallen])
            events.append(f"knocking {out} out of the game")
    return f"{notation}, {join_clauses(events)}" if events else notation


def _victims(state: BoostState, captured: Sequence[int], whose: Callable[[int], str]) -> str:
    """Captures grouped by owner and kind, in the order of the points: `bob's pawns on c8
    and e8, and carol's knight on d7`."""
    geo = GEOMETRIES[state.size]
    groups: dict[int, list[str]] = {}
    for point in sorted(captured, key=geo.point):
        victim = owner_slot(state.masks, point)
        assert victim is not None
        groups.setdefault(victim, []).append(geo.names[point])
    return join_clauses(
        [
            owned_pieces(whose(slot_seat(victim)), KIND_NAMES[slot_kind(victim)], points)
            for victim, points in groups.items()
        ]
    )
