"""Quorum: jump your stones over your own, smother and flip the opponent's, hold the centre."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import (
    PASS,
    CommonState,
    Game,
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
    join_clauses,
    join_words,
    make_highlight,
    next_seat,
    owned_pieces,
    parse_seat,
    parse_square,
    split_diagram,
    split_squares,
    square_name,
)
from rules.repetition import History

SIZE = 8
EMPTY, WHITE, BLACK = ".", "w", "b"
STONE = {1: WHITE, 2: BLACK}
SIDE_NAMES = {"white": 1, "w": 1, "○": 1, "black": 2, "b": 2, "●": 2}
HOMES = {1: (0, 1, 8, 9), 2: (54, 55, 62, 63)}  # a1 b1 a2 b2 / g7 h7 g8 h8
OBJECTIVES = (27, 28, 35, 36)  # d4 e4 d5 e5
START = {
    1: ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"),
    2: ("h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "h8"),
}


BOARD = Rect(SIZE, SIZE)
_index, _point, _name = BOARD.index, BOARD.point, BOARD.name
_on_board = BOARD.contains
POINTS = tuple(map(_point, range(SIZE * SIZE)))

DIRECTIONS = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_index((f + df, r + dr)) for df, dr in DIRECTIONS if _on_board(f + df, r + dr))
    for f, r in map(_point, range(SIZE * SIZE))
)

# For each direction from a square: (neighbour, square beyond), both on the board.
LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (_index((f + df, r + dr)), _index((f + 2 * df, r + 2 * dr)))
        for df, dr in DIRECTIONS
        if _on_board(f + 2 * df, r + 2 * dr)
    )
    for f, r in map(_point, range(SIZE * SIZE))
)


@dataclass(frozen=True, order=True)
class Jump:
    active: int
    target: int


@dataclass(frozen=True, order=True)
class Place:
    pass


PLACE = Place()


# Jumps are found with bit masks (bit i = board[i]), one direction at a time: a stone of
# yours is an active stone for a direction when the square one step on holds another and the
# square two steps on is empty. Scanning square by square took about three times as long.
def _notation_key(active: int, target: int) -> int:
    """A jump's place in notation order: active file and rank, then target file and rank."""
    (af, ar), (tf, tr) = _point(active), _point(target)
    return ((af * SIZE + ar) * SIZE + tf) * SIZE + tr


def _direction(df: int, dr: int) -> tuple[int, int, tuple[int, ...]]:
    """For one jump direction: the actives whose target is on the board (as a mask), the
    step in board indices, and each such active's notation key."""
    mask, step, keys = 0, dr * SIZE + df, [0] * (SIZE * SIZE)
    for active, (f, r) in enumerate(map(_point, range(SIZE * SIZE))):
        if _on_board(f + 2 * df, r + 2 * dr):
            mask |= 1 << active
            keys[active] = _notation_key(active, active + 2 * step)
    return mask, step, tuple(keys)


# Python shifts by positive amounts only: with the masks first raised by REACH bits (the
# longest jump, in board indices), "the square `step` on" is a right shift for every step.
REACH = 2 * (2 * SIZE + 2)
_DIRECTIONS = [
    _direction(df, dr) for df in range(-2, 3) for dr in range(-2, 3) if (df, dr) != (0, 0)
]
SHIFTS = tuple(
    (actives, REACH + step, REACH + 2 * step, keys) for actives, step, keys in _DIRECTIONS
)
JUMP_AT = {
    keys[active]: Jump(active, active + 2 * step)
    for mask, step, keys in _DIRECTIONS
    for active in range(SIZE * SIZE)
    if mask >> active & 1
}
HOME_MASKS = {seat: sum(1 << h for h in homes) for seat, homes in HOMES.items()}
# board.translate(BITS_OF[stone]) spells the squares holding `stone` as 1s, others as 0s.
BITS_OF = {
    stone: str.maketrans({c: "1" if c == stone else "0" for c in (EMPTY, WHITE, BLACK)})
    for stone in (EMPTY, WHITE, BLACK)
}


def _mask(board: str, stone: str) -> int:
    """The squares holding `stone`, as bits (bit i for board[i])."""
    return int(board.translate(BITS_OF[stone])[::-1], 2)


