"""Razzle Dazzle: knights that throw a ball, racing it to the opponent's back row.

A turn is one knight move or a whole chain of throws. Pieces that threw or caught the ball
stay ineligible receivers until they make a knight move, so that memory travels in the
state; so does the forced-throw condition left by the opponent's last knight move.

Words players read: the ball is *thrown* (a throw, a chain of throws) and *caught*; a turn
that must include a throw is a *forced throw*; *pass* is only the move of a player with no
legal turn at all. The seed calls a throw a "pass"; that word stays out of players' texts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
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
    Reason,
    Rect,
    RulesError,
    Variant,
    common_from_json,
    common_to_json,
    counted,
    direct_constructor,
    grid_rows,
    parse_seat,
    parse_square,
    split_diagram,
    split_squares,
    square_name,
)
from rules.repetition import History

WIDTH, HEIGHT = 7, 8
EMPTY = "."
PIECE = {1: "x", 2: "o"}
BALL = {1: "X", 2: "O"}
GOAL_RANK = {1: HEIGHT - 1, 2: 0}
HOME_RANK = {1: 0, 2: HEIGHT - 1}
START_FILES = (1, 2, 3, 4, 5)
BALL_FILE = 3
TURN_LIMIT = 200
SIDE_NAMES = {"x": 1, "o": 2}
# In repetition keys an ineligible piece is written with its own letter.
INELIGIBLE_MARK = {"x": "y", "X": "Y", "o": "p", "O": "P"}


BOARD = Rect(WIDTH, HEIGHT)
_index, _point, _name = BOARD.index, BOARD.point, BOARD.name
_on_board = BOARD.contains

SQUARES = range(WIDTH * HEIGHT)
NAMES = tuple(map(_name, SQUARES))
POINTS = tuple(map(_point, SQUARES))
# Moves are listed in notation order: by file, then rank, square after square.
ORDINAL = tuple(f * HEIGHT + r for f, r in map(_point, SQUARES))
DIRECTIONS = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

NEIGHBOURS: tuple[frozenset[int], ...] = tuple(
    frozenset(_index((f + df, r + dr)) for df, dr in DIRECTIONS if _on_board(f + df, r + dr))
    for f, r in map(_point, SQUARES)
)


@dataclass(frozen=True)
class Knight:
    """A piece's knight move; it makes the piece an eligible receiver again."""

    origin: int
    target: int


@dataclass(frozen=True)
class Chain:
    """One or more throws, as the squares the ball visits (the holder's square first)."""

    path: tuple[int, ...]


RazzleMove = Knight | Chain | Pass
# Chains are made afresh each time moves are listed: straight, not through __init__.
_chain = direct_constructor(Chain, ("path",))

# Every knight move from each square, built once: listing moves only filters these.
KNIGHT_MOVES: tuple[tuple[tuple[int, Knight], ...], ...] = tuple(
    tuple(
        (target, Knight(_index((f, r)), target))
        for target in sorted(
            (_index((f + df, r + dr)) for df, dr in KNIGHT_STEPS if _on_board(f + df, r + dr)),
            key=ORDINAL.__getitem__,
        )
    )
    for f, r in map(_point, SQUARES)
)


@dataclass(frozen=True)
class RazzleState(CommonState):
    board: str
    ineligible: frozenset[int] = frozenset()
    forced: bool = False
    history: History[str] = field(kw_only=True)
    """The repetition keys of the turn-start positions so far (`key`), the current one last."""
    occupied: int = field(default=-1, kw_only=True, compare=False, repr=False)
    """Derived, never compared: the occupied squares as bits (see _occupied); `_play` carries
    it forward (only a knight move changes it), other states work it out from `board`."""

    def __post_init__(self) -> None:
        if self.occupied < 0:
            object.__setattr__(self, "occupied", _occupied(self.board))

    @property
    def key(self) -> str:
        """The turn-start position as the repetition rule sees it."""
        return _key(self.board, self.ineligible, self.forced, self.turn)


