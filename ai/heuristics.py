"""Each game's evaluation: what a position is worth to a seat when the search stops early.

Scores are in rough "piece" units, positive good for the seat asked about; `scale` turns them
into a win chance (`ai.base.estimate`), fitted to level 3's games (ai/scales.py). docs/ai.md
explains every term.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ai.scales import SCALES
from rules.boku.board import LAYOUT as BOKU_LAYOUT
from rules.boku.board import NEIGHBOURS as BOKU_NEIGHBOURS
from rules.boku.board import WIN_LENGTH as BOKU_LENGTH
from rules.boku.board import Place as BokuPlace
from rules.boost.board import (
    DRAGONS,
    GEOMETRIES,
    KNIGHT,
    MAX_TOWERS,
    PAWN,
    TOWER,
    Build,
    Geometry,
    Masks,
    Promote,
    occupied,
    slot,
)
from rules.boost.state import alive_seats
from rules.kyo.board import CELLS as KYO_CELLS
from rules.kyo.board import SIZE as KYO_SIZE
from rules.quorum import Jump
from rules.razzle import Chain, Knight

# --- shared -------------------------------------------------------------------------------


class _Base:
    """Defaults: the position itself as the table key, and no move looks better unseen."""

    scale = 1.0

    def key(self, state: Any) -> Hashable:
        return (state.board, state.turn)

    def priority(self, state: Any, move: Any) -> float:
        return 0.0


def _lead(values: dict[int, float], seat: int) -> float:
    """A seat's value minus the best of its opponents': in a race only the leader matters."""
    return values[seat] - max(v for s, v in values.items() if s != seat)


# --- Boost --------------------------------------------------------------------------------

BOOST_PIECE = {PAWN: 1.0, KNIGHT: 3.0, TOWER: 4.0}
# A tower with 0-3 dragons beside it (4 wins the game): the last ones are worth the most.
BOOST_RING = (0.0, 0.6, 1.8, 4.5)
BOOST_DRAGON_NEAR = 0.25  # a dragon two steps from a tower: the next one to bring in
# An empty point with 3 (or 2) of its 4 neighbours the seat's own: a tower in the making.
BOOST_BUILD_3, BOOST_BUILD_2 = 1.2, 0.3
BOOST_PROMOTABLE = 0.6  # a pawn beside its tower, with a knight still to be had
BOOST_BEATEN = -30.0


def boost_values(
    geo: Geometry, masks: Masks, players: int, alive: Sequence[int], seat: int
) -> float:
    """The heart of BoostEvaluator, on the masks alone (ai/boost.py searches with these)."""
    dragons = masks[DRAGONS]
    near = geo.neighbour_mask
    values = {}
    for player in range(1, players + 1):
        if player not in alive:
            values[player] = BOOST_BEATEN
            continue
        base = slot(player, PAWN)
        pawns, knights, towers = masks[base], masks[base + KNIGHT], masks[base + TOWER]
        tower_count = towers.bit_count()
        value = sum(weight * masks[base + kind].bit_count() for kind, weight in BOOST_PIECE.items())
        rest = towers
        while rest:
            low = rest & -rest
            rest ^= low
            around = near[low.bit_length() - 1]
            value += BOOST_RING[min((around & dragons).bit_count(), 3)]
            value += BOOST_DRAGON_NEAR * (geo.adjacent(around) & ~around & dragons).bit_count()
        if tower_count < MAX_TOWERS:
            value += _building(geo, pawns | knights | towers, occupied(masks))
        if knights.bit_count() < tower_count and pawns & geo.adjacent(towers):
            value += BOOST_PROMOTABLE
        values[player] = value
    return _lead(values, seat)


def _building(geo: Geometry, own: int, taken: int) -> float:
    """What the seat's best tower in the making is worth: an empty interior point with three,
    or else two, of its four neighbours the seat's own."""
    size = geo.size
    a = (own >> 1) & geo.not_top
    b = (own << 1) & geo.not_bottom
    c = own >> size
    d = (own << size) & geo.full
    free = geo.interior & ~taken
    if free & ((a & b & (c | d)) | (c & d & (a | b))):
        return BOOST_BUILD_3
    if free & ((a & (b | c | d)) | (b & (c | d)) | (c & d)):
        return BOOST_BUILD_2
    return 0.0


