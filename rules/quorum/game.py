"""Quorum: jump your stones over your own, smother and flip the opponent's, hold the centre."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.direct import make_highlight
from rules.errors import RulesError
from rules.game import Game, Variant
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase, Words, phrase
from rules.quorum import diagram, explain, notation, words
from rules.quorum.board import (
    ALL_SQUARES,
    BIT,
    BLACK,
    CENTRE_BITS,
    EMPTY,
    HOME_MASKS,
    HOMES,
    JUMP_AT,
    NAMES,
    NEIGHBOUR_BITS,
    PLACE,
    POINTS,
    REACH,
    SEAT_KEYS,
    SHIFTS,
    SIZE,
    STONE,
    WHITE,
    Jump,
    Place,
    QuorumMove,
    bits,
    smother_and_flip,
    start_board,
)
from rules.quorum.state import QuorumState, made
from rules.repetition import History
from rules.state import PASS, Pass, common_from_json, common_to_json


class Quorum(Game[QuorumState, QuorumMove]):
    name = "quorum"
    title = "Quorum"
    board_size = (SIZE, SIZE)
    default_variant = "standard"
    variants = {
        "standard": Variant("standard", phrase("rules.variant.quorum.standard"), (2,)),
    }
    seat_keys = SEAT_KEYS
    repetition_draw = 3  # the third occurrence of a position draws
    help_topics = (
        "overview",
        "setup",
        "moving",
        "suffocation",
        "conversion",
        "placement",
        "winning",
    )

    def _setup(self, variant: str, players: int, seed: int) -> QuorumState:
        board = start_board()
        return QuorumState(board=board, variant=variant, history=History.start(f"{board}1"))

    # -- moves ---------------------------------------------------------------------------

    def repetitions(self, state: QuorumState) -> int:
        return state.history.occurrences(state.history[-1]) if state.history else 0

    def legal_moves(self, state: QuorumState) -> tuple[QuorumMove, ...]:
        if state.result is not None:
            return ()
        stones = state.stones
        mine, empty = stones[state.turn], ALL_SQUARES ^ (stones[1] | stones[2])
        raised_mine, raised_empty = mine << REACH, empty << REACH
        keys: list[int] = []
        add = keys.append
        for actives, to_center, to_target, keyed in SHIFTS:
            found = mine & actives & (raised_mine >> to_center) & (raised_empty >> to_target)
            while found:
                top = found.bit_length() - 1
                add(keyed[top])
                found ^= BIT[top]
        keys.sort()
        moves: list[QuorumMove] = list(map(JUMP_AT.__getitem__, keys))
        if empty & HOME_MASKS[state.turn]:
            moves.append(PLACE)
        return tuple(moves) if moves else (PASS,)

    def _play(self, state: QuorumState, move: QuorumMove) -> QuorumState:
        seat = state.turn
        following = 3 - seat
        cells = list(state.board)
        stones = list(state.stones)
        captured: tuple[int, ...] = ()
        changed: tuple[int, ...] = ()
        if isinstance(move, Jump):
            active, target = move.active, move.target
            cells[target] = cells[active]
            cells[active] = EMPTY
            stones[seat] ^= BIT[active] | BIT[target]
            # Both touch only enemy stones next to the landing square: often there are none.
            if stones[following] & NEIGHBOUR_BITS[target]:
                captured, changed = smother_and_flip(stones, target, seat)
                for square in captured:
                    cells[square] = EMPTY
                for square in changed:
                    cells[square] = STONE[seat]
            highlight = make_highlight(
                seat,
                NAMES[active] + NAMES[target],
                (POINTS[active], POINTS[target]),
                tuple(map(POINTS.__getitem__, captured)) if captured else (),
                tuple(map(POINTS.__getitem__, changed)) if changed else (),
            )
        else:
            if isinstance(move, Place):
                changed = tuple(h for h in HOMES[seat] if cells[h] == EMPTY)
                for home in changed:
                    cells[home] = STONE[seat]
                stones[seat] |= bits(changed)
            highlight = make_highlight(
                seat, self.format_move(state, move), (), (), tuple(map(POINTS.__getitem__, changed))
            )
        board = "".join(cells)
        key = f"{board}{following}"
        history = state.history.then(key)
        result: Outcome | None = None
        if stones[seat] & CENTRE_BITS == CENTRE_BITS:
            result = Outcome((seat,), Reason.QUORUM)
        elif history.occurrences(key) >= self.repetition_draw:
            result = Outcome((), Reason.REPETITION)
        return made(
            board,
            history,
            (0, stones[1], stones[2]),
            state.variant,
            state.players,
            following,
            state.ply + 1,
            result,
            highlight,
        )

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: QuorumState, move: QuorumMove) -> str:
        return notation.format_move(move)

    def move_tokens(self, state: QuorumState, move: QuorumMove) -> tuple[str, ...]:
        return notation.move_tokens(move)

    def normalize(self, text: str) -> str:
        return notation.normalize(text)

    def diagnose(
        self, state: QuorumState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        return explain.refusal(state, text, self.namer(names))

    # -- words -----------------------------------------------------------------------------

    def describe_position(self, state: QuorumState, names: Sequence[str] | None = None) -> Phrase:
        return self.seats_described(state, names, lambda seat: words.seat_words(state, seat))

    def describe_move(
        self, state: QuorumState, move: QuorumMove, names: Sequence[str] | None = None
    ) -> Words:
        if isinstance(move, Pass):
            return super().describe_move(state, move, names)
        return words.describe_move(state, move, self._play(state, move), self.namer(names))

    # -- diagrams and persistence ----------------------------------------------------------

    def parse_diagram(self, text: str) -> QuorumState:
        return diagram.parse(text)

    def format_diagram(self, state: QuorumState) -> str:
        return diagram.format_text(state)

    def _encode(self, state: QuorumState) -> dict[str, Any]:
        return {**common_to_json(state), "board": state.board, "history": list(state.history)}

    def _decode(self, data: Mapping[str, Any]) -> QuorumState:
        board = str(data["board"])
        if len(board) != SIZE * SIZE or set(board) - {EMPTY, WHITE, BLACK}:
            raise ValueError("board must be 64 cells of '.', 'w', 'b'")
        state = QuorumState(
            board=board,
            history=History.of(str(k) for k in data["history"]),
            **common_from_json(data),
        )
        if state.turn not in (1, 2) or state.players != 2:
            raise ValueError("Quorum has seats 1 and 2")
        return state
