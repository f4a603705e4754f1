"""Boost's own alpha-beta: the position as bit masks, searched without the rules' notation.

The rules' `apply` builds a full state (notation, highlight, path, history) for every move;
a search needs none of that. Here a node is its masks, Zobrist key, seat to move and live
seats; a child is made with `resolve` and `rekey` only when it is searched, so the moves a
cut-off skips are never applied. Children are ordered by cheap guesses read from the move key
and the masks (the table's best move, builds, captures, promotions, dragons closing on a
tower, then the killer moves and the history of cut-offs), never by applying and scoring
them. Repetition (rule 7) is a set of keys: the game's history at the root plus the line
being searched; a child that recreates one is skipped unless every child would.

With 3-4 seats the search is paranoid, as ai/alphabeta.py explains: every other seat plays
against the seat at the root. Iterative deepening keeps the best move of the last finished
depth (and of the unfinished one once its first move, the previous best, is searched), so a
move is always ready when the budget ends.
"""

from __future__ import annotations

import random
from typing import Any

from ai.alphabeta import CutMemory, Table, Window, deepen
from ai.base import WIN, Budget, Choice, Limit, OutOfBudget, seat_chances, value_chance
from ai.heuristics import BoostEvaluator, boost_values
from ai.reference import forced
from rules.boost.board import (
    BUILD_CODE,
    DRAGONS,
    GEOMETRIES,
    KNIGHT,
    PAWN,
    PROMOTE_CODE,
    TOWER,
    Build,
    Geometry,
    Masks,
    Promote,
    Step,
    action_keys,
    occupied,
    own_mask,
    rekey,
    resolve,
    slot,
    zobrist,
)
from rules.boost.state import BoostState, alive_seats, following
from rules.game import Game

PASS_KEY = -1
MAX_DEPTH = 64
# Move-ordering guesses, higher first; the killer moves (ai.alphabeta.KILLER) and the
# history of cut-offs come after these.
FIRST, BUILD, CAPTURE, PROMOTE, RING = 1e12, 8e9, 6e9, 4e9, 2e9


class BoostSearch:
    """The Bot for Boost."""

    def __init__(self, evaluator: BoostEvaluator) -> None:
        self.evaluator = evaluator

    def choose(
        self, game: Game[Any, Any], state: BoostState, limit: Limit, rng: random.Random
    ) -> Choice:
        players = state.players
        moves = list(game.legal_moves(state))
        if len(moves) == 1:
            return forced(game, state, moves, self.evaluator, rng)
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        search = _Search(state, Budget(limit))
        keys = [_key(move) for move in moves]
        keys.sort(key=lambda k: -search.guess(state.masks, state.turn, k, 0))
        best, value, depth = deepen(search.root, keys, MAX_DEPTH)
        move = next(m for m in moves if _key(m) == best)
        chances = seat_chances(state.turn, value_chance(value, self.evaluator.scale), players)
        info = {"nodes": search.budget.nodes, "depth": depth, "value": value, "chances": chances}
        return Choice(move, info)


def _key(move: Any) -> int:
    if isinstance(move, Step):
        return move.start << 8 | move.end
    if isinstance(move, Build):
        return move.point << 8 | BUILD_CODE
    if isinstance(move, Promote):
        return move.point << 8 | PROMOTE_CODE
    return PASS_KEY