# Every field, in the order `_play` has them (see direct_constructor).
_made = direct_constructor(
    RazzleState,
    (
        *("board", "ineligible", "forced", "history", "occupied"),
        *("variant", "players", "turn", "ply", "result", "last"),
    ),
)


# The end of a repetition key: whether a throw is forced, and the seat to move.
KEY_ENDINGS = {
    (forced, turn): f"{'!' if forced else '-'}{turn}" for forced in (False, True) for turn in (1, 2)
}


def _key(board: str, ineligible: frozenset[int], forced: bool, turn: int) -> str:
    return _marked_key(list(board), ineligible, forced, turn)


def _marked_key(cells: list[str], ineligible: frozenset[int], forced: bool, turn: int) -> str:
    """`_key` from the board's cells, which it marks in place (`_play` has them at hand)."""
    for square in ineligible:
        cells[square] = INELIGIBLE_MARK[cells[square]]
    return "".join(cells) + KEY_ENDINGS[forced, turn]


KEY_ENDINGS = {
    (forced, turn): f"{'!' if forced else '-'}{turn}" for forced in (False, True) for turn in (1, 2)
}


@lru_cache(maxsize=4096)
def _highlight(seat: int, path: tuple[int, ...]) -> Highlight:
    """What a turn along `path` shows, made once per path: most turns repeat an earlier one."""
    return Highlight(
        seat, "-".join(map(NAMES.__getitem__, path)), tuple(map(POINTS.__getitem__, path))
    )


def _start_board() -> str:
    cells = [EMPTY] * (WIDTH * HEIGHT)
    for seat in (1, 2):
        for file in START_FILES:
            cells[_index((file, HOME_RANK[seat]))] = PIECE[seat]
        cells[_index((BALL_FILE, HOME_RANK[seat]))] = BALL[seat]
    return "".join(cells)


def _is_knight_step(origin: int, target: int) -> bool:
    (af, ar), (bf, br) = _point(origin), _point(target)
    return {abs(af - bf), abs(ar - br)} == {1, 2}


def _between(origin: int, target: int) -> tuple[int, ...] | None:
    """The squares strictly between two squares on one line, or None when not on a line."""
    (af, ar), (bf, br) = _point(origin), _point(target)
    df, dr = bf - af, br - ar
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return None
    steps = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return tuple(_index((af + k * sf, ar + k * sr)) for k in range(1, steps))


ALL_SQUARES = (1 << WIDTH * HEIGHT) - 1
# A board as a number whose bit `square` is set when that square is occupied (see _occupied).
OCCUPIED = str.maketrans({EMPTY: "0", **dict.fromkeys("xoXO", "1")})


def _occupied(board: str) -> int:
    return int(board.translate(OCCUPIED)[::-1], 2)


def _blockers(origin: int, target: int) -> int:
    """The squares a throw from `origin` to `target` flies over, as bits; every square when
    the two share no line, so that "can the ball fly there" is one test: no piece on them."""
    between = _between(origin, target)
    return ALL_SQUARES if between is None else sum(1 << square for square in between)


BLOCKERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_blockers(origin, target) for target in SQUARES) for origin in SQUARES
)


def _chains(holder: int, receivers: list[int], occupied: int, goal_rank: int) -> list[Chain]:
    """Every chain of throws from the holder to `receivers` (eligible, in notation order) over
    the `occupied` squares, in notation order; one stops at the goal."""
    chains: list[Chain] = []

    def extend(path: tuple[int, ...]) -> None:
        blockers = BLOCKERS[path[-1]]
        for receiver in receivers:
            if not occupied & blockers[receiver] and receiver not in path:
                longer = (*path, receiver)
                chains.append(_chain(longer))
                if receiver // WIDTH != goal_rank:
                    extend(longer)

    extend((holder,))
    return chains