QuorumMove = Jump | Place | Pass
ALL_SQUARES = (1 << SIZE * SIZE) - 1
BIT = tuple(1 << square for square in range(SIZE * SIZE))
NAMES = tuple(map(_name, range(SIZE * SIZE)))
CENTRE_BITS = sum(map(BIT.__getitem__, OBJECTIVES))
NEIGHBOUR_BITS = tuple(sum(map(BIT.__getitem__, around)) for around in NEIGHBOURS)


def _bits(squares: tuple[int, ...]) -> int:
    return sum(map(BIT.__getitem__, squares))


@dataclass(frozen=True)
class QuorumState(CommonState):
    board: str
    history: History[str]
    """The position keys so far (`key`), the current one last, for the repetition rule."""
    stones: tuple[int, int, int] = field(default=(0, 0, 0), compare=False, repr=False)
    """Derived, never compared: each seat's stones as bits (bit i for board[i]), by seat
    (index 0 unused); `_play` carries them forward move by move, other states work them out
    from `board`. Make positions with the game (or a diagram), not by replacing `board`."""

    def __post_init__(self) -> None:
        if not any(self.stones):
            stones = (0, _mask(self.board, WHITE), _mask(self.board, BLACK))
            object.__setattr__(self, "stones", stones)

    @property
    def key(self) -> str:
        return f"{self.board}{self.turn}"


