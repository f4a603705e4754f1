"""Kyo: pawns on stacks of mana and shield chips, walking mana roads to strike the king.

The package splits the game the way it is hard: `board` (items, setup, diagrams), `turns`
(the actions of a turn and the search for every position a turn can reach), `replay` (typed
turns run through the same actions, with the reasons a player reads), `notation` (tokens in
and out) and `help`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import (
    PASS,
    CommonState,
    Game,
    Highlight,
    IllegalMove,
    InvalidDiagram,
    InvalidMove,
    Outcome,
    Pass,
    RulesError,
    Variant,
    common_from_json,
    common_to_json,
)
from rules.kyo.board import (
    BY_NAME,
    CELLS,
    ITEM_LETTERS,
    LIGHT_PAWN_RANKS,
    SEAT_NAMES,
    SIDES,
    SIZE,
    format_board,
    parse_board,
    point,
    position_key,
    start_board,
)
from rules.kyo.help import HELP
from rules.kyo.notation import join, tokenize
from rules.kyo.replay import simulate
from rules.kyo.turns import Board, legal_turns


@dataclass(frozen=True)
class Turn:
    """A whole turn, as its canonical tokens: origin square first (see rules.kyo.notation)."""

    tokens: tuple[str, ...]

    def __str__(self) -> str:
        return join(self.tokens)


KyoMove = Turn | Pass


@dataclass(frozen=True)
class KyoState(CommonState):
    board: Board
    variant: str = field(default="trench", kw_only=True)  # Kyo's standard game
    history: tuple[str, ...] = ()  # position keys since the last item left the board


@dataclass(frozen=True)
class _Analysis:
    """One position's legal turns, and two ways to find one: by canonical text, and by the
    position it leaves (for any other spelling of a turn)."""

    moves: tuple[KyoMove, ...]
    by_text: Mapping[str, Turn]
    by_board: Mapping[Board, Turn]


_CACHE_SIZE = 16


class Kyo(Game[KyoState, KyoMove]):
    name = "kyo"
    title = "Kyo"
    board_size = (SIZE, SIZE)
    default_variant = "trench"
    variants = {
        "trench": Variant("trench", "light pawns on ranks 4 and 7 (the standard game)", (2,)),
        "open": Variant("open", "light pawns on ranks 2 and 9, beside the towers", (2,)),
        "deadlock": Variant("deadlock", "light pawns face to face on ranks 5 and 6", (2,)),
    }
    seat_names = SEAT_NAMES
    help_topics = HELP

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[Board, int], _Analysis] = OrderedDict()

    def _setup(self, variant: str, players: int, seed: int) -> KyoState:
        board = start_board(variant)
        return KyoState(board=board, variant=variant, history=(position_key(board, 1),))

    # -- moves ---------------------------------------------------------------------------

    def _analyse(self, state: KyoState) -> _Analysis:
        """Legal turns are searched once per position: parsing, applying and listing share them."""
        key = (state.board, state.turn)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        finals = legal_turns(state.board, SIDES[state.turn])
        turns = {board: Turn(tokens) for board, (_, _, tokens) in finals.best.items()}
        ordered = sorted(turns.values(), key=_sort_key)
        analysis = _Analysis(
            tuple(ordered) if ordered else (PASS,),
            {str(turn): turn for turn in ordered},
            turns,
        )
        self._cache[key] = analysis
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return analysis

    def legal_moves(self, state: KyoState) -> tuple[KyoMove, ...]:
        if state.result is not None:
            return ()
        return self._analyse(state).moves

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
        result = _winner(board, seat)
        if result is None and history.count(key) >= 3:
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
        try:
            return "".join(tokenize(text)).replace("x", "")
        except InvalidMove:
            return super().normalize(text)

    def parse_move(self, state: KyoState, text: str, names: Sequence[str] | None = None) -> KyoMove:
        found = self._read(state, text)
        if isinstance(found, RulesError):
            raise found
        return found

    def diagnose(self, state: KyoState, text: str, names: Any = None) -> RulesError:
        found = self._read(state, text)
        if isinstance(found, RulesError):
            return found
        return IllegalMove(f"{text.strip()} is legal here (it is {self.format_move(state, found)})")

    def _read(self, state: KyoState, text: str) -> KyoMove | RulesError:
        """The legal move a text means, or the error a player should see."""
        if state.result is not None:
            return IllegalMove("the game is over")
        analysis = self._analyse(state)
        moves = analysis.moves
        cleaned = text.strip().lower()
        if not cleaned:
            return InvalidMove(f"type a turn, for example {self.format_move(state, moves[0])}")
        if cleaned == "pass":
            if moves == (PASS,):
                return PASS
            return IllegalMove(
                f"you may pass only when you have no legal turn; try {moves[0]} for example"
            )
        if moves == (PASS,):
            return IllegalMove("you have no legal turn, so you must pass")
        if text.strip() in analysis.by_text:
            return analysis.by_text[text.strip()]
        try:
            tokens = tokenize(text)
        except InvalidMove as error:
            return error
        if join(tokens) in analysis.by_text:
            return analysis.by_text[join(tokens)]
        try:
            board = simulate(state.board, SIDES[state.turn], tokens).board
        except IllegalMove as error:
            return error
        found = analysis.by_board.get(board)
        if found is None:
            return IllegalMove(
                "that turn leaves every stack as it was; a turn must change something"
            )
        return found

    # -- diagrams --------------------------------------------------------------------------

    def parse_diagram(self, text: str) -> KyoState:
        board, turn, keys = parse_board(text)
        variant = keys.pop("variant", self.default_variant).strip().lower()
        if variant not in self.variants:
            raise InvalidDiagram(
                f"unknown variant {variant!r} (Kyo has {', '.join(self.variants)})"
            )
        if keys:
            raise InvalidDiagram(
                f"unknown key {sorted(keys)[0]!r} (Kyo diagrams know 'to move' and 'variant')"
            )
        return KyoState(
            board=board, variant=variant, turn=turn, history=(position_key(board, turn),)
        )

    def format_diagram(self, state: KyoState) -> str:
        text = format_board(state.board, state.turn)
        if state.variant != self.default_variant:
            text += f"\nvariant: {state.variant}"
        return text

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


def _winner(board: Board, mover: int) -> Outcome | None:
    """Rule 14, the opponent first: only the side that just moved can have taken anything."""
    items = "".join(board)
    for loser in (3 - mover, mover):
        side = SIDES[loser]
        winner = (3 - loser,)
        if side.king not in items:
            return Outcome(winner, "king")
        if side.mana[0] not in items and side.mana[1] not in items:
            return Outcome(winner, "mana")
    return None


def _struck(before: Board, after: Board, seat: int, struck: list[int]) -> list[int]:
    """The tiles struck (pawns, shields) and those where landing destroyed enemy mana."""
    enemy = SIDES[3 - seat]

    def theirs(stack: str) -> int:
        return sum(1 for item in stack if item in enemy.pawns or item in enemy.mana)

    lost = {
        c for c in range(CELLS) if before[c] != after[c] and theirs(after[c]) < theirs(before[c])
    }
    return sorted(lost | set(struck))


__all__ = ["Kyo", "KyoMove", "KyoState", "Turn"]
