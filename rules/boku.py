"""Boku: place marbles on an 80-cell hexagon, make five in a row, capture enclosed pairs."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, itemgetter
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
    Point,
    Reason,
    RulesError,
    Variant,
    common_from_json,
    common_to_json,
    counted,
    direct_constructor,
    owned_pieces,
    parse_seat,
    split_diagram,
)
from rules.repetition import History

SIZE = 10
SPAN = 5  # a cell (q, r) exists when |q - r| <= SPAN
COLUMNS = "abcdefghij"
EMPTY = "."
MARBLE = {1: "1", 2: "2"}
SEATS = {"1": 1, "2": 2, "dark": 1, "light": 2}
WIN_LENGTH = 5

# The six neighbours of (q, r); consecutive pairs are opposite, each pair is one line axis.
DIRECTIONS: tuple[Point, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def _exists(q: int, r: int) -> bool:
    return 0 <= q < SIZE and 0 <= r < SIZE and abs(q - r) <= SPAN


# Cells are numbered in notation order (a1, a2, ..., a6, b1, ...), so sorted moves read sorted.
POINTS: tuple[Point, ...] = tuple((q, r) for q in range(SIZE) for r in range(SIZE) if _exists(q, r))
INDEX: dict[Point, int] = {point: index for index, point in enumerate(POINTS)}
NAMES: tuple[str, ...] = tuple(f"{COLUMNS[q]}{r + 1}" for q, r in POINTS)
CELL_COUNT = len(POINTS)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[q + dq, r + dr] for dq, dr in DIRECTIONS if _exists(q + dq, r + dr))
    for q, r in POINTS
)


def _layout() -> tuple[int, ...]:
    """Every line of every axis written out cell by cell, each line closed by a separator (-1).

    A string laid out like this turns "a line of five" and "mine, theirs, theirs, empty" into
    substring searches, which run in C instead of cell-by-cell Python loops.
    """
    cells: list[int] = []
    for step in DIRECTIONS[::2]:
        for q, r in POINTS:
            if _exists(q - step[0], r - step[1]):
                continue  # not the start of a line along this axis
            while _exists(q, r):
                cells.append(INDEX[q, r])
                q, r = q + step[0], r + step[1]
            cells.append(-1)
    return tuple(cells)


LAYOUT = _layout()
SEPARATOR = "#"
# Where each cell appears in the layout, once per axis, in increasing order.
POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, c in enumerate(LAYOUT) if c == cell) for cell in range(CELL_COUNT)
)
# Per cell, per axis: where the cell sits in the layout, with the stretch four places either
# side of it. A line of five through the cell lies in that stretch, and any five in the
# stretch goes through the cell, as each side alone holds only four places.
WINDOWS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((max(0, p - WIN_LENGTH + 1), p, p + WIN_LENGTH) for p in positions)
    for positions in POSITIONS
)
# Per cell: the layout around its three appearances, so that writing it is one join.
AROUND: tuple[tuple[slice, slice, slice, slice], ...] = tuple(
    (slice(0, a), slice(a + 1, b), slice(b + 1, c), slice(c + 1, None)) for a, b, c in POSITIONS
)
FIVES = {mark: mark * WIN_LENGTH for mark in MARBLE.values()}
# A capture seen along a line: the empty cell to place on, then the pair, then the closer.
CAPTURE_PATTERNS = {
    mine: (EMPTY + theirs * 2 + mine, mine + theirs * 2 + EMPTY)
    for mine, theirs in (("1", "2"), ("2", "1"))
}
FREE = bytes(1 if byte == ord(EMPTY) else 0 for byte in range(256))


PICK_LAYOUT = itemgetter(*LAYOUT)


def _lines(board: str) -> str:
    """The layout string of a board, picked in one call: the separator put after the board
    is what LAYOUT's -1 picks."""
    return "".join(PICK_LAYOUT(board + SEPARATOR))


