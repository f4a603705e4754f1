"""What a Boost turn did and how the game stands, for a move's post."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.boost.board import (
    DRAGONS,
    GEOMETRIES,
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
from rules.phrases import Words, clauses, counted, listed, owned, phrase, placed

# Counts and captured pieces, by the piece's kind on the board (PAWN, KNIGHT, TOWER).
COUNTS = (
    ("rules.count.pawns", "rules.count.no_pawns"),
    ("rules.count.knights", "rules.count.no_knights"),
    ("rules.count.towers", "rules.count.no_towers"),
)
OWNED = ("rules.owned.pawns", "rules.owned.knights", "rules.owned.towers")
WHERE = ("rules.where.pawns", "rules.where.knights", "rules.where.towers")
KINDS = (PAWN, KNIGHT, TOWER)


def seat_words(state: BoostState, seat: int, where: bool = False) -> Words:
    """What one seat has on the board: `8 pawns, 1 knight and no towers`, or `where` they
    stand: `pawns on b1 and c1, a knight on d2 and no towers`."""
    if seat in state.resigned:
        return phrase("rules.boost.out")
    if where:
        names = GEOMETRIES[state.size].names
        points = [[names[p] for p in _points(state.masks[slot(seat, k)])] for k in KINDS]
        return listed([placed(WHERE[k], COUNTS[k][1], points[k]) for k in KINDS])
    return listed([counted(state.masks[slot(seat, k)].bit_count(), *COUNTS[k]) for k in KINDS])


def _points(mask: int) -> list[int]:
    """The points a mask holds, in order."""
    return [point for point in range(mask.bit_length()) if mask >> point & 1]


def describe_move(
    state: BoostState, move: Action, after: BoostState, whose: Callable[[int], Words]
) -> Words:
    """`c5c6, taking bob's pawn on c7`; `whose(seat)` names a player."""
    notation = format_move(state.size, move)
    if isinstance(move, Build):
        return phrase("rules.boost.built", move=notation)
    if isinstance(move, Promote):
        return phrase("rules.boost.promoted", move=notation)
    events: list[Words] = []
    if owner_slot(state.masks, move.start) == DRAGONS:
        events.append(phrase("rules.boost.dragon_moved"))
    _, captured = resolve(GEOMETRIES[state.size], state.masks, state.turn, move)
    if captured:
        events.append(phrase("rules.move.taking", pieces=_victims(state, captured, whose)))
    if after.result is None:
        fallen = [s for s in out_of_game(after) if s not in out_of_game(state)]
        if fallen:
            events.append(
                phrase("rules.boost.knocked_out", players=listed([whose(s) for s in fallen]))
            )
    return phrase("rules.move.did", move=notation, what=clauses(events)) if events else notation


def _victims(state: BoostState, captured: Sequence[int], whose: Callable[[int], Words]) -> Words:
    """Captures grouped by owner and kind, in the order of the points: `bob's pawns on c8
    and e8, and carol's knight on d7`."""
    geo = GEOMETRIES[state.size]
    groups: dict[int, list[str]] = {}
    for point in sorted(captured, key=geo.point):
        victim = owner_slot(state.masks, point)
        assert victim is not None
        groups.setdefault(victim, []).append(geo.names[point])
    return clauses(
        [
            owned(OWNED[slot_kind(victim)], whose(slot_seat(victim)), points)
            for victim, points in groups.items()
        ]
    )
