"""Boku: place marbles on an 80-cell hexagon, make five in a row, capture enclosed pairs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.boku import diagram, explain, notation, words
from rules.boku.board import (
    CELL_COUNT,
    EMPTY,
    FIVES,
    MARBLE,
    MARKS,
    NAMES,
    PLACES,
    SEAT_KEYS,
    SIZE,
    BokuMove,
    Place,
    put,
    wins,
)
from rules.boku.state import BokuState, listed, made, moves_and_taking, position_key
from rules.errors import RulesError
from rules.game import Game, Variant
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase, Words, phrase
from rules.repetition import History
from rules.state import Highlight, Pass, common_from_json, common_to_json


class Boku(Game[BokuState, BokuMove]):
    name = "boku"
    title = "Boku"
    board_size = (SIZE, SIZE)
    default_variant = "standard"
    variants = {
        "standard": Variant("standard", phrase("rules.variant.boku.standard"), (2,)),
    }
    seat_keys = SEAT_KEYS
    repetition_draw = 3  # the third occurrence of a position draws
    help_topics = (
        "overview",
        "board",
        "placing",
        "winning",
        "capturing",
        "blocked",
        "draws",
    )

    def _setup(self, variant: str, players: int, seed: int) -> BokuState:
        board = EMPTY * CELL_COUNT
        return BokuState(board=board, variant=variant)

    # -- moves ---------------------------------------------------------------------------

    def repetitions(self, state: BokuState) -> int:
        return state.history.occurrences(state.history[-1]) if state.history else 0

    def legal_moves(self, state: BokuState) -> tuple[BokuMove, ...]:
        return state.moves

    def apply(self, state: BokuState, move: BokuMove, *, check: bool = True) -> BokuState:
        # Legal moves are shared objects, so telling one of them by identity is an exact check
        # that skips comparing dataclasses field by field; anything else takes the usual
        # path, which also explains a refusal.
        if not check or (state.result is None and listed(state, move)):
            return self._play(state, move)
        return super().apply(state, move)

    def _play(self, state: BokuState, move: BokuMove) -> BokuState:
        seat = state.turn
        following = 3 - seat
        board, lines, places = state.board, state.lines, state.places
        result: Outcome | None = None
        blocked: int | None = None
        if isinstance(move, Place):
            mine = MARBLE[seat]
            cell, removed = move.cell, move.removed
            plain = removed is None
            at = board.count(EMPTY, 0, cell)
            places = places[:at] + places[at + 1 :]
            board = board[:cell] + mine + board[cell + 1 :]
            lines = put(lines, cell, mine)
            highlight = MARKS[seat][cell, removed]
            if removed is not None:
                board = board[:removed] + EMPTY + board[removed + 1 :]
                lines = put(lines, removed, EMPTY)
                at = board.count(EMPTY, 0, removed)
                places = (*places[:at], PLACES[removed], *places[at:])
                blocked = removed
            # A five anywhere is rare, so looking for one first spares the exact check.
            if FIVES[mine] in lines and wins(lines, cell, mine):
                result = Outcome((seat,), Reason.FIVE)
            elif not places:
                result = Outcome((), Reason.BOARD_FULL)
        else:
            plain = False
            highlight = Highlight(seat, "pass")
        # Marbles only multiply except when one is captured, so a position can only recur
        # after captures and passes: a plain placement starts the history afresh.
        history: History[str] | None = None
        if not plain:
            key = position_key(board, blocked, following)
            history = state.history.then(key)
            if result is None and history.occurrences(key) >= self.repetition_draw:
                result = Outcome((), Reason.REPETITION)
        moves, taking = moves_and_taking(board, lines, places, blocked, following, result)
        return made(
            board,
            blocked,
            history,
            lines,
            places,
            moves,
            taking,
            state.variant,
            2,
            following,
            state.ply + 1,
            result,
            highlight,
        )

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: BokuState, move: BokuMove) -> str:
        return notation.format_move(move)

    def move_tokens(self, state: BokuState, move: BokuMove) -> tuple[str, ...]:
        return notation.move_tokens(move)

    def normalize(self, text: str) -> str:
        return notation.normalize(text)

    def diagnose(
        self, state: BokuState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        return explain.refusal(state, text, self.namer(names))

    # -- words -----------------------------------------------------------------------------

    def describe_position(self, state: BokuState, names: Sequence[str] | None = None) -> Phrase:
        return self.seats_described(state, names, lambda seat: words.seat_words(state, seat))

    def describe_move(
        self, state: BokuState, move: BokuMove, names: Sequence[str] | None = None
    ) -> Words:
        if isinstance(move, Pass):
            return super().describe_move(state, move, names)
        return words.describe_move(state, move, self.namer(names))

    # -- diagrams and persistence ----------------------------------------------------------

    def parse_diagram(self, text: str) -> BokuState:
        return diagram.parse(text)

    def format_diagram(self, state: BokuState) -> str:
        return diagram.format_text(state)

    # -- persistence -----------------------------------------------------------------------

    def _encode(self, state: BokuState) -> dict[str, Any]:
        return {
            **common_to_json(state),
            "board": state.board,
            "blocked": None if state.blocked is None else NAMES[state.blocked],
            "history": list(state.history),
        }

    def _decode(self, data: Mapping[str, Any]) -> BokuState:
        board = str(data["board"])
        if len(board) != CELL_COUNT or set(board) - {EMPTY, *MARBLE.values()}:
            raise ValueError(f"board must be {CELL_COUNT} cells of '.', '1', '2'")
        blocked = None if data["blocked"] is None else NAMES.index(str(data["blocked"]))
        if blocked is not None and board[blocked] != EMPTY:
            raise ValueError("the blocked cell must be empty")
        keys = [str(key) for key in data["history"]]
        state = BokuState(
            board=board,
            blocked=blocked,
            earlier=History.of(keys) if len(keys) > 1 else None,
            **common_from_json(data),
        )
        if state.turn not in (1, 2) or state.players != 2:
            raise ValueError("Boku has seats 1 and 2")
        return state