class BoostEvaluator(_Base):
    scale = SCALES["boost"]

    def key(self, state: Any) -> Hashable:
        return (state.zkey, state.turn, state.resigned)

    def priority(self, state: Any, move: Any) -> float:
        return 2.0 if isinstance(move, Build) else 1.0 if isinstance(move, Promote) else 0.0

    def score(self, state: Any, seat: int) -> float:
        alive = alive_seats(state.masks, state.players, state.resigned)
        return boost_values(GEOMETRIES[state.size], state.masks, state.players, alive, seat)


# --- Kyo ----------------------------------------------------------------------------------

KYO_ITEM = {"P": 1.0, "H": 3.0, "T": 3.0, "Q": 5.0, "K": 0.0, "D": 0.4, "L": 0.4}
KYO_MANA_SHORT = 4  # fewer own mana chips than this and losing them all looms
KYO_ATTACK = 0.1  # per tile closer to the enemy king, for each pawn but the king


class KyoEvaluator(_Base):
    scale = SCALES["kyo"]

    def priority(self, state: Any, move: Any) -> float:
        return 1.0 if "x" in str(move) else 0.0  # strikes first

    def score(self, state: Any, seat: int) -> float:
        return kyo_score(state.board, seat)


def kyo_score(board: Sequence[str], seat: int) -> float:
    """KyoEvaluator's score on a bare board: ai/kyo.py judges the positions of its threat
    search without making states of them."""
    totals = {1: 0.0, 2: 0.0}
    mana = {1: 0, 2: 0}
    kings: dict[int, int] = {}
    attackers: dict[int, list[int]] = {1: [], 2: []}
    for cell in range(KYO_CELLS):
        for item in board[cell]:
            if item == "S":
                continue
            owner = 1 if item.isupper() else 2
            letter = item.upper()
            totals[owner] += KYO_ITEM[letter]
            if letter in "DL":
                mana[owner] += 1
            elif letter == "K":
                kings[owner] = cell
            else:  # every pawn but the king presses towards the enemy king
                attackers[owner].append(cell)
    for owner in (1, 2):
        totals[owner] -= max(0, KYO_MANA_SHORT - mana[owner]) * 2.0
        king = kings.get(3 - owner)
        if king is not None:
            for cell in attackers[owner]:
                totals[owner] -= KYO_ATTACK * _chebyshev(cell, king, KYO_SIZE)
    return totals[seat] - totals[3 - seat]


