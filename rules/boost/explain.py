"""Why typed text is not a legal Boost move, for a player: what is wrong, and what the rule
wants instead."""

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
from rules.phrases import Phrase, Words, chained, phrase


def refusal(
    state: BoostState, text: str, whose: Callable[[int], Words], example: Callable[[], str]
) -> RulesError:
    """Why `text`, which matches no legal move, is wrong; `whose(seat)` names a player and
    `example()` is a legal move."""
    return Explainer(state, whose, example).explain(text, normalize(text))


# What the pieces are called, by their names in the board module.
PIECES = {
    "pawn": "rules.boost.piece.pawn",
    "knight": "rules.boost.piece.knight",
    "tower": "rules.boost.piece.tower",
    "dragon": "rules.boost.piece.dragon",
}


class Explainer:
    """One explanation: the position, and how the game names players and suggests a move."""

    def __init__(
        self, state: BoostState, whose: Callable[[int], Words], example: Callable[[], str]
    ) -> None:
        self.state = state
        self.geo = GEOMETRIES[state.size]
        self.whose = whose
        self.example = example

    def explain(self, text: str, cleaned: str) -> RulesError:
        """`cleaned` is the text normalized the way the game compares notation."""
        if cleaned == "pass":
            return IllegalMove("rules.boost.no_pass", example=self.example())
        squares = split_squares(text)
        if not squares or "".join(squares) != cleaned or len(squares) > 2:
            return InvalidMove("rules.boost.unreadable", text=text.strip())
        size = self.geo.size
        try:
            points = [self.geo.at(*parse_square(s, size, size)) for s in squares]
        except RulesError as error:
            return error
        if len(points) == 1:
            return self.point(points[0])
        return self.step(points[0], points[1])

    def holder(self, index: int | None) -> Phrase:
        """'nothing', 'a dragon', 'your pawn', "bob's tower"."""
        if index is None:
            return phrase("rules.boost.holder.nothing")
        if index == DRAGONS:
            return phrase("rules.boost.holder.dragon")
        owner, piece = slot_seat(index), phrase(PIECES[KIND_NAMES[slot_kind(index)]])
        if owner == self.state.turn:
            return phrase("rules.boost.holder.yours", piece=piece)
        return phrase("rules.boost.holder.theirs", owner=self.whose(owner), piece=piece)

    def point(self, point: int) -> RulesError:
        """A single point: a build on an empty point, or a promotion of a pawn."""
        masks, seat, name = self.state.masks, self.state.turn, self.geo.names[point]
        holder = owner_slot(masks, point)
        if holder is None:
            return self.build(point)
        if holder != slot(seat, PAWN):
            return IllegalMove("rules.boost.single_point", point=name, holder=self.holder(holder))
        towers = masks[slot(seat, TOWER)]
        if not self.geo.neighbour_mask[point] & towers:
            return IllegalMove("rules.boost.no_tower", point=name)
        knights, count = masks[slot(seat, KNIGHT)].bit_count(), towers.bit_count()
        if knights >= count:
            return IllegalMove(
                "rules.boost.knights",
                knights=phrase("rules.count.knights", count=knights),
                towers=phrase("rules.count.towers", count=count),
            )
        return self.repetition(point << 8 | PROMOTE_CODE)

    def build(self, point: int) -> RulesError:
        geo, masks, seat, name = self.geo, self.state.masks, self.state.turn, self.geo.names[point]
        if not geo.interior >> point & 1:
            return IllegalMove("rules.boost.edge", point=name)
        if masks[slot(seat, TOWER)].bit_count() >= MAX_TOWERS:
            return IllegalMove("rules.boost.most_towers", most=MAX_TOWERS)
        own = own_mask(masks, seat)
        missing: list[Words] = []
        for neighbour in geo.neighbours[point]:
            if not own >> neighbour & 1:
                holder = owner_slot(masks, neighbour)
                where = geo.names[neighbour]
                if holder is None:
                    missing.append(phrase("rules.boost.neighbour_empty", point=where))
                else:
                    missing.append(
                        phrase(
                            "rules.boost.neighbour_holds", point=where, holder=self.holder(holder)
                        )
                    )
        if missing:
            return IllegalMove(
                "rules.boost.no_build", point=name, missing=chained(missing, "rules.list.pair")
            )
        return self.repetition(point << 8 | BUILD_CODE)

    def step(self, start: int, end: int) -> RulesError:
        geo, masks, seat, names = self.geo, self.state.masks, self.state.turn, self.geo.names
        if start == end:
            return IllegalMove("rules.boost.same_point")
        holder = owner_slot(masks, start)
        if holder is None:
            return IllegalMove("rules.boost.empty", point=names[start])
        if holder == DRAGONS:
            if not geo.neighbour_mask[start] & own_mask(masks, seat):
                return IllegalMove("rules.boost.lone_dragon", point=names[start])
            kind = "dragon"
        elif slot_seat(holder) != seat:
            return IllegalMove(
                "rules.boost.not_yours", point=names[start], holder=self.holder(holder)
            )
        else:
            kind = KIND_NAMES[slot_kind(holder)]
        if kind == "tower":
            return IllegalMove("rules.boost.tower", point=names[start])
        occ = occupied(masks)
        steps = step_count(geo, start, occ)
        reach = {entry[0]: entry[3] for entry in geo.walks(start, steps)}
        must = phrase(
            "rules.boost.must_take",
            piece=phrase(PIECES[kind]),
            point=names[start],
            neighbours=phrase("rules.count.neighbours", count=steps - 1),
            steps=phrase("rules.count.steps", count=steps),
        )
        if end not in reach:
            (sf, sr), (ef, er) = geo.point(start), geo.point(end)
            distance = phrase("rules.count.steps", count=abs(sf - ef) + abs(sr - er))
            return IllegalMove(
                "rules.boost.unreachable",
                must=must,
                point=names[end],
                distance=distance,
                exactly=phrase("rules.count.steps", count=steps),
            )
        target = owner_slot(masks, end)
        if target is not None:
            if kind != "knight":
                return IllegalMove(
                    "rules.boost.not_knight", point=names[end], holder=self.holder(target)
                )
            if target == DRAGONS:
                return IllegalMove("rules.boost.dragon_capture")
            if slot_seat(target) == seat:
                return IllegalMove(
                    "rules.boost.own_capture", point=names[end], holder=self.holder(target)
                )
        if all(occ & path for path in reach[end]):
            return IllegalMove("rules.boost.blocked", must=must, start=names[start], end=names[end])
        return self.repetition(start << 8 | end)

    def repetition(self, key: int) -> RulesError:
        move = self.geo.moves[key]
        names = self.geo.names
        what = names[move.start] + names[move.end] if isinstance(move, Step) else names[move.point]
        return IllegalMove("rules.boost.repetition", move=what)