def _smother_and_flip(
    stones: list[int], landing: int, seat: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """After a jump to `landing` (already on `stones`, which this updates): the enemy stones
    suffocated (next to the landing, no empty square around them), then the enemy stones
    flipped (next to the landing with a stone of `seat` right behind), each all at once."""
    enemy = 3 - seat
    empty = ALL_SQUARES ^ (stones[1] | stones[2])
    theirs, mine = stones[enemy], stones[seat]
    captured = tuple(
        n for n in NEIGHBOURS[landing] if theirs & BIT[n] and not empty & NEIGHBOUR_BITS[n]
    )
    theirs &= ~_bits(captured)
    changed = tuple(n for n, beyond in LINES[landing] if theirs & BIT[n] and mine & BIT[beyond])
    flipped = _bits(changed)
    stones[enemy], stones[seat] = theirs & ~flipped, mine | flipped
    return captured, changed


# Every field, in the order `_play` has them (see direct_constructor).
_made = direct_constructor(
    QuorumState,
    ("board", "history", "stones", "variant", "players", "turn", "ply", "result", "last"),
)


def _start_board() -> str:
    cells = [EMPTY] * (SIZE * SIZE)
    for seat, squares in START.items():
        for square in squares:
            cells[_index(parse_square(square, SIZE, SIZE))] = STONE[seat]
    return "".join(cells)


def _seat_name(seat: int) -> str:
    return "White" if seat == 1 else "Black"


class Quorum(Game[QuorumState, QuorumMove]):
    name = "quorum"
    title = "Quorum"
    board_size = (SIZE, SIZE)
    default_variant = "standard"
    variants = {
        "standard": Variant("standard", "8x8 board, ten stones each, White moves first", (2,)),
    }
    seat_names = ("White", "Black")
    help_topics = {
        "overview": (
            "Quorum is a two-player race for the centre of an 8x8 board. White (hollow stones) "
            "and Black (filled stones) take turns. Each turn you either jump one of your stones "
            "over another of yours, or refill your home corner. Jumps can smother and flip enemy "
            "stones. You win the moment you hold all four centre squares d4, d5, e4 and e5."
        ),
        "setup": (
            "Each side starts with ten stones packed into its own corner: White in the a1 "
            "corner (a1-d1, a2-c2, a3-b3, a4), Black in the h8 corner (e8-h8, f7-h7, g6-h6, "
            "h5). Your home is the 2x2 block in your corner: a1 a2 b1 b2 for White, g7 g8 h7 "
            "h8 for Black. White moves first."
        ),
        "moving": (
            "Pick two of your stones: the one that moves (active) and the one it uses as a "
            "pivot (center). The center may be up to two files and two ranks away, in any "
            "direction, touching or not. The active stone lands as far beyond the center as it "
            "started before it: target = center + (center - active). The target must be on the "
            "board and empty; nothing in between matters. Write the move as the two squares, "
            "for example a1e3 (a1 jumps over c2 to e3)."
        ),
        "suffocation": (
            "After a jump, every enemy stone touching the landing square (sideways or "
            "diagonally) that has no empty square around it is removed, all at the same time. "
            "The square you just left counts as empty; the board edge does not. Your own stones "
            "are never removed."
        ),
        "conversion": (
            "After suffocation, look from the landing square in all eight directions: an enemy "
            "stone right next to it with one of your stones directly behind it is flipped to "
            "your colour. All flips happen at once, and only the stone immediately between the "
            "two counts."
        ),
        "placement": (
            "Instead of jumping you may place: if at least one of your home squares is empty, "
            "put a new stone on every empty home square. Placing smothers and flips nothing. "
            "Type 'place' (or '++')."
        ),
        "winning": (
            "You win as soon as d4, d5, e4 and e5 all hold your stones after your turn. If you "
            "cannot jump and cannot place, you pass. The same position with the same player to "
            "move occurring a third time is a draw."
        ),
    }

    def _setup(self, variant: str, players: int, seed: int) -> QuorumState:
        board = _start_board()
        return QuorumState(board=board, variant=variant, history=History.start(f"{board}1"))

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: QuorumState) -> tuple[QuorumMove, ...]:
        if state.result is not None:
            return ()
        stones = state.stones
        mine, empty = stones[state.turn], ALL_SQUARES ^ (stones[1] | stones[2])
        raised_mine, raised_empty = mine << REACH, empty << REACH
        keys: list[int] = []
        add = keys.append
        for actives, to_center, to_target, notation in SHIFTS:
            found = mine & actives & (raised_mine >> to_center) & (raised_empty >> to_target)
            while found:
                top = found.bit_length() - 1
                add(notation[top])
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
                captured, changed = _smother_and_flip(stones, target, seat)
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
                stones[seat] |= _bits(changed)
            highlight = make_highlight(
                seat, self.format_move(state, move), (), (), tuple(map(POINTS.__getitem__, changed))
            )
        board = "".join(cells)
        key = f"{board}{following}"
        history = state.history.then(key)
        result: Outcome | None = None
        if stones[seat] & CENTRE_BITS == CENTRE_BITS:
            result = Outcome((seat,), Reason.QUORUM)
        elif history.occurrences(key) >= 3:
            result = Outcome((), Reason.REPETITION)
        return _made(
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
        if isinstance(move, Jump):
            return NAMES[move.active] + NAMES[move.target]
        return "place" if isinstance(move, Place) else "pass"

    def describe_position(self, state: QuorumState, names: Sequence[str] | None = None) -> str:
        return self.seats_described(
            state, names, lambda seat: counted(state.board.count(STONE[seat]), "stone")
        )

    def describe_move(
        self, state: QuorumState, move: QuorumMove, names: Sequence[str] | None = None
    ) -> str:
        notation = self.format_move(state, move)
        if isinstance(move, Place):
            filled = [
                _name(h) for h in sorted(HOMES[state.turn], key=_point) if state.board[h] == EMPTY
            ]
            stones = "a stone" if len(filled) == 1 else "stones"
            return f"{notation}, adding {stones} on {join_words(filled)}"
        if not isinstance(move, Jump):
            return super().describe_move(state, move, names)
        last = self._play(state, move).last
        assert last is not None
        events = []
        if last.captured:
            owner = self.player_name(next_seat(state.turn, 2), names)
            taken = [square_name(p) for p in sorted(last.captured)]
            events.append(f"taking {owned_pieces(owner, 'stone', taken)}")
        if last.changed:
            events.append(f"turning {join_words([square_name(p) for p in sorted(last.changed)])}")
        return f"{notation}, {join_clauses(events)}" if events else notation

    def move_tokens(self, state: QuorumState, move: QuorumMove) -> tuple[str, ...]:
        if isinstance(move, Jump):
            return (_name(move.active), _name(move.target))
        return (self.format_move(state, move),)

    def normalize(self, text: str) -> str:
        cleaned = super().normalize(text)
        return "place" if cleaned in {"++", "+", "place", "placement"} else cleaned

    def diagnose(
        self, state: QuorumState, text: str, names: Sequence[str] | None = None
    ) -> RulesError:
        cleaned = self.normalize(text)
        seat = state.turn
        if cleaned == "place":
            homes = " ".join(_name(h) for h in HOMES[seat])
            return IllegalMove(f"your home squares ({homes}) are all full, so you cannot place")
        if cleaned == "pass":
            return IllegalMove("you can only pass when you have no jump and cannot place")
        squares = split_squares(text)
        if len(squares) != 2 or "".join(squares) != cleaned:
            return InvalidMove(
                f"{text.strip()!r} is not a Quorum move: write the moving stone's square and "
                "the target square (like a1e3), or 'place'"
            )
        try:
            active, target = (_index(parse_square(s, SIZE, SIZE)) for s in squares)
        except RulesError as error:
            return error
        return self._why_illegal(state, active, target, names)

    def _why_illegal(
        self, state: QuorumState, active: int, target: int, names: Sequence[str] | None
    ) -> RulesError:
        mine = STONE[state.turn]
        board = state.board
        you = _seat_name(state.turn)
        opponent = self.player_name(next_seat(state.turn, 2), names)
        if board[active] == EMPTY:
            return IllegalMove(f"{_name(active)} has no stone")
        if board[active] != mine:
            return IllegalMove(
                f"{_name(active)} holds {opponent}'s stone, not yours (you play {you})"
            )
        if active == target:
            return IllegalMove("the stone has to land somewhere else")
        (af, ar), (tf, tr) = _point(active), _point(target)
        if (af + tf) % 2 or (ar + tr) % 2:
            return IllegalMove(
                f"no square lies exactly halfway between {_name(active)} and {_name(target)}, "
                "so there is no center stone to jump over"
            )
        center = _index(((af + tf) // 2, (ar + tr) // 2))
        cf, cr = _point(center)
        if abs(cf - af) > 2 or abs(cr - ar) > 2:
            return IllegalMove(
                f"the center {_name(center)} is too far from {_name(active)}: it may be at most "
                "2 files and 2 ranks away"
            )
        if board[center] == EMPTY:
            return IllegalMove(f"there is no stone on {_name(center)} to jump over")
        if board[center] != mine:
            return IllegalMove(
                f"the center stone on {_name(center)} is {opponent}'s: jump over one of yours"
            )
        if board[target] != EMPTY:
            return IllegalMove(f"the target {_name(target)} is occupied")
        return IllegalMove(f"{_name(active)}{_name(target)} is not legal here")

    # -- diagrams --------------------------------------------------------------------------

    def parse_diagram(self, text: str) -> QuorumState:
        rows, keys = split_diagram(text)
        cells = grid_rows(rows, SIZE, SIZE)
        board = [EMPTY] * (SIZE * SIZE)
        symbols = {
            "○": WHITE,
            "w": WHITE,
            "●": BLACK,
            "b": BLACK,
            "·": EMPTY,
            ".": EMPTY,
            "+": EMPTY,
        }
        for row_number, row in enumerate(cells):
            rank = SIZE - 1 - row_number
            for file, cell in enumerate(row):
                symbol = symbols.get(cell.lower() if cell.isascii() else cell)
                if symbol is None:
                    raise InvalidDiagram(
                        f"{square_name((file, rank))} holds {cell!r}; use ○ or w for White, "
                        "● or b for Black, and · . or + for an empty square"
                    )
                board[_index((file, rank))] = symbol
        turn = parse_seat(keys.get("to move", "white"), 2, SIDE_NAMES)
        unknown = set(keys) - {"to move"}
        if unknown:
            raise InvalidDiagram(f"unknown key {sorted(unknown)[0]!r} (Quorum knows 'to move')")
        joined = "".join(board)
        return QuorumState(board=joined, turn=turn, history=History.start(f"{joined}{turn}"))

    def format_diagram(self, state: QuorumState) -> str:
        lines = ["   " + " ".join("abcdefgh")]
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                index = _index((file, rank))
                stone = state.board[index]
                if stone == WHITE:
                    cells.append("○")
                elif stone == BLACK:
                    cells.append("●")
                else:
                    cells.append("+" if index in OBJECTIVES else "·")
            lines.append(f"{rank + 1}  " + " ".join(cells))
        lines.append(f"to move: {_seat_name(state.turn).lower()}")
        return "\n".join(lines)

    # -- persistence -----------------------------------------------------------------------

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