def _chebyshev(a: int, b: int, width: int) -> int:
    return max(abs(a % width - b % width), abs(a // width - b // width))


# --- Quorum -------------------------------------------------------------------------------

QUORUM_STONE = {1: "w", 2: "b"}
QUORUM_CENTRE = frozenset((27, 28, 35, 36))
QUORUM_HELD = 0.6  # x the square of the centre squares held: the third and fourth count most
QUORUM_NEAR = 0.05  # per step closer to the centre, for each stone
# Each square's 8 neighbours on the 8x8 board.
QUORUM_AROUND = tuple(
    tuple(
        (r + dr) * 8 + f + df
        for dr in (-1, 0, 1)
        for df in (-1, 0, 1)
        if (dr or df) and 0 <= r + dr < 8 and 0 <= f + df < 8
    )
    for r, f in (divmod(square, 8) for square in range(64))
)
QUORUM_CLOSENESS = tuple(3.5 - max(abs(c % 8 - 3.5), abs(c // 8 - 3.5)) for c in range(64))


class QuorumEvaluator(_Base):
    """Stones (a stone is a piece to jump over and one the opponent lacks), the centre held,
    and closeness to it."""

    scale = SCALES["quorum"]

    def priority(self, state: Any, move: Any) -> float:
        """Landing in the centre, then next to enemy stones (suffocation and conversion)."""
        if not isinstance(move, Jump):
            return 0.3  # a placement (or the pass, the only move then)
        target: int = move.target
        enemy = QUORUM_STONE[3 - state.turn]
        board: str = state.board
        near = sum(board[square] == enemy for square in QUORUM_AROUND[target])
        return (2.0 if target in QUORUM_CENTRE else 0.0) + 0.5 * near

    def score(self, state: Any, seat: int) -> float:
        values = {}
        board = state.board
        for player, stone in QUORUM_STONE.items():
            held = sum(board[c] == stone for c in QUORUM_CENTRE)
            near = sum(QUORUM_CLOSENESS[c] for c, s in enumerate(board) if s == stone)
            values[player] = board.count(stone) + held * held * QUORUM_HELD + near * QUORUM_NEAR
        return _lead(values, seat)


# --- Razzle Dazzle ------------------------------------------------------------------------

RAZZLE_WIDTH, RAZZLE_HEIGHT = 7, 8
RAZZLE_BALL = {1: "X", 2: "O"}
RAZZLE_PIECES = {1: "xX", 2: "oO"}
RAZZLE_GOAL = {1: RAZZLE_HEIGHT - 1, 2: 0}
RAZZLE_RECEIVER = 0.8  # a piece on the far row: a pass to it wins


def _razzle_progress(cell: int, player: int) -> int:
    rank = cell // RAZZLE_WIDTH
    return rank if player == 1 else RAZZLE_HEIGHT - 1 - rank


class RazzleEvaluator(_Base):
    """How far the ball and the pieces have come, and the receivers waiting on the far row."""

    scale = SCALES["razzle"]

    def key(self, state: Any) -> Hashable:
        """The repetition key: the board with the ineligible pieces marked, whether a throw
        is forced, and the seat to move (each changes the moves)."""
        key: str = state.key
        return key

    def priority(self, state: Any, move: Any) -> float:
        """Passes by how far they carry the ball; knight moves by the ground they gain."""
        seat = state.turn
        if isinstance(move, Chain):
            gain = _razzle_progress(move.path[-1], seat) - _razzle_progress(move.path[0], seat)
            return 1.0 + gain / RAZZLE_HEIGHT
        if not isinstance(move, Knight):
            return 0.0  # the pass, the only move then
        gain = _razzle_progress(move.target, seat) - _razzle_progress(move.origin, seat)
        return gain / (2 * RAZZLE_HEIGHT)

    def score(self, state: Any, seat: int) -> float:
        values = {}
        for player in (1, 2):
            values[player] = 0.0
            for cell, item in enumerate(state.board):
                if item in RAZZLE_PIECES[player]:
                    progress = _razzle_progress(cell, player)
                    if item == RAZZLE_BALL[player]:
                        values[player] += progress * 0.6
                    else:
                        values[player] += progress * 0.15
                        if cell // RAZZLE_WIDTH == RAZZLE_GOAL[player]:
                            values[player] += RAZZLE_RECEIVER
        return _lead(values, seat)


# --- Boku ---------------------------------------------------------------------------------

# Every stretch of five cells along a line, as slices of the layout string (rules.boku).
BOKU_FIVES = tuple(
    slice(at, at + BOKU_LENGTH)
    for at in range(len(BOKU_LAYOUT) - BOKU_LENGTH + 1)
    if min(BOKU_LAYOUT[at : at + BOKU_LENGTH]) >= 0
)
# A stretch of five holding only one side's marbles, by how many: the rows in the making.
BOKU_ROW = (0.0, 0.05, 0.3, 1.5, 8.0, 0.0)
BOKU_MARBLE = 1.0  # a marble on the board (captures take them off)


class BokuEvaluator(_Base):
    """Rows in the making (each stretch of five holding one side's marbles only, weighted
    steeply by how many) and marbles on the board (captures)."""

    scale = SCALES["boku"]

    def key(self, state: Any) -> Hashable:
        return (state.board, state.turn, state.blocked)  # the blocked cell changes the moves

    def priority(self, state: Any, move: Any) -> float:
        """Captures first, then cells next to many marbles (where rows grow or are blocked)."""
        if not isinstance(move, BokuPlace):
            return 0.0
        board: str = state.board
        near = sum(board[cell] != "." for cell in BOKU_NEIGHBOURS[move.cell])
        return near + (3.0 if move.removed is not None else 0.0)

    def score(self, state: Any, seat: int) -> float:
        lines: str = state.lines
        rows = {"1": 0.0, "2": 0.0}
        for stretch in BOKU_FIVES:
            five = lines[stretch]
            ones, twos = five.count("1"), five.count("2")
            if ones and not twos:
                rows["1"] += BOKU_ROW[ones]
            elif twos and not ones:
                rows["2"] += BOKU_ROW[twos]
        board: str = state.board
        mine, theirs = str(seat), str(3 - seat)
        marbles = board.count(mine) - board.count(theirs)
        return rows[mine] - rows[theirs] + BOKU_MARBLE * marbles