def _put(lines: str, cell: int, mark: str) -> str:
    """The layout string with `mark` written on all three appearances of `cell`."""
    first, second, third, rest = AROUND[cell]
    return mark.join((lines[first], lines[second], lines[third], lines[rest]))


def _wins(lines: str, cell: int, mine: str) -> bool:
    """Whether a marble of `mine` on `cell` (placed or not yet) is in a line of five or more."""
    five = FIVES[mine]
    for start, at, end in WINDOWS[cell]:
        # Counting first is cheap and usually settles it: five need four others around.
        if lines.count(mine, start, end) >= WIN_LENGTH - 1 and five in (
            lines[start:at] + mine + lines[at + 1 : end]
        ):
            return True
    return False


@dataclass(frozen=True)
class Place:
    """A placement on `cell`; `removed` is the enclosed enemy marble taken, if it captures."""

    cell: int
    removed: int | None = None


BokuMove = Place | Pass

# Every move that can ever be legal, made once, so generating moves allocates nothing.
PLACES: tuple[Place, ...] = tuple(Place(cell) for cell in range(CELL_COUNT))
CAPTURES: dict[tuple[int, int], Place] = {
    (LAYOUT[at + end], LAYOUT[at + taken]): Place(LAYOUT[at + end], LAYOUT[at + taken])
    for at in range(len(LAYOUT) - 3)
    if min(LAYOUT[at : at + 4]) >= 0
    for end in (0, 3)
    for taken in (1, 2)
}
# The moves above live as long as the module, so their ids tell them apart for good.
SHARED = frozenset(map(id, (*PLACES, *CAPTURES.values())))
REMOVED = attrgetter("removed")


def _hits(end: int) -> dict[int, tuple[int, tuple[Place, ...]]]:
    """Per layout place where four cells of a line start: the cell at `end` (0 or 3) and the
    placements there that capture one of the middle two, ordered by the marble removed."""
    return {
        at: (cell, tuple(CAPTURES[cell, taken] for taken in sorted(LAYOUT[at + 1 : at + 3])))
        for at in range(len(LAYOUT) - 3)
        if min(LAYOUT[at : at + 4]) >= 0
        for cell in (LAYOUT[at + end],)
    }


# A capture seen along a line, for the marble to place: the pattern and its hits by place.
CAPTURE_HITS = {
    mine: ((before, _hits(0)), (after, _hits(3)))
    for mine, (before, after) in CAPTURE_PATTERNS.items()
}


def _captures(lines: str, mine: str) -> dict[int, tuple[Place, ...]]:
    """Empty cells where a marble of `mine` would enclose pairs, with the capturing placements
    there in order."""
    found: dict[int, tuple[Place, ...]] = {}
    for pattern, hits in CAPTURE_HITS[mine]:
        at = lines.find(pattern)
        while at >= 0:
            cell, options = hits[at]
            if cell in found:  # pairs closed along several lines all offer their marbles
                options = tuple(sorted((*found[cell], *options), key=REMOVED))
            found[cell] = options
            at = lines.find(pattern, at + 1)
    return found


# What each seat's turn shows, per (cell, removed), made once like the moves themselves.
MARKS: dict[int, dict[tuple[int, int | None], Highlight]] = {
    seat: {
        **{
            (cell, None): Highlight(seat, NAMES[cell], (POINTS[cell],))
            for cell in range(CELL_COUNT)
        },
        **{
            (cell, taken): Highlight(
                seat, f"{NAMES[cell]}x{NAMES[taken]}", (POINTS[cell],), (POINTS[taken],)
            )
            for cell, taken in CAPTURES
        },
    }
    for seat in MARBLE
}