# Per square: its knight targets as bits, and its knight moves by which of those targets are
# occupied, worked out on first use (at most 256 per square), so listing a piece's moves is
# one lookup instead of a test per target.
KNIGHT_TARGETS = tuple(sum(1 << target for target, _ in moves) for moves in KNIGHT_MOVES)
_KNIGHT_MOVES_BY_BLOCKED: tuple[dict[int, tuple[Knight, ...]], ...] = tuple({} for _ in SQUARES)


def _knight_moves(square: int, occupied: int) -> tuple[Knight, ...]:
    """The knight moves from `square` onto the squares `occupied` leaves empty."""
    blocked = occupied & KNIGHT_TARGETS[square]
    known = _KNIGHT_MOVES_BY_BLOCKED[square]
    moves = known.get(blocked)
    if moves is None:
        moves = tuple(move for target, move in KNIGHT_MOVES[square] if not blocked >> target & 1)
        known[blocked] = moves
    return moves


def _ball_of(board: str, seat: int) -> int:
    return board.index(BALL[seat])


_STEP_SEPARATORS = re.compile(r"[,;]")
_FILLER = re.compile(r"[\s\-]+")


def _segments(text: str) -> list[list[str]]:
    """Typed text -> its comma-separated segments as squares ([['pass']] for a pass).

    The path form `d1-e1-e5` is one segment; the seed's step form `d1-e1, e1-e5, end` has one
    per throw. InvalidMove when the text is not squares at all.
    """
    parts = [_FILLER.sub("", s) for s in _STEP_SEPARATORS.split(text.strip().lower())]
    ended = bool(parts) and parts[-1].endswith("end")
    if ended:
        parts[-1] = parts[-1][: -len("end")]
    parts = [p for p in parts if p]
    if parts == ["pass"]:
        return [["pass"]]
    if not parts and ended:
        raise InvalidMove(
            "'end' only closes a chain of throws written step by step; write the throws "
            "first, "
            "like d1-e1, e1-e5, end"
        )
    garbled = InvalidMove(
        f"{text.strip()!r} is not a Razzle Dazzle move: write a knight move as two squares "
        "(b1-c3) or a throw as the squares the ball visits (d1-e1, or d1-e1-e5 for two)"
    )
    if not parts and text.strip():
        raise garbled
    segments = []
    for part in parts:
        squares = split_squares(part)
        if "".join(squares) != part:
            raise garbled
        segments.append(squares)
    return segments


def _break(segments: list[list[str]]) -> int | None:
    """The first segment that does not start where the previous one ended, if any."""
    for number in range(1, len(segments)):
        squares = segments[number]
        if len(squares) > 1 and squares[0] != segments[number - 1][-1]:
            return number
    return None


def _join(segments: list[list[str]]) -> list[str]:
    """Continuing segments as one path, a square repeated at a joint written once."""
    path = [square for segment in segments for square in segment]
    return [s for i, s in enumerate(path) if i == 0 or s != path[i - 1]]


