"""Razzle Dazzle: knights that throw a ball, racing it to the opponent's back row.

A turn is one knight move or a whole chain of throws. Pieces that threw or caught the ball
stay ineligible receivers until they make a knight move, so that memory travels in the
state; so does the forced-throw condition left by the opponent's last knight move.

Words players read: the ball is *thrown* (a throw, a chain of throws) and *caught*; a turn
that must include a throw is a *forced throw*; *pass* is only the move of a player with no
legal turn at all. The seed calls a throw a "pass"; that word stays out of players' texts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RulesError
from rules.game import Game, Variant
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase, Words, phrase
from rules.razzle import diagram, explain, notation, words
from rules.razzle.board import (
    BALL,
    EMPTY,
    GOAL_RANK,
    HEIGHT,
    KNIGHT_MOVES_BY_BLOCKED,
    KNIGHT_TARGETS,
    NEIGHBOURS,
    ORDINAL,
    PIECE,
    SEAT_KEYS,
    TURN_LIMIT,
    WIDTH,
    Chain,
    Knight,
    RazzleMove,
    knight_moves,
    path_highlight,
    start_board,
    throw_chains,
)
from rules.razzle.state import RazzleState, made, marked_key, position_key
from rules.repetition import History
from rules.state import PASS, Highlight, Pass, common_from_json, common_to_json


class RazzleDazzle(Game[RazzleState, RazzleMove]):
    name = "razzle"
    title = "Razzle Dazzle"
    board_size = (WIDTH, HEIGHT)
    seat_keys = SEAT_KEYS
    repetition_draw = 3  # the third occurrence of a position draws
    default_variant = "standard"
    variants = {
        "standard": Variant("standard", phrase("rules.variant.razzle.standard"), (2,)),
    }
    help_topics = (
        "overview",
        "setup",
        "moving",
        "throwing",
        "ineligible",
        "forced-throw",
        "winning",
        "draws",
        "notation",
    )

    def _setup(self, variant: str, players: int, seed: int) -> RazzleState:
        board = start_board()
        return RazzleState(
            board=board,
            variant=variant,
            history=History.start(position_key(board, frozenset(), False, 1)),
        )

    # -- moves ---------------------------------------------------------------------------

    def repetitions(self, state: RazzleState) -> int:
        return state.history.occurrences(state.history[-1]) if state.history else 0

    def legal_moves(self, state: RazzleState) -> tuple[RazzleMove, ...]:
        if state.result is not None:
            return ()
        board = state.board
        seat = state.turn
        piece = PIECE[seat]
        holder = board.index(BALL[seat])
        # The pieces, found with str.find and put in notation order: quicker than visiting
        # all 56 squares (about a tenth of a playout's time).
        pieces = []
        at = board.find(piece)
        while at >= 0:
            pieces.append(at)
            at = board.find(piece, at + 1)
        pieces.sort(key=ORDINAL.__getitem__)
        ineligible = state.ineligible
        receivers = [square for square in pieces if square not in ineligible]
        occupied = state.occupied
        chains = throw_chains(holder, receivers, occupied, GOAL_RANK[seat])
        if state.forced and chains:
            return tuple(chains)
        moves: list[RazzleMove] = []
        known_knight_moves = KNIGHT_MOVES_BY_BLOCKED  # knight_moves's lookup, inlined
        for square in pieces:
            if chains and ORDINAL[holder] < ORDINAL[square]:
                moves += chains
                chains = []
            knights = known_knight_moves[square].get(occupied & KNIGHT_TARGETS[square])
            moves += knights if knights is not None else knight_moves(square, occupied)
        moves += chains
        return tuple(moves) if moves else (PASS,)

    def _play(self, state: RazzleState, move: RazzleMove) -> RazzleState:
        seat = state.turn
        opponent = 3 - seat
        cells = list(state.board)
        ineligible = state.ineligible
        forced = False
        result: Outcome | None = None
        path: tuple[int, ...] = ()
        occupied = state.occupied
        if isinstance(move, Knight):
            cells[move.target], cells[move.origin] = cells[move.origin], EMPTY
            occupied ^= (1 << move.origin) | (1 << move.target)
            if move.origin in ineligible:
                ineligible = ineligible - {move.origin}
            forced = state.board.index(BALL[opponent]) in NEIGHBOURS[move.target]
            path = (move.origin, move.target)
        elif isinstance(move, Chain):
            path = move.path
            cells[path[0]], cells[path[-1]] = PIECE[seat], BALL[seat]
            ineligible = ineligible.union(path)
            if path[-1] // WIDTH == GOAL_RANK[seat]:
                result = Outcome((seat,), Reason.GOAL)
        board = "".join(cells)
        key = marked_key(cells, ineligible, forced, opponent)
        history = state.history.then(key)
        if result is None and history.occurrences(key) >= self.repetition_draw:
            result = Outcome((), Reason.REPETITION)
        elif result is None and state.ply + 1 >= TURN_LIMIT:
            result = Outcome((), Reason.MOVE_LIMIT)
        return made(
            board,
            ineligible,
            forced,
            history,
            occupied,
            state.variant,
            state.players,
            opponent,
            state.ply + 1,
            result,
            path_highlight(seat, path) if path else Highlight(seat, "pass"),
        )

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: RazzleState, move: RazzleMove) -> str:
        return notation.format_move(move)

    def move_tokens(self, state: RazzleState, move: RazzleMove) -> tuple[str, ...]:
        return notation.move_tokens(move)

    def normalize(self, text: str) -> str:
        return notation.normalize(text)

    def diagnose(
        self, state: RazzleState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        return explain.refusal(state, text, self.namer(names), lambda: self._example(state))

    # -- words -----------------------------------------------------------------------------

    def describe_position(self, state: RazzleState, names: Sequence[str] | None = None) -> Phrase:
        return self.seats_described(state, names, lambda seat: words.seat_words(state, seat))

    def describe_move(
        self, state: RazzleState, move: RazzleMove, names: Sequence[str] | None = None
    ) -> Words:
        if isinstance(move, Pass):
            return super().describe_move(state, move, names)
        after = self._play(state, move)
        return words.describe_move(move, after, self.legal_moves, self.namer(names))

    # -- diagrams and persistence ----------------------------------------------------------

    def parse_diagram(self, text: str) -> RazzleState:
        return diagram.parse(text)

    def format_diagram(self, state: RazzleState) -> str:
        return diagram.format_text(state)

    # -- persistence -----------------------------------------------------------------------

    def _encode(self, state: RazzleState) -> dict[str, Any]:
        return {
            **common_to_json(state),
            "board": state.board,
            "ineligible": sorted(state.ineligible),
            "forced": state.forced,
            "history": list(state.history),
        }

    def _decode(self, data: Mapping[str, Any]) -> RazzleState:
        board = str(data["board"])
        if len(board) != WIDTH * HEIGHT or set(board) - {EMPTY, "x", "X", "o", "O"}:
            raise ValueError("board must be 56 cells of '.', 'x', 'X', 'o', 'O'")
        if board.count("X") != 1 or board.count("O") != 1:
            raise ValueError("each side needs exactly one ball")
        ineligible = frozenset(int(s) for s in data["ineligible"])
        if any(not 0 <= s < WIDTH * HEIGHT or board[s] == EMPTY for s in ineligible):
            raise ValueError("ineligible squares must hold pieces")
        forced = data["forced"]
        if not isinstance(forced, bool):
            raise ValueError("forced must be true or false")
        state = RazzleState(
            board=board,
            ineligible=ineligible,
            forced=forced,
            history=History.of(str(k) for k in data["history"]),
            **common_from_json(data),
        )
        if state.turn not in (1, 2) or state.players != 2:
            raise ValueError("Razzle Dazzle has seats 1 and 2")
        return state
