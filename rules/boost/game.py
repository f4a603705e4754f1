"""Boost: boosted steps, flanking pawns, landing knights, towers and neutral dragons."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rules.boost import diagram, explain, notation, words
from rules.boost.board import (
    BUILD_CODE,
    DRAGONS,
    GEOMETRIES,
    KNIGHT,
    MAX_SEATS,
    PAWN,
    PROMOTE_CODE,
    SEAT_KEYS,
    TOWER,
    ZOBRIST,
    Action,
    BoostMove,
    Geometry,
    Step,
    action_keys,
    irreversible,
    occupied,
    own_mask,
    owner_slot,
    rekey,
    resolve,
    slot,
    step_count,
    zobrist,
)
from rules.boost.state import (
    BoostState,
    alive_seats,
    following,
    out_of_game,
    verdict,
)
from rules.direct import direct_constructor, make_highlight
from rules.errors import IllegalMove, InvalidDiagram, InvalidState, RulesError
from rules.game import Game, Variant
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase, Words, phrase
from rules.repetition import History
from rules.state import PASS, Highlight, Pass, common_from_json, common_to_json

# Starting pawns (and towers) per setup, by seat.
PAWNS_2 = {1: "a1 b1 c1 d1 f1 g1 h1 i1", 2: "a9 b9 c9 d9 f9 g9 h9 i9"}
PAWNS_3 = {
    1: "a1 b1 c1 d1 f1 g1 h1 i1",
    2: "f9 g9 h9 i9 i4 i5 i6 i7",
    3: "a9 b9 c9 d9 a4 a5 a6 a7",
}
PAWNS_4 = {
    1: "a1 b1 c1 d1 a3 a4",
    2: "a9 b9 c9 d9 a6 a7",
    3: "f1 g1 h1 i1 i3 i4",
    4: "f9 g9 h9 i9 i6 i7",
}
PAWNS_MINI = {1: "a1 b1 c1 d1", 2: "d7 e7 f7 g7"}
PAWNS_QUICK = {1: "c1 g1 b2 d2 f2 h2 c3 g3", 2: "c9 g9 b8 d8 f8 h8 c7 g7"}
TOWERS_QUICK = {1: "c2 g2", 2: "c8 g8"}
DRAGON_PAIRS = 3
# The ranks (0-based) the first dragon of each pair is drawn from, by board size.
DRAGON_RANKS = {9: (5, 6, 7), 7: (4, 5)}


class Boost(Game[BoostState, BoostMove]):
    name = "boost"
    title = "Boost"
    board_size = (9, 9)
    seat_keys = SEAT_KEYS
    default_variant = "standard"
    variants: ClassVar[Mapping[str, Variant]] = {
        "standard": Variant("standard", phrase("rules.variant.boost.standard"), (2, 3, 4)),
        "dragonless": Variant("dragonless", phrase("rules.variant.boost.dragonless"), (2, 3, 4)),
        "mini": Variant("mini", phrase("rules.variant.boost.mini"), (2,)),
        "quickstart": Variant("quickstart", phrase("rules.variant.boost.quickstart"), (2,)),
    }
    help_topics = (
        "overview",
        "setup",
        "moving",
        "building",
        "promotion",
        "capturing",
        "dragons",
        "passing",
        "repetition",
        "defeat",
        "winning",
        "variants",
        "multiplayer",
    )

    # -- setup -----------------------------------------------------------------------------

    def _setup(self, variant: str, players: int, seed: int) -> BoostState:
        geo = GEOMETRIES[7 if variant == "mini" else 9]
        masks = [0] * (1 + 3 * players)
        if variant == "mini":
            pawns = PAWNS_MINI
        elif variant == "quickstart":
            pawns = PAWNS_QUICK
        else:
            pawns = {2: PAWNS_2, 3: PAWNS_3, 4: PAWNS_4}[players]
        towers = TOWERS_QUICK if variant == "quickstart" else {}
        for seat, squares in pawns.items():
            masks[slot(seat, PAWN)] = _mask(geo, squares)
        for seat, squares in towers.items():
            masks[slot(seat, TOWER)] = _mask(geo, squares)
        if variant != "dragonless":
            masks[DRAGONS] = _dragons(geo, occupied(tuple(masks)), random.Random(seed))
        return BoostState(tuple(masks), variant=variant, players=players)

    # -- status ----------------------------------------------------------------------------

    @staticmethod
    def geometry(state: BoostState) -> Geometry:
        return GEOMETRIES[state.size]

    def defeated(self, state: BoostState) -> tuple[int, ...]:
        """The seats out of the game: resigned or beaten on the board."""
        return out_of_game(state)

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self, state: BoostState) -> tuple[BoostMove, ...]:
        if state.result is not None:
            return ()
        geo = GEOMETRIES[state.size]
        keys = action_keys(geo, state.masks, state.turn)
        if not keys:
            return (PASS,)
        if len(state.history) > 1:
            keys = _unrepeated(geo, state, keys) or keys
        return tuple(map(geo.moves.__getitem__, keys))

    def _play(self, state: BoostState, move: BoostMove) -> BoostState:
        seat = state.turn
        geo = GEOMETRIES[state.size]
        notation = self.format_move(state, move)
        if isinstance(move, Pass):
            alive = alive_seats(state.masks, state.players, state.resigned)
            after = replace(
                state,
                turn=following(seat, alive, state.players),
                ply=state.ply + 1,
                last=Highlight(seat, notation),
            )
            if not any(action_keys(geo, state.masks, s) for s in alive):
                after = replace(after, result=Outcome((), Reason.NO_MOVES))
            return after
        masks, captured = resolve(geo, state.masks, seat, move)
        key = rekey(state.zkey, state.masks, masks)
        if irreversible(state.masks, masks):
            history = History.start(masks, key)
        else:
            history = state.history.then(masks, key)
        path: tuple[int, ...] = ()
        changed: tuple[int, ...] = ()
        if isinstance(move, Step):
            occ = occupied(state.masks)
            path = geo.route(move.start, move.end, step_count(geo, move.start, occ), occ)
        else:
            changed = (move.point,)
        alive = alive_seats(masks, state.players, state.resigned)
        return _made(
            masks,
            state.resigned,
            state.timed_out,
            history,
            key,
            state.variant,
            state.players,
            following(seat, alive, state.players),
            state.ply + 1,
            verdict(masks, state.size, state.players, state.resigned, Reason.CAPTURE),
            make_highlight(
                seat,
                notation,
                tuple(map(geo.point, path)),
                tuple(map(geo.point, captured)),
                tuple(map(geo.point, changed)),
            ),
        )

    def resign(self, state: BoostState, seat: int) -> BoostState:
        """That seat is defeated; with three or more players the others play on."""
        if not 1 <= seat <= state.players:
            raise IllegalMove("rules.game.no_seat", seat=seat)
        if state.result is not None:
            raise IllegalMove("rules.game.already_over")
        if seat in self.defeated(state):
            raise IllegalMove("rules.boost.already_out", seat=self.seat_phrase(seat))
        resigned = tuple(sorted((*state.resigned, seat)))
        result = verdict(state.masks, state.size, state.players, resigned, Reason.RESIGNATION)
        alive = alive_seats(state.masks, state.players, resigned)
        turn = state.turn
        if turn == seat and alive:
            turn = following(seat, alive, state.players)
        return replace(state, resigned=resigned, result=result, turn=turn)

    def time_out(self, state: BoostState, seat: int) -> BoostState:
        """As any game (the seat leaves as if it resigned), remembering that it ran out of
        time, so the board says so."""
        after = super().time_out(state, seat)
        return replace(after, timed_out=tuple(sorted((*after.timed_out, seat))))

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: BoostState, move: BoostMove) -> str:
        return notation.format_move(state.size, move)

    def move_tokens(self, state: BoostState, move: BoostMove) -> tuple[str, ...]:
        return notation.move_tokens(state.size, move)

    def normalize(self, text: str) -> str:
        return notation.normalize(text)

    def parse_move(
        self, state: BoostState, text: str, names: Sequence[str] | None = None
    ) -> BoostMove:
        """The shared matching, with one shortcut: canonical Boost notation is already in
        normalized form, so each legal move is formatted but not normalized again."""
        if state.result is None:
            wanted = self.normalize(text)
            for move in self.legal_moves(state):
                if self.format_move(state, move) == wanted:
                    return move
        return super().parse_move(state, text, names)

    def diagnose(
        self, state: BoostState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        return explain.refusal(state, text, self.namer(names), lambda: self._example(state))

    # -- words -----------------------------------------------------------------------------

    def describe_position(
        self, state: BoostState, names: Sequence[str] | None = None, where: bool = False
    ) -> Phrase:
        return self.seats_described(state, names, lambda seat: words.seat_words(state, seat, where))

    def describe_move(
        self, state: BoostState, move: BoostMove, names: Sequence[str] | None = None
    ) -> Words:
        if isinstance(move, Pass):
            return super().describe_move(state, move, names)
        return words.describe_move(state, move, self._play(state, move), self.namer(names))

    # -- diagrams and persistence ----------------------------------------------------------

    def parse_diagram(self, text: str) -> BoostState:
        return diagram.parse(text, self.variants)

    def format_diagram(self, state: BoostState) -> str:
        return diagram.format_text(state)

    def _encode(self, state: BoostState) -> dict[str, Any]:
        return {
            **common_to_json(state),
            "board": diagram.rows(state, numbered=True)[:-1],
            "resigned": list(state.resigned),
            **({"timed_out": list(state.timed_out)} if state.timed_out else {}),
            "history": [diagram.key_text(masks) for masks in state.history],
        }

    def _decode(self, data: Mapping[str, Any]) -> BoostState:
        common = common_from_json(data)
        players = common["players"]
        if not 2 <= players <= MAX_SEATS:
            raise ValueError(f"Boost has 2 to {MAX_SEATS} seats")
        text = "\n".join(str(row) for row in data["board"]) + f"\nplayers: {players}"
        if common["variant"] != diagram.SIZE_VARIANT.get(len(data["board"])):
            text += f"\nvariant: {common['variant']}"
        try:
            masks = self.parse_diagram(text).masks
        except InvalidDiagram as error:
            raise InvalidState("rules.state.bad_board", game=self.name, error=error) from error
        history = tuple(diagram.key_masks(str(k), len(masks)) for k in data["history"])
        if not history or history[-1] != masks:
            raise ValueError("the history must end with the current arrangement")
        if not 1 <= common["turn"] <= players:
            raise ValueError(f"no seat {common['turn']} to move")
        resigned = tuple(int(s) for s in data["resigned"])
        return BoostState(
            masks=masks,
            resigned=resigned,
            timed_out=tuple(int(s) for s in data.get("timed_out", ())),
            history=History.of(history, map(zobrist, history)),
            **common,
        )


def _dragons(geo: Geometry, occ: int, rng: random.Random) -> int:
    """One dragon in the centre and three pairs opposite each other through it, each pair's
    first point drawn from the empty points of the upper ranks (reading order)."""
    dragons = 1 << geo.center
    ranks = DRAGON_RANKS[geo.size]
    for _ in range(DRAGON_PAIRS):
        taken = occ | dragons
        choices = [
            point
            for point in range(geo.count)
            if point % geo.size in ranks
            and not taken >> point & 1
            and not taken >> geo.mirror(point) & 1
        ]
        chosen = rng.choice(sorted(choices, key=lambda p: (p % geo.size, p // geo.size)))
        dragons |= (1 << chosen) | (1 << geo.mirror(chosen))
    return dragons


# Every field, in the order `_play` has them (see direct_constructor).
_made = direct_constructor(
    BoostState,
    (
        "masks",
        "resigned",
        "timed_out",
        "history",
        "zkey",
        "variant",
        "players",
        "turn",
        "ply",
        "result",
        "last",
    ),
)


def _unrepeated(geo: Geometry, state: BoostState, keys: list[int]) -> list[int]:
    """The keys whose move does not recreate an arrangement of the history.

    A move's arrangement key is the current one with two numbers XORed in or out; only when
    that key was seen, or the move may capture, is the resulting arrangement built and
    compared exactly.
    """
    masks, seen = state.masks, state.history.seen_keys()
    base = slot(state.turn, PAWN)
    own = own_mask(masks, state.turn)
    enemy = occupied(masks) & ~own & ~masks[DRAGONS]
    near, lines = geo.neighbour_mask, geo.lines
    # What can close a capture after a step: own pieces and dragons, the end point too. The
    # start point stays in, so this is a superset, and `_repeats` settles the rare maybes.
    anvil = own | masks[DRAGONS]
    towers = ZOBRIST[base + TOWER]
    kept: list[int] = []
    start_now, mover, lifted, table = -1, 0, 0, ZOBRIST[0]
    for key in keys:
        start, code = key >> 8, key & 255
        if code == PROMOTE_CODE:
            kept.append(key)  # a promotion can never repeat: a pawn is gone for good
            continue
        if code == BUILD_CODE:
            if state.zkey ^ towers[start] not in seen or not _repeats(geo, state, geo.moves[key]):
                kept.append(key)
            continue
        if start != start_now:
            start_now = start
            mover = owner_slot(masks, start) or DRAGONS
            table = ZOBRIST[mover]
            lifted = state.zkey ^ table[start]
        if mover == base + KNIGHT:
            may_capture = enemy >> code & 1
        else:  # an enemy next to the end, with an anvil right behind it
            may_capture = near[code] & enemy and any(
                enemy >> victim & 1 and (anvil | 1 << code) >> beyond & 1
                for victim, beyond in lines[code]
            )
        if (may_capture or lifted ^ table[code] in seen) and _repeats(geo, state, geo.moves[key]):
            continue
        kept.append(key)
    return kept


def _repeats(geo: Geometry, state: BoostState, move: Action) -> bool:
    after, _ = resolve(geo, state.masks, state.turn, move)
    if irreversible(state.masks, after):
        return False
    return state.history.holds(after, rekey(state.zkey, state.masks, after))


def _mask(geo: Geometry, squares: str) -> int:
    return sum(1 << geo.index[name] for name in squares.split())
