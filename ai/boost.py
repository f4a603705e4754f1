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

from ai.alphabeta import WIN, CutMemory, value_chance
from ai.base import Budget, Choice, Limit, OutOfBudget, judged, seat_chances
from ai.heuristics import BoostEvaluator, boost_values
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
from rules.core import Game

EXACT, LOWER, UPPER = 0, 1, 2
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
            return Choice(
                moves[0],
                {"nodes": 0, "depth": 0, "chances": judged(self.evaluator, state, players)},
            )
        rng.shuffle(moves)  # ties go to a random move, not to the first generated
        search = _Search(state, Budget(limit))
        keys = [_key(move) for move in moves]
        keys.sort(key=lambda k: -search.guess(state.masks, state.turn, k, 0))
        best, value, depth = keys[0], 0.0, 0
        for target in range(1, MAX_DEPTH + 1):
            found, found_value, complete = search.root(keys, target)
            if found is not None:
                best, value = found, found_value
                depth = target if complete else depth
            if not complete or abs(value) >= WIN / 2:
                break
            keys.remove(best)
            keys.insert(0, best)
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
        self.table: dict[tuple[int, int], tuple[int, float, int, int]] = {}
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
        entry = self.table.get((zkey, turn))
        hint = PASS_KEY - 1
        if entry is not None:
            stored_depth, stored, flag, hint = entry
            if stored_depth >= depth and (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                return stored
        keys = action_keys(self.geo, masks, turn)
        if not keys:
            if not any(action_keys(self.geo, masks, s) for s in alive if s != turn):
                return 0.0  # nobody can move: a draw
            keys = [PASS_KEY]
        maximising = turn == self.seat
        ordered = sorted(
            keys,
            key=lambda k: -(FIRST if k == hint else self.guess(masks, turn, k, ply)),
        )
        seen = self.seen
        seen.add(zkey)
        start_alpha, start_beta = alpha, beta
        best_value = -WIN * 2 if maximising else WIN * 2
        best_key = PASS_KEY
        searched = 0
        try:
            for key in ordered:
                child = self._child(masks, zkey, turn, alive, key)
                if child[1] in seen and key != PASS_KEY:
                    continue
                searched += 1
                value = self._value(*child, depth - 1, ply + 1, alpha, beta)
                if maximising and value > best_value:
                    best_value, best_key = value, key
                    alpha = max(alpha, value)
                elif not maximising and value < best_value:
                    best_value, best_key = value, key
                    beta = min(beta, value)
                if alpha >= beta:
                    self.cuts.remember(key, ply, depth)
                    break
            if not searched:  # every move repeats: then any is allowed (rule 7)
                for key in ordered:
                    child = self._child(masks, zkey, turn, alive, key)
                    value = self._value(*child, depth - 1, ply + 1, alpha, beta)
                    if maximising and value > best_value:
                        best_value, best_key = value, key
                        alpha = max(alpha, value)
                    elif not maximising and value < best_value:
                        best_value, best_key = value, key
                        beta = min(beta, value)
                    if alpha >= beta:
                        break
        finally:
            if zkey not in self.root_seen:
                seen.discard(zkey)
        if best_value <= start_alpha:
            flag = UPPER
        elif best_value >= start_beta:
            flag = LOWER
        else:
            flag = EXACT
        self.table[zkey, turn] = (depth, best_value, flag, best_key)
        return best_value

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
