"""Kyo: pawns on stacks of mana and shield chips, walking mana roads to strike the king."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.errors import IllegalMove, InvalidMove, RulesError
from rules.game import Game, Variant
from rules.kyo import diagram, notation, words
from rules.kyo.board import (
    BY_NAME,
    CELLS,
    ITEM_LETTERS,
    LIGHT_PAWN_RANKS,
    SEAT_KEYS,
    SIDES,
    SIZE,
    point,
    position_key,
    start_board,
)
from rules.kyo.picker import completions, label, nearest, turn_tree
from rules.kyo.replay import simulate
from rules.kyo.state import DEFAULT_VARIANT, KyoMove, KyoState, Turn, winner
from rules.kyo.turns import Board, first_turn, legal_turns, shortest_spelling
from rules.movetree import BUDGET, MoveTree
from rules.outcomes import Outcome
from rules.phrases import Phrase, Words, phrase
from rules.state import PASS, Highlight, Pass, common_from_json, common_to_json

SPELLING_BUDGET = 2000  # actions tried looking for a typed turn's shortest spelling


_CACHE_SIZE = 16


class Kyo(Game[KyoState, KyoMove]):
    name = "kyo"
    title = "Kyo"
    board_size = (SIZE, SIZE)
    default_variant = DEFAULT_VARIANT
    variants = {
        "trench": Variant("trench", phrase("rules.variant.kyo.trench"), (2,)),
        "open": Variant("open", phrase("rules.variant.kyo.open"), (2,)),
        "deadlock": Variant("deadlock", phrase("rules.variant.kyo.deadlock"), (2,)),
    }
    seat_keys = SEAT_KEYS
    repetition_draw = 3  # the third occurrence of a position draws
    may_list_slowly = True
    help_topics = (
        "overview",
        "setup",
        "stacks",
        "direct",
        "mana",
        "light-pawn",
        "heavy-pawn",
        "tower",
        "queen",
        "king",
        "shields",
        "shuffles",
        "striking",
        "outnumbering",
        "winning",
        "notation",
    )

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[Board, int], tuple[KyoMove, ...]] = OrderedDict()

    def _setup(self, variant: str, players: int, seed: int) -> KyoState:
        board = start_board(variant)
        return KyoState(board=board, variant=variant, history=(position_key(board, 1),))

    # -- moves ---------------------------------------------------------------------------

    def repetitions(self, state: KyoState) -> int:
        return state.history.count(state.history[-1]) if state.history else 0

    def legal_moves(self, state: KyoState) -> tuple[KyoMove, ...]:
        """Every turn, each resulting position once with its shortest notation: complete, for
        tests and search; what serves players never calls it (rule 16)."""
        if state.result is not None:
            return ()
        key = (state.board, state.turn)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        finals = legal_turns(state.board, SIDES[state.turn])
        turns = sorted(
            (Turn(tokens, board) for board, (_, _, tokens) in finals.best.items()), key=_sort_key
        )
        moves: tuple[KyoMove, ...] = tuple(turns) if turns else (PASS,)
        self._cache[key] = moves
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return moves

    def must_pass(self, state: KyoState) -> bool:
        return state.result is None and first_turn(state.board, SIDES[state.turn]) is None

    def is_legal(self, state: KyoState, move: KyoMove) -> bool:
        """Checked by playing the turn's tokens, whatever the number of turns."""
        if isinstance(move, Pass):
            return self.must_pass(state)
        if not isinstance(move, Turn):
            return False
        try:
            after = simulate(state.board, SIDES[state.turn], move.tokens).board
        except (IllegalMove, KeyError, IndexError):
            return False
        return after == move.board != state.board

    def _play(self, state: KyoState, move: KyoMove) -> KyoState:
        seat = state.turn
        following = 3 - seat
        if isinstance(move, Turn):
            trace = simulate(state.board, SIDES[seat], move.tokens)
            board = trace.board
            struck = _struck(state.board, board, seat, trace.struck)
            highlight = Highlight(
                seat,
                str(move),
                tuple(point(c) for c in trace.path),
                tuple(point(c) for c in struck),
                tuple(point(c) for c in trace.changed),
            )
        else:
            board = state.board
            highlight = Highlight(seat, "pass")
        key = position_key(board, following)
        lost_items = len("".join(board)) < len("".join(state.board))
        history = (key,) if lost_items else (*state.history, key)
        result = winner(board, seat)
        if result is None and history.count(key) >= self.repetition_draw:
            result = Outcome((), "repetition")
        return replace(
            state,
            board=board,
            turn=following,
            ply=state.ply + 1,
            result=result,
            last=highlight,
            history=history,
        )

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: KyoState, move: KyoMove) -> str:
        return str(move)

    def move_tokens(self, state: KyoState, move: KyoMove) -> tuple[str, ...]:
        return move.tokens if isinstance(move, Turn) else ("pass",)

    def normalize(self, text: str) -> str:
        return notation.normalize(text)

    def parse_move(self, state: KyoState, text: str, names: Sequence[str] | None = None) -> KyoMove:
        """Raises InvalidMove if the text is not a turn, IllegalMove if the rules forbid it."""
        found = self._read(state, text)
        if isinstance(found, RulesError):
            raise found
        return found

    def diagnose(self, state: KyoState, text: str, names: Any = None) -> RulesError:
        found = self._read(state, text)
        if isinstance(found, RulesError):
            return found
        return IllegalMove(
            "rules.kyo.legal", text=text.strip(), move=self.format_move(state, found)
        )

    def _read(self, state: KyoState, text: str) -> KyoMove | RulesError:
        """The move a text means, found by playing its tokens, or the error a player should
        see. Its text is the shortest spelling a bounded search finds (docs/notation.md)."""
        if state.result is not None:
            return IllegalMove("rules.game.over")
        side = SIDES[state.turn]
        cleaned = text.strip().lower()
        if not cleaned:
            return InvalidMove("rules.kyo.type_turn", example=self._example(state))
        if cleaned == "pass":
            if self.must_pass(state):
                return PASS
            return IllegalMove("rules.kyo.no_pass", example=self._example(state))
        try:
            tokens = notation.tokenize(text)
        except InvalidMove as error:
            return error
        try:
            trace = simulate(state.board, side, tokens)
        except IllegalMove as error:
            if self.must_pass(state):
                return IllegalMove("rules.kyo.must_pass")
            return error
        if trace.board == state.board:
            return IllegalMove("rules.kyo.no_change")
        spelling = shortest_spelling(
            state.board, BY_NAME[tokens[0]], side, trace.board, tuple(trace.tokens), SPELLING_BUDGET
        )
        return Turn(spelling, trace.board)

    def _example(self, state: KyoState) -> str:
        tokens = first_turn(state.board, SIDES[state.turn])
        return "pass" if tokens is None else notation.join(tokens)

    # -- words -----------------------------------------------------------------------------

    def describe_position(self, state: KyoState, names: Sequence[str] | None = None) -> Phrase:
        """Each side's pawns and the mana it still has on the board (it loses at none)."""
        return self.seats_described(state, names, lambda seat: words.seat_words(state, seat))

    def describe_move(
        self, state: KyoState, move: KyoMove, names: Sequence[str] | None = None
    ) -> Words:
        if not isinstance(move, Turn):
            return super().describe_move(state, move, names)
        return words.describe_move(state, move, self.namer(names))

    # -- guided input ------------------------------------------------------------------------

    def move_tree(self, state: KyoState) -> MoveTree:
        """Built step by step: each node tries only its own actions, when a player reaches it."""
        if state.result is not None:
            return MoveTree()
        return turn_tree(state.board, SIDES[state.turn], Turn)

    def token_label(self, state: KyoState, prefix: Sequence[str], token: str) -> Words:
        return label(state.board, SIDES[state.turn], prefix, token)

    def completions(
        self, state: KyoState, typed: str, limit: int, seconds: float = BUDGET
    ) -> list[str]:
        return completions(self.move_tree(state), typed, limit, seconds)

    def nearest_moves(
        self, state: KyoState, text: str, limit: int, seconds: float = BUDGET
    ) -> list[str]:
        return nearest(self.move_tree(state), text, limit, seconds)

    # -- diagrams --------------------------------------------------------------------------

    def parse_diagram(self, text: str) -> KyoState:
        return diagram.parse(text, self.variants)

    def format_diagram(self, state: KyoState) -> str:
        return diagram.format_text(state)

    # -- persistence -----------------------------------------------------------------------

    def _encode(self, state: KyoState) -> dict[str, Any]:
        return {**common_to_json(state), "board": list(state.board), "history": list(state.history)}

    def _decode(self, data: Mapping[str, Any]) -> KyoState:
        board = tuple(str(stack) for stack in data["board"])
        if len(board) != CELLS or any(set(stack) - ITEM_LETTERS for stack in board):
            raise ValueError("board must be 100 stacks of Kyo item letters")
        state = KyoState(
            board=board, history=tuple(str(k) for k in data["history"]), **common_from_json(data)
        )
        if state.turn not in (1, 2) or state.players != 2:
            raise ValueError("Kyo has seats 1 and 2")
        if state.variant not in LIGHT_PAWN_RANKS:
            raise ValueError(f"unknown variant {state.variant!r}")
        return state


def _sort_key(turn: Turn) -> tuple[int, int, int, str]:
    """By origin (file, then rank), then shortest first."""
    origin = BY_NAME[turn.tokens[0]]
    text = str(turn)
    return origin % SIZE, origin // SIZE, len(text), text


def _struck(before: Board, after: Board, seat: int, struck: list[int]) -> list[int]:
    """The tiles struck (pawns, shields) and those where landing destroyed enemy mana."""
    enemy = SIDES[3 - seat]

    def theirs(stack: str) -> int:
        return sum(1 for item in stack if item in enemy.pawns or item in enemy.mana)

    lost = {
        c for c in range(CELLS) if before[c] != after[c] and theirs(after[c]) < theirs(before[c])
    }
    return sorted(lost | set(struck))