class RazzleDazzle(Game[RazzleState, RazzleMove]):
    name = "razzle"
    title = "Razzle Dazzle"
    board_size = (WIDTH, HEIGHT)
    seat_names = ("White", "Black")  # the board's light discs and dark squares
    default_variant = "standard"
    variants = {
        "standard": Variant("standard", "7x8 board, five knights and a ball each", (2,)),
    }
    help_topics = {
        "overview": (
            "Razzle Dazzle is a two-player game on a board 7 squares wide and 8 deep. Each side "
            "has five pieces that jump like chess knights and one ball that one of them carries. "
            "On your turn you either jump one piece or throw your ball along a line of your "
            "pieces. Get your ball into the hands of a piece standing on your opponent's back "
            "row and you win."
        ),
        "setup": (
            "Player 1 (x) starts with pieces on b1, c1, d1, e1 and f1; the d1 piece holds the "
            "ball (X). Player 2 (o) mirrors this on b8 to f8 with the ball on d8 (O). The a and "
            "g files start empty. Player 1 moves first, and no piece starts ineligible."
        ),
        "moving": (
            "Moving means one knight jump: two squares along a rank or file and then one square "
            "sideways, leaping over anything in between. The landing square must be empty; "
            "nothing is ever captured. The piece holding the ball cannot jump. A jump is the "
            "whole turn: you cannot also throw in it."
        ),
        "throwing": (
            "Instead of moving you may throw. The ball flies in a straight line (along a rank, a "
            "file or a diagonal) and stops at the first piece on that line. It must be one of "
            "your own, eligible pieces; any piece in the way, yours or your opponent's, blocks "
            "the throw. The catcher may throw on at once, so one turn can be a chain of throws; "
            "the chain ends whenever you want. Throwing is the whole turn: no jump after it."
        ),
        "ineligible": (
            "Every piece that throws or catches the ball becomes ineligible: it cannot catch "
            "the ball again, in this turn or any later one, until it makes a knight jump. So no "
            "piece handles the ball twice in one chain. Example: c1 throws to e1; now both c1 "
            "and e1 are ineligible and stay so, turn after turn, until each of them jumps. "
            "In the picture an ineligible piece wears a no-entry badge (a disc with a bar)."
        ),
        "forced-throw": (
            "If your opponent's last turn was a knight jump that landed right next to your ball "
            "(any of the 8 surrounding squares), you must throw the ball this turn whenever a "
            "throw is possible: a forced throw. Only a fresh jump triggers this, not a piece "
            "that was already standing there. If no throw is possible you may jump instead."
        ),
        "winning": (
            "Player 1 wins the moment a throw puts the ball on a piece on rank 8, player 2 the "
            "moment a throw puts it on a piece on rank 1. The chain stops there. A piece merely "
            "standing on that row without the ball wins nothing."
        ),
        "draws": (
            "The game is drawn when the same position comes up for the third time at the start "
            "of a turn (same pieces, balls, ineligible pieces, forced-throw situation and player "
            "to move), or when 200 turns have been played without a winner."
        ),
        "notation": (
            "A knight jump is its start and landing square: b1-c3. A throw lists every square "
            "the ball visits, starting with the holder: d1-e1 is one throw, d1-e1-e5 two. "
            "The step-by-step form d1-e1, e1-e5, end is understood too. Case, spaces and dashes "
            "do not matter. 'pass' is only for a player who has no legal turn at all: it skips "
            "the turn and has nothing to do with the ball."
        ),
    }

    def _setup(self, variant: str, players: int, seed: int) -> RazzleState:
        board = _start_board()
        return RazzleState(
            board=board, variant=variant, history=History.start(_key(board, frozenset(), False, 1))
        )

    # -- moves ---------------------------------------------------------------------------

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
        chains = _chains(holder, receivers, occupied, GOAL_RANK[seat])
        if state.forced and chains:
            return tuple(chains)
        moves: list[RazzleMove] = []
        known_knight_moves = _KNIGHT_MOVES_BY_BLOCKED  # _knight_moves's lookup, inlined
        for square in pieces:
            if chains and ORDINAL[holder] < ORDINAL[square]:
                moves += chains
                chains = []
            knights = known_knight_moves[square].get(occupied & KNIGHT_TARGETS[square])
            moves += knights if knights is not None else _knight_moves(square, occupied)
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
        key = _marked_key(cells, ineligible, forced, opponent)
        history = state.history.then(key)
        if result is None and history.occurrences(key) >= 3:
            result = Outcome((), Reason.REPETITION)
        elif result is None and state.ply + 1 >= TURN_LIMIT:
            result = Outcome((), Reason.MOVE_LIMIT)
        return _made(
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
            _highlight(seat, path) if path else Highlight(seat, "pass"),
        )

    # -- notation --------------------------------------------------------------------------

    def format_move(self, state: RazzleState, move: RazzleMove) -> str:
        return "-".join(self.move_tokens(state, move))

    def describe_position(self, state: RazzleState, names: Sequence[str] | None = None) -> str:
        def words(seat: int) -> str:
            ball = _name(state.board.index(BALL[seat]))
            return f"{counted(state.board.count(PIECE[seat]) + 1, 'piece')}, the ball on {ball}"

        return self.seats_described(state, names, words)

    def describe_move(
        self, state: RazzleState, move: RazzleMove, names: Sequence[str] | None = None
    ) -> str:
        notation = self.format_move(state, move)
        if isinstance(move, Chain):
            *hops, last = [_name(square) for square in move.path[1:]]
            route = f"{', '.join(hops)} and then {last}" if hops else last
            return f"{notation}, throwing the ball to {route}"
        if isinstance(move, Knight):
            after = self._play(state, move)
            if after.forced and after.result is None:
                opponent = self.player_name(after.turn, names)
                landing = f"{notation}, landing next to {opponent}'s ball"
                if isinstance(self.legal_moves(after)[0], Chain):
                    return f"{landing}, so {opponent} must throw"
                return landing
            return notation
        return super().describe_move(state, move, names)

    def move_tokens(self, state: RazzleState, move: RazzleMove) -> tuple[str, ...]:
        if isinstance(move, Knight):
            return (NAMES[move.origin], NAMES[move.target])
        if isinstance(move, Chain):
            return tuple(map(NAMES.__getitem__, move.path))
        return ("pass",)

    def normalize(self, text: str) -> str:
        try:
            segments = _segments(text)
        except InvalidMove:
            return "?" + super().normalize(text)
        if _break(segments) is not None:
            return "?" + super().normalize(text)
        return "".join(_join(segments))

    def diagnose(
        self, state: RazzleState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        try:
            segments = _segments(text)
            if segments == [["pass"]]:
                return IllegalMove(
                    "you can only pass when you have no knight move and no throw of the ball"
                )
            squares = _join(segments)
            path = [_index(parse_square(s, WIDTH, HEIGHT)) for s in squares]
        except RulesError as error:
            return error
        broken = _break(segments)
        if broken is not None:
            return self._why_broken(state, segments, broken)
        if len(path) < 2:
            return InvalidMove(
                f"{text.strip()} alone is not a turn: name where the piece jumps (b1-c3) or "
                "where the ball goes (d1-e1)"
            )
        seat = state.turn
        board = state.board
        start = path[0]
        cell = board[start]
        holder = _ball_of(board, seat)
        opponent = self.player_name(3 - seat, names)
        if cell == EMPTY:
            return IllegalMove(f"{_name(start)} is empty")
        if cell in (PIECE[3 - seat], BALL[3 - seat]):
            return IllegalMove(f"the piece on {_name(start)} is {opponent}'s, not yours")
        if cell == PIECE[seat]:
            return self._why_not_knight(state, path, holder, opponent)
        if len(path) == 2 and _is_knight_step(start, path[1]):
            return IllegalMove(
                f"the piece on {_name(start)} holds the ball and cannot move; throw the ball "
                "or move another piece"
            )
        return self._why_not_chain(state, path, opponent)

    def _why_broken(self, state: RazzleState, segments: list[list[str]], broken: int) -> RulesError:
        """Step form whose throws do not connect: a move mixed with throws, or a slip."""
        piece = PIECE[state.turn]
        if any(state.board[_index(parse_square(s[0], WIDTH, HEIGHT))] == piece for s in segments):
            return IllegalMove(
                "a turn is either one knight move or a chain of throws, never both: a knight "
                "move ends the turn, and after throwing no piece may move"
            )
        previous, wrong = segments[broken - 1][-1], segments[broken][0]
        return InvalidMove(
            f"each throw starts where the ball is: after reaching {previous} the next throw "
            f"starts at {previous}, not at {wrong}"
        )

    def _why_not_knight(
        self, state: RazzleState, path: list[int], holder: int, opponent: str
    ) -> RulesError:
        origin, target = path[0], path[1]
        route = f"{_name(origin)}-{_name(target)}"
        if len(path) > 2:
            return IllegalMove(
                f"a piece makes one knight move per turn; only the ball travels in a chain, "
                f"and it starts from {_name(holder)}"
            )
        if not _is_knight_step(origin, target):
            if _between(origin, target) is not None:
                return IllegalMove(
                    f"{route} is not a knight move, and a throw starts from the ball, which is "
                    f"on {_name(holder)}"
                )
            return IllegalMove(
                f"{route} is not a knight move: a piece jumps two squares one way and one "
                "square to the side"
            )
        if state.board[target] != EMPTY:
            return IllegalMove(f"{_name(target)} is occupied: a knight move needs an empty square")
        if state.forced:
            example = self.format_move(state, self.legal_moves(state)[0])
            return IllegalMove(
                f"this turn you must throw the ball, because {opponent}'s last knight move "
                f"landed next to it (for example {example})"
            )
        return IllegalMove(f"{route} is not legal here")

    def _why_not_chain(self, state: RazzleState, path: list[int], opponent: str) -> RulesError:
        seat = state.turn
        board = state.board
        own = (PIECE[seat], BALL[seat])
        for step, (passer, receiver) in enumerate(pairwise(path)):
            here, there = _name(passer), _name(receiver)
            if passer // WIDTH == GOAL_RANK[seat] and step:
                return IllegalMove(
                    f"the ball reached {opponent}'s back row on {here} and won the game; "
                    "the chain ends there"
                )
            between = _between(passer, receiver)
            if between is None:
                return IllegalMove(
                    f"{here} to {there} is not a straight line: the ball flies along a rank, a "
                    "file or a diagonal"
                )
            blockers = [s for s in between if board[s] != EMPTY]
            if blockers:
                return IllegalMove(
                    f"the throw {here}-{there} is blocked by the piece on {_name(blockers[0])}"
                )
            if board[receiver] == EMPTY:
                return IllegalMove(
                    f"{there} is empty: the ball can only be thrown to one of your pieces"
                )
            if board[receiver] not in own:
                return IllegalMove(f"{there} holds {opponent}'s piece: throw to your own pieces")
            if receiver in path[: step + 1]:
                return IllegalMove(
                    f"the piece on {there} already handled the ball this turn and cannot "
                    "catch it again"
                )
            if receiver in state.ineligible:
                return IllegalMove(
                    f"the piece on {there} is ineligible: it threw or caught the ball and has "
                    "not made a knight move since"
                )
        return IllegalMove(f"{'-'.join(map(_name, path))} is not legal here")

    # -- diagrams --------------------------------------------------------------------------

    def parse_diagram(self, text: str) -> RazzleState:
        lines = []
        for raw in text.splitlines():
            line = raw.split("←")[0].replace("|", " ")
            if line.strip() and not line.strip().strip("+-"):
                continue
            lines.append(line)
        rows, keys = split_diagram("\n".join(lines))
        unknown = set(keys) - {"to move", "ineligible", "last move"}
        if unknown:
            raise InvalidDiagram(
                f"unknown key {sorted(unknown)[0]!r} (Razzle Dazzle knows 'to move', "
                "'ineligible' and 'last move')"
            )
        board = self._read_board(grid_rows(rows, WIDTH, HEIGHT))
        turn = parse_seat(keys.get("to move", "1"), 2, SIDE_NAMES)
        ineligible = frozenset(self._read_ineligible(board, keys.get("ineligible", "")))
        last, forced = self._read_last(board, turn, keys.get("last move", ""))
        result = None
        for seat in (1, 2):
            if _ball_of(board, seat) // WIDTH == GOAL_RANK[seat]:
                result = Outcome((seat,), Reason.GOAL)
        return RazzleState(
            board=board,
            turn=turn,
            result=result,
            last=last,
            ineligible=ineligible,
            forced=forced,
            history=History.start(_key(board, ineligible, forced, turn)),
        )

    @staticmethod
    def _read_board(cells: list[list[str]]) -> str:
        board = [EMPTY] * (WIDTH * HEIGHT)
        for row_number, row in enumerate(cells):
            rank = HEIGHT - 1 - row_number
            for file, cell in enumerate(row):
                if cell not in (EMPTY, "x", "X", "o", "O"):
                    raise InvalidDiagram(
                        f"{square_name((file, rank))} holds {cell!r}; use x or o for a piece, "
                        "X or O for the piece holding the ball, . for an empty square"
                    )
                board[_index((file, rank))] = cell
        joined = "".join(board)
        for seat in (1, 2):
            if joined.count(BALL[seat]) != 1:
                raise InvalidDiagram(
                    f"player {seat} needs exactly one piece holding the ball "
                    f"({BALL[seat]}), not {joined.count(BALL[seat])}"
                )
        return joined

    @staticmethod
    def _read_ineligible(board: str, value: str) -> list[int]:
        squares = []
        for word in value.replace(",", " ").split():
            try:
                square = _index(parse_square(word, WIDTH, HEIGHT))
            except RulesError as error:
                raise InvalidDiagram(f"ineligible: {error}") from error
            if board[square] == EMPTY:
                raise InvalidDiagram(f"ineligible: {word} is empty; only pieces can be ineligible")
            squares.append(square)
        return squares

    def _read_last(self, board: str, turn: int, value: str) -> tuple[Highlight | None, bool]:
        """The opponent's last turn (for the picture) and whether it forces a throw now."""
        if not value.strip():
            return None, False
        mover = 3 - turn
        try:
            segments = _segments(value)
            if segments == [["pass"]]:
                return Highlight(mover, "pass"), False
            path = tuple(_index(parse_square(s, WIDTH, HEIGHT)) for s in _join(segments))
        except RulesError as error:
            raise InvalidDiagram(f"last move: {error}") from error
        if _break(segments) is not None:
            raise InvalidDiagram("last move: each throw must start where the previous one ended")
        if len(path) < 2:
            raise InvalidDiagram("last move: name at least two squares, like b1-c3 or d1-e1")
        notation = "-".join(map(_name, path))
        highlight = Highlight(mover, notation, tuple(map(_point, path)))
        if len(path) == 2 and _is_knight_step(*path):
            if board[path[0]] != EMPTY or board[path[1]] != PIECE[mover]:
                raise InvalidDiagram(
                    f"last move: after the knight move {notation}, {_name(path[0])} must be "
                    f"empty and {_name(path[1])} must hold a piece ({PIECE[mover]}) of player "
                    f"{mover}"
                )
            return highlight, _ball_of(board, turn) in NEIGHBOURS[path[1]]
        if board[path[-1]] != BALL[mover]:
            raise InvalidDiagram(
                f"last move: after the throw {notation} the ball ({BALL[mover]}) of player "
                f"{mover} must be on {_name(path[-1])}"
            )
        return highlight, False

    def format_diagram(self, state: RazzleState) -> str:
        lines = ["   " + " ".join("abcdefg")]
        for rank in range(HEIGHT - 1, -1, -1):
            row = " ".join(state.board[_index((file, rank))] for file in range(WIDTH))
            lines.append(f"{rank + 1}  {row}")
        lines.append(f"to move: {state.turn}")
        if state.ineligible:
            names = " ".join(_name(s) for s in sorted(state.ineligible, key=ORDINAL.__getitem__))
            lines.append(f"ineligible: {names}")
        if state.last is not None:
            lines.append(f"last move: {state.last.notation}")
        return "\n".join(lines)

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
