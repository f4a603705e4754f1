"""Why typed text is not a legal Boost move, in a player's words: what is wrong, and what
the rule wants instead."""

from __future__ import annotations

from collections.abc import Callable

from rules.boost.board import (
    BUILD_CODE,
    DRAGONS,
    GEOMETRIES,
    KIND_NAMES,
    KNIGHT,
    MAX_TOWERS,
    PAWN,
    PROMOTE_CODE,
    TOWER,
    Step,
    occupied,
    own_mask,
    owner_slot,
    slot,
    slot_kind,
    slot_seat,
    step_count,
)
from rules.boost.notation import normalize
from rules.boost.state import BoostState
from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.notation import parse_square, split_squares


def refusal(
    state: BoostState, text: str, whose: Callable[[int], str], example: Callable[[], str]
) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player and
    `example()` is a legal move."""
    return Explainer(state, whose, example).explain(text, normalize(text))


class Explainer:
    """One explanation: the position, and how the game names players and suggests a move."""

    def __init__(
        self, state: BoostState, player_name: Callable[[int], str], example: Callable[[], str]
    ) -> None:
        self.state = state
        self.geo = GEOMETRIES[state.size]
        self.player_name = player_name
        self.example = example

    def explain(self, text: str, cleaned: str) -> RulesError:
        """`cleaned` is the text normalized the way the game compares notation."""
        if cleaned == "pass":
            return IllegalMove(
                "you can only pass when you cannot move, build or promote anything; "
                f"try for example {self.example()}"
            )
        squares = split_squares(text)
        if not squares or "".join(squares) != cleaned or len(squares) > 2:
            return InvalidMove(
                f"{text.strip()!r} is not a Boost move: write the start and end points "
                "(like c1c3), a single point to build or promote (like e5), or pass"
            )
        size = self.geo.size
        try:
            points = [self.geo.at(*parse_square(s, size, size)) for s in squares]
        except RulesError as error:
            return error
        if len(points) == 1:
            return self.point(points[0])
        return self.step(points[0], points[1])

    def holder(self, index: int | None) -> str:
        """'nothing', 'a dragon', 'your pawn', "bob's tower"."""
        if index is None:
            return "nothing"
        if index == DRAGONS:
            return "a dragon"
        owner, kind = slot_seat(index), KIND_NAMES[slot_kind(index)]
        return f"your {kind}" if owner == self.state.turn else f"{self.player_name(owner)}'s {kind}"

    def point(self, point: int) -> RulesError:
        """A single point: a build on an empty point, or a promotion of a pawn."""
        masks, seat, name = self.state.masks, self.state.turn, self.geo.names[point]
        holder = owner_slot(masks, point)
        if holder is None:
            return self.build(point)
        if holder != slot(seat, PAWN):
            return IllegalMove(
                f"{name} holds {self.holder(holder)}: a single point builds a tower on an empty "
                "point or promotes one of your pawns"
            )
        towers = masks[slot(seat, TOWER)]
        if not self.geo.neighbour_mask[point] & towers:
            return IllegalMove(
                f"the pawn on {name} has no tower of yours next to it, so it cannot be promoted"
            )
        knights, count = masks[slot(seat, KNIGHT)].bit_count(), towers.bit_count()
        if knights >= count:
            return IllegalMove(
                f"you have {_count(knights, 'knight')} and {_count(count, 'tower')}: a pawn can "
                "only be promoted while you have fewer knights than towers"
            )
        return self.repetition(point << 8 | PROMOTE_CODE)

    def build(self, point: int) -> RulesError:
        geo, masks, seat, name = self.geo, self.state.masks, self.state.turn, self.geo.names[point]
        if not geo.interior >> point & 1:
            return IllegalMove(
                f"{name} is on the edge of the board: a tower needs your pieces on all four "
                "sides, so edge points can never be built on"
            )
        if masks[slot(seat, TOWER)].bit_count() >= MAX_TOWERS:
            return IllegalMove(f"you already have {MAX_TOWERS} towers, the most allowed")
        own = own_mask(masks, seat)
        missing = []
        for neighbour in geo.neighbours[point]:
            if not own >> neighbour & 1:
                holder = owner_slot(masks, neighbour)
                what = "is empty" if holder is None else f"holds {self.holder(holder)}"
                missing.append(f"{geo.names[neighbour]} {what}")
        if missing:
            return IllegalMove(
                f"you cannot build on {name}: all four neighbours must be your pieces, but "
                + " and ".join(missing)
            )
        return self.repetition(point << 8 | BUILD_CODE)

    def step(self, start: int, end: int) -> RulesError:
        geo, masks, seat, names = self.geo, self.state.masks, self.state.turn, self.geo.names
        if start == end:
            return IllegalMove("a move has to end on a different point from where it started")
        holder = owner_slot(masks, start)
        if holder is None:
            return IllegalMove(f"{names[start]} is empty: there is nothing there to move")
        if holder == DRAGONS:
            if not geo.neighbour_mask[start] & own_mask(masks, seat):
                return IllegalMove(
                    f"the dragon on {names[start]} is not next to any of your pieces, so you "
                    "cannot move it"
                )
            kind = "dragon"
        elif slot_seat(holder) != seat:
            return IllegalMove(f"{names[start]} holds {self.holder(holder)}, not yours")
        else:
            kind = KIND_NAMES[slot_kind(holder)]
        if kind == "tower":
            return IllegalMove(f"towers never move (the piece on {names[start]} is a tower)")
        occ = occupied(masks)
        steps = step_count(geo, start, occ)
        reach = {entry[0]: entry[3] for entry in geo.walks(start, steps)}
        must = (
            f"the {kind} on {names[start]} has {_count(steps - 1, 'neighbour')}, so it must "
            f"take exactly {_count(steps, 'step')}"
        )
        if end not in reach:
            (sf, sr), (ef, er) = geo.point(start), geo.point(end)
            distance = _count(abs(sf - ef) + abs(sr - er), "step")
            return IllegalMove(
                f"{must}; {names[end]} is {distance} away and no route of exactly {steps} can "
                "end there"
            )
        target = owner_slot(masks, end)
        if target is not None:
            if kind != "knight":
                return IllegalMove(
                    f"{names[end]} holds {self.holder(target)}: only a knight may end its move "
                    "on another piece"
                )
            if target == DRAGONS:
                return IllegalMove("dragons can never be captured")
            if slot_seat(target) == seat:
                return IllegalMove(
                    f"{names[end]} holds {self.holder(target)}: you cannot capture your own pieces"
                )
        if all(occ & path for path in reach[end]):
            return IllegalMove(
                f"{must}, and every such route from {names[start]} to {names[end]} is blocked: "
                "each step needs an empty point"
            )
        return self.repetition(start << 8 | end)

    def repetition(self, key: int) -> RulesError:
        move = self.geo.moves[key]
        names = self.geo.names
        what = names[move.start] + names[move.end] if isinstance(move, Step) else names[move.point]
        return IllegalMove(
            f"{what} would bring back an arrangement of pieces that was already on the board "
            "earlier; you may only repeat when every move you have would do so"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