@dataclass(frozen=True, slots=True)
class BokuState(CommonState):
    """A position: `board` holds the 80 cells in notation order ('.', '1' or '2'), `blocked`
    the cell closed to the player to move, `earlier` the repetition keys since the last plain
    placement, this position's last, or None when this position is the only one (see
    `history`). Make positions with the game (or a diagram), not by replacing `board`: the
    derived fields would go stale."""

    board: str
    blocked: int | None = None
    earlier: History[str] | None = field(default=None, kw_only=True)
    # Derived, never compared: the board in layout order (see _layout) and the plain placement
    # on every empty cell, passed in by `_play` (updated from the previous position, they must
    # match `board`) or worked out here; the legal moves, worked out once because every turn
    # needs them twice (to choose one, then to check it), and `taking`, the empty cells where a
    # plain placement is not legal, with the marbles a placement there removes (none for the
    # blocked cell), which lets `apply` check a move without searching the moves.
    lines: str = field(default="", compare=False, repr=False)
    places: tuple[Place, ...] = field(default=(), compare=False, repr=False)
    moves: tuple[BokuMove, ...] = field(init=False, compare=False, repr=False)
    taking: dict[int, tuple[Place, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.lines:
            object.__setattr__(self, "lines", _lines(self.board))
        if not self.places:  # also when no cell is empty: working out () again is cheap
            places = tuple(compress(PLACES, self.board.encode().translate(FREE)))
            object.__setattr__(self, "places", places)
        moves, taking = _moves_and_taking(
            self.board, self.lines, self.places, self.blocked, self.turn, self.result
        )
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "taking", taking)

    @property
    def history(self) -> History[str]:
        """The repetition keys since the last plain placement, this position's last. Most turns
        are plain placements, after which no earlier position can recur: their history is
        made only when asked for (a capture or a pass, a dump)."""
        if self.earlier is not None:
            return self.earlier
        return History.start(_key(self.board, self.blocked, self.turn))


# Every field, derived ones too, as `_play` works them out (see direct_constructor).
_made = direct_constructor(
    BokuState,
    (
        "board",
        "blocked",
        "earlier",
        "lines",
        "places",
        "moves",
        "taking",
        *("variant", "players", "turn", "ply", "result", "last"),
    ),
)


def _key(board: str, blocked: int | None, turn: int) -> str:
    """The position for the repetition rule: marbles, blocked cell and side to move."""
    return f"{board}:{'-' if blocked is None else NAMES[blocked]}:{turn}"


def _moves_and_taking(
    board: str,
    lines: str,
    places: tuple[Place, ...],
    blocked: int | None,
    turn: int,
    result: Outcome | None,
) -> tuple[tuple[BokuMove, ...], dict[int, tuple[Place, ...]]]:
    """A position's `moves`, every placement on a free cell, a capturing one once per marble
    it may remove (none once the game is over); and its `taking`."""
    if result is not None:
        return (), {}
    mine = MARBLE[turn]
    taking = _captures(lines, mine)
    if not taking and blocked is None:
        return places or (PASS,), taking  # the usual case, with nothing to patch
    for cell in [cell for cell in taking if _wins(lines, cell, mine)]:
        del taking[cell]  # the win comes first: just a plain placement
    if blocked is not None:
        taking[blocked] = ()
    moves: list[BokuMove] = list(places)
    # Going backwards keeps the places of the cells still to patch where they were.
    for cell in sorted(taking, reverse=True):
        at = board.count(EMPTY, 0, cell)
        moves[at : at + 1] = taking[cell]
    return tuple(moves) or (PASS,), taking


def _listed(state: BokuState, move: BokuMove) -> bool:
    """Whether `move` is one of the shared move objects legal in `state`, found without a
    search: a plain placement is legal on an empty cell that `taking` does not hold, a
    capturing one when `taking` lists it."""
    if move is PASS:
        return state.moves[0] is PASS
    if not isinstance(move, Place) or id(move) not in SHARED:
        return False  # a move made elsewhere may hold anything: the usual path judges it
    cell, removed = move.cell, move.removed
    if removed is None:
        return state.board[cell] == EMPTY and cell not in state.taking
    return any(move is legal for legal in state.taking.get(cell, ()))


def winning_line(state: BokuState) -> tuple[Point, ...]:
    """The cells of the line of five or more that won the game, end to end; () if none did."""
    if state.result is None or state.result.reason != Reason.FIVE or state.last is None:
        return ()
    (q, r), mine = state.last.path[0], MARBLE[state.last.seat]
    for dq, dr in DIRECTIONS[::2]:
        line = [(q, r)]
        for sign in (1, -1):
            step = (q + sign * dq, r + sign * dr)
            while step in INDEX and state.board[INDEX[step]] == mine:
                line.append(step)
                step = (step[0] + sign * dq, step[1] + sign * dr)
        if len(line) >= WIN_LENGTH:
            return tuple(sorted(line))
    return ()


_MOVE = re.compile(r"([a-z])(\d{1,2})(?:x([a-z])(\d{1,2}))?")
# Forgiving input: "e05" is e5, and "e5f6", "e5:f6" or "e5*f6" mean e5xf6.
_LEADING_ZERO = re.compile(r"(?<=[a-z])0+(?=\d)")
_CAPTURE_MARK = re.compile(r"^([a-z]\d+)[x:*]?([a-z]\d+)$")


def parse_cell(text: str) -> int:
    """'E5' -> its cell number; InvalidMove names the column's range for cells off the board."""
    match = re.fullmatch(r"([a-z])(\d{1,2})", text.strip().lower())
    if not match:
        raise InvalidMove(f"{text!r} is not a cell (write a column letter and a number, like e5)")
    return _cell(match[1], match[2])


def _cell(letter: str, number: str) -> int:
    q, r = COLUMNS.find(letter), int(number) - 1
    if (q, r) in INDEX:
        return INDEX[q, r]
    name = f"{letter}{number}"
    if q < 0:
        raise InvalidMove(f"{name} is off the board: columns run from a to j")
    low, high = max(0, q - SPAN) + 1, min(SIZE - 1, q + SPAN) + 1
    raise InvalidMove(
        f"{name} is off the board: column {letter} runs from {letter}{low} to {letter}{high}"
    )


class Boku(Game[BokuState, BokuMove]):
    name = "boku"
    title = "Boku"
    board_size = (SIZE, SIZE)
    default_variant = "standard"
    variants = {
        "standard": Variant(
            "standard", "80-cell hexagon, five in a row wins, enclosed pairs are captured", (2,)
        ),
    }
    seat_names = ("Dark", "Light")
    help_topics = {
        "overview": (
            "Boku is a two-player game of placing marbles on a hexagonal board of 80 cells. "
            "Dark moves first, then the players alternate, one marble per turn; there is no "
            "limit on marbles and nothing ever moves. Line up five of your own to win. Along the "
            "way, a placement that shuts two enemy marbles in between two of yours takes one of "
            "them off the board."
        ),
        "board": (
            "Cells are named by a column letter and a number: a1-a6, b1-b7, c1-c8, d1-d9, "
            "e1-e10, f1-f10, g2-g10, h3-h10, i4-i10 and j5-j10, 80 in all. The picture stands "
            "the board on its corner a1: each lettered column runs up and to the left from the "
            "lower right edge, where its letter is written, and each numbered row runs up and "
            "to the right from the lower left edge, where its number is written. Empty cells "
            "also show their names. A cell touches the next cells along its column and its "
            "row, and the cells straight above and below it: e5 touches e4, e6, d5, f5, d4 and "
            "f6. Lines (for five in a row and for captures) run in these three directions. The "
            "six corners touch three cells, the other edge cells four."
        ),
        "placing": (
            "On your turn put one marble on any empty cell, except the one cell that may be "
            "blocked for you (see 'blocked'). Type the cell, for example e5. If your placement "
            "captures, also name the marble you take: e5xf6. Capital letters and spaces do not "
            "matter (E5 x F6 works too)."
        ),
        "winning": (
            "You win at once when the marble you just placed is part of an unbroken line of five "
            "or more of your marbles along one of the three directions. Longer lines count too. "
            "The win comes before any capture: a placement that both completes five and encloses "
            "a pair just wins, and nothing is removed."
        ),
        "capturing": (
            "When your new marble closes a line of exactly two enemy marbles with another of "
            "your marbles at the far end (yours, theirs, theirs, yours), you must remove one of "
            "those two. One enemy marble, or three in a row, between yours is safe, and placing "
            "your marble between enemy marbles never puts it in danger. If one placement closes "
            "several such pairs at once, you still remove only one marble, chosen from all of "
            "them. Write the removal after an x: e5xf6. A capturing placement must say what it "
            "removes; a placement that captures nothing must not."
        ),
        "blocked": (
            "The cell a captured marble leaves empty is blocked for the captured player's very "
            "next placement only, so they cannot simply put the marble straight back. After "
            "that turn it is free again for both players. The picture marks the blocked cell."
        ),
        "draws": (
            "The game is drawn when the board fills up without a line of five, or when the same "
            "position (the marbles, the blocked cell and the player to move) comes up for the "
            "third time, which only endless capturing back and forth can cause. If the only "
            "empty cell is the one blocked for you, you pass and your opponent plays again."
        ),
    }

    def _setup(self, variant: str, players: int, seed: int) -> BokuState:
        board = EMPTY * CELL_COUNT
        return BokuState(board=board, variant=variant)

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: BokuState) -> tuple[BokuMove, ...]:
        return state.moves

    def apply(self, state: BokuState, move: BokuMove, *, check: bool = True) -> BokuState:
        # Legal moves are shared objects, so telling one of them by identity is an exact check
        # that skips comparing dataclasses field by field; anything else takes the usual
        # path, which also explains a refusal.
        if not check or (state.result is None and _listed(state, move)):
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
            lines = _put(lines, cell, mine)
            highlight = MARKS[seat][cell, removed]
            if removed is not None:
                board = board[:removed] + EMPTY + board[removed + 1 :]
                lines = _put(lines, removed, EMPTY)
                at = board.count(EMPTY, 0, removed)
                places = (*places[:at], PLACES[removed], *places[at:])
                blocked = removed
            # A five anywhere is rare, so looking for one first spares the exact check.
            if FIVES[mine] in lines and _wins(lines, cell, mine):
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
            key = _key(board, blocked, following)
            history = state.history.then(key)
            if result is None and history.occurrences(key) >= 3:
                result = Outcome((), Reason.REPETITION)
        moves, taking = _moves_and_taking(board, lines, places, blocked, following, result)
        return _made(
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
        if isinstance(move, Pass):
            return "pass"
        if move.removed is None:
            return NAMES[move.cell]
        return f"{NAMES[move.cell]}x{NAMES[move.removed]}"

    def describe_position(self, state: BokuState, names: Sequence[str] | None = None) -> str:
        return self.seats_described(
            state, names, lambda seat: counted(state.board.count(str(seat)), "stone")
        )

    def describe_move(
        self, state: BokuState, move: BokuMove, names: Sequence[str] | None = None
    ) -> str:
        if not isinstance(move, Place) or move.removed is None:
            return super().describe_move(state, move, names)
        owner = self.player_name(3 - state.turn, names)
        taken = owned_pieces(owner, "marble", [NAMES[move.removed]])
        return f"{self.format_move(state, move)}, taking {taken}"

    def move_tokens(self, state: BokuState, move: BokuMove) -> tuple[str, ...]:
        if isinstance(move, Place) and move.removed is not None:
            return (NAMES[move.cell], f"x{NAMES[move.removed]}")
        return (self.format_move(state, move),)

    def normalize(self, text: str) -> str:
        cleaned = _LEADING_ZERO.sub("", super().normalize(text))
        return _CAPTURE_MARK.sub(r"\1x\2", cleaned)

    def diagnose(
        self, state: BokuState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        cleaned = self.normalize(text)
        legal = self.legal_moves(state)
        if cleaned == "pass":
            return IllegalMove("you can only pass when there is no cell you may place on")
        match = _MOVE.fullmatch(cleaned)
        if not match:
            return InvalidMove(
                f"{text.strip()!r} is not a Boku move: write the cell to place on, like e5, "
                "and for a capturing placement add the marble to remove, like e5xf6"
            )
        try:
            cell = _cell(match[1], match[2])
            removed = None if match[3] is None else _cell(match[3], match[4])
        except RulesError as error:
            return error
        if legal == (PASS,):
            return IllegalMove(
                "there is no cell you may place on (the only empty one is blocked for you), "
                "so you must pass"
            )
        return self._why_illegal(state, cell, removed, names)

    def _why_illegal(
        self, state: BokuState, cell: int, removed: int | None, names: Sequence[str] | None
    ) -> RulesError:
        board = state.board
        name = NAMES[cell]
        mine = MARBLE[state.turn]
        opponent = self.player_name(3 - state.turn, names)
        if board[cell] == mine:
            return IllegalMove(f"{name} already holds one of your marbles; pick an empty cell")
        if board[cell] != EMPTY:
            return IllegalMove(f"{name} already holds {opponent}'s marble; pick an empty cell")
        if cell == state.blocked:
            return IllegalMove(
                f"{name} was just emptied by a capture and is blocked for this turn; place "
                "anywhere else (it is free again next turn)"
            )
        # The cell is free, so the placement itself is legal and only the removal is wrong.
        options = _captures(state.lines, mine).get(cell, ())
        choices = " or ".join(self.format_move(state, option) for option in options)
        if removed is None:
            return IllegalMove(
                f"{name} encloses {opponent}'s marbles, so you must also remove one of them: "
                f"write {choices}"
            )
        if _wins(state.lines, cell, mine):
            return IllegalMove(
                f"{name} makes five in a row and wins at once, before any capture: write just "
                f"{name}"
            )
        if not options:
            return IllegalMove(
                f"{name} encloses no pair of {opponent}'s marbles, so nothing can be removed: "
                f"write just {name}"
            )
        return IllegalMove(
            f"{NAMES[removed]} is not one of the marbles {name} encloses: write {choices}"
        )

    # -- diagrams --------------------------------------------------------------------------

    def parse_diagram(self, text: str) -> BokuState:
        rows, keys = split_diagram(text)
        if rows:
            raise InvalidDiagram(
                "a Boku diagram is key lines only, like '1: E5 F6', '2: D4', 'blocked: E6', "
                "'to move: 1'"
            )
        known = {"1", "2", "dark", "light", "blocked", "to move"}
        unknown = set(keys) - known
        if unknown:
            raise InvalidDiagram(
                f"unknown key {sorted(unknown)[0]!r} (Boku knows 1, 2, blocked and to move)"
            )
        cells = [EMPTY] * CELL_COUNT
        for key, value in keys.items():
            if key not in SEATS:
                continue
            for word in value.replace(",", " ").split():
                cell = self._diagram_cell(word)
                if cells[cell] != EMPTY:
                    raise InvalidDiagram(f"{word} is listed twice")
                cells[cell] = MARBLE[SEATS[key]]
        blocked: int | None = None
        if keys.get("blocked", "").strip() not in ("", "-", "none"):
            blocked = self._diagram_cell(keys["blocked"])
            if cells[blocked] != EMPTY:
                raise InvalidDiagram(f"the blocked cell {keys['blocked'].strip()} is not empty")
        turn = parse_seat(keys.get("to move", "1"), 2, SEATS)
        board = "".join(cells)
        return BokuState(board=board, turn=turn, blocked=blocked)

    @staticmethod
    def _diagram_cell(word: str) -> int:
        try:
            return parse_cell(word)
        except InvalidMove as error:
            raise InvalidDiagram(str(error)) from None

    def format_diagram(self, state: BokuState) -> str:
        lines = []
        for seat in (1, 2):
            cells = [NAMES[i].upper() for i, c in enumerate(state.board) if c == MARBLE[seat]]
            lines.append(f"{seat}: {' '.join(cells)}".rstrip())
        if state.blocked is not None:
            lines.append(f"blocked: {NAMES[state.blocked].upper()}")
        lines.append(f"to move: {state.turn}")
        return "\n".join(lines)

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