class _Search:
    def __init__(self, state: BoostState, budget: Budget) -> None:
        self.geo: Geometry = GEOMETRIES[state.size]
        self.size = state.size
        self.players = state.players
        self.resigned = state.resigned
        self.seat = state.turn
        self.budget = budget
        self.root_masks = state.masks
        self.root_key = state.zkey
        self.alive = alive_seats(state.masks, state.players, state.resigned)
        self.root_seen = frozenset(map(zobrist, state.history))
        self.seen = set(self.root_seen)
        self.table = Table()
        self.cuts = CutMemory()

    # -- ordering --------------------------------------------------------------------------

    def guess(self, masks: Masks, seat: int, key: int, ply: int) -> float:
        """How worth searching first a move looks, from its key and the masks alone."""
        if key == PASS_KEY:
            return 0.0
        start, code = key >> 8, key & 255
        if code == BUILD_CODE:
            return BUILD
        if code == PROMOTE_CODE:
            return PROMOTE
        geo = self.geo
        base = slot(seat, PAWN)
        own = own_mask(masks, seat)
        dragons = masks[DRAGONS]
        enemy = occupied(masks) & ~own & ~dragons
        end_bit = 1 << code
        if masks[base + KNIGHT] >> start & 1:
            if enemy & end_bit:
                return CAPTURE + 1
        else:
            anvil = own | dragons | end_bit
            for victim, beyond in geo.lines[code]:
                if enemy >> victim & 1 and anvil >> beyond & 1 and beyond != start:
                    return CAPTURE
            if dragons >> start & 1:
                towers = masks[base + TOWER]
                near = geo.neighbour_mask
                if near[code] & towers and not near[start] & towers:
                    return RING
        return self.cuts.bonus(key, ply)

    # -- the tree --------------------------------------------------------------------------

    def root(self, keys: list[int], depth: int) -> tuple[int | None, float, bool]:
        """The best root move at `depth`, its value, and whether every move was searched."""
        best, best_value = None, -WIN * 2
        masks, zkey = self.root_masks, self.root_key
        for key in keys:
            try:
                child = self._child(masks, zkey, self.seat, self.alive, key)
                value = self._value(*child, depth - 1, 1, best_value, WIN * 2)
            except OutOfBudget:
                return best, best_value, False
            if value > best_value:
                best, best_value = key, value
        return best, best_value, True

    def _child(
        self, masks: Masks, zkey: int, seat: int, alive: tuple[int, ...], key: int
    ) -> tuple[Masks, int, int, tuple[int, ...]]:
        """The position after `key`: masks, Zobrist key, seat to move, live seats."""
        if key == PASS_KEY:
            return masks, zkey, following(seat, alive, self.players), alive
        after, captured = resolve(self.geo, masks, seat, self.geo.moves[key])
        if captured:
            alive = alive_seats(after, self.players, self.resigned)
        return after, rekey(zkey, masks, after), following(seat, alive, self.players), alive

    def _value(
        self,
        masks: Masks,
        zkey: int,
        turn: int,
        alive: tuple[int, ...],
        depth: int,
        ply: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The root seat's value of a position, searched `depth` plies further."""
        budget = self.budget
        if budget.exhausted():
            raise OutOfBudget
        budget.spend()
        ended = self._ended(masks, alive)
        if ended is not None:
            return ended - ply if ended > 0 else ended + ply if ended < 0 else 0.0
        if depth <= 0:
            return boost_values(self.geo, masks, self.players, alive, self.seat)
        stored, hint = self.table.probe((zkey, turn), depth, alpha, beta)
        if stored is not None:
            return float(stored)
        keys = action_keys(self.geo, masks, turn)
        if not keys:
            if not any(action_keys(self.geo, masks, s) for s in alive if s != turn):
                return 0.0  # nobody can move: a draw
            keys = [PASS_KEY]
        ordered = sorted(
            keys,
            key=lambda k: -(FIRST if k == hint else self.guess(masks, turn, k, ply)),
        )
        window = Window(alpha, beta, turn == self.seat)
        position = (masks, zkey, turn, alive)
        self.seen.add(zkey)
        try:
            if not self._children(position, ordered, window, depth, ply, fresh=True):
                # every move repeats an arrangement: then any is allowed (rule 7)
                self._children(position, ordered, window, depth, ply, fresh=False)
        finally:
            if zkey not in self.root_seen:
                self.seen.discard(zkey)
        self.table.store((zkey, turn), depth, window)
        return window.value

    def _children(
        self,
        position: tuple[Masks, int, int, tuple[int, ...]],
        ordered: list[int],
        window: Window,
        depth: int,
        ply: int,
        *,
        fresh: bool,
    ) -> int:
        """Search the children in order until the window closes; with `fresh`, skip those
        that recreate an arrangement of the line. Returns how many were searched."""
        searched = 0
        for key in ordered:
            child = self._child(*position, key)
            if fresh and key != PASS_KEY and child[1] in self.seen:
                continue
            searched += 1
            value = self._value(*child, depth - 1, ply + 1, window.alpha, window.beta)
            if window.offer(value, key):
                self.cuts.remember(key, ply, depth)
                break
        return searched

    def _ended(self, masks: Masks, alive: tuple[int, ...]) -> float | None:
        """WIN, -WIN or 0 (a draw) once the game is over, else None (rule 9)."""
        geo = self.geo
        ringed = geo.surrounded(masks[DRAGONS])
        if ringed:
            winners = [
                s
                for s in range(1, self.players + 1)
                if s not in self.resigned and masks[slot(s, TOWER)] & ringed
            ]
            if winners:
                return WIN if self.seat in winners else -WIN
        if len(alive) == 1:
            return WIN if alive[0] == self.seat else -WIN
        if not alive:
            return 0.0
        if self.seat not in alive:
            return -WIN
        return None
