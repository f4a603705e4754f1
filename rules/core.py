"""What every game shares: errors, outcomes, seats, the pass move, diagrams, records.

A game is a subclass of `Game` whose states are frozen dataclasses built on `CommonState`,
which declares the fields every game shares.
Legal moves are the single source of truth: parsing matches typed text against the
canonical notation of the legal moves, and only when nothing matches does the game's
`diagnose` explain, in a player's words, why the text is wrong.

For search: states are immutable, so a search keeps the parent and tries each move with
`apply(state, move, check=False)`; there is no undo to call. Each game's state is a cheap
copy: Boost's board is a tuple of bit masks, Quorum's, Boku's and Razzle Dazzle's a short
string, and what the repetition rules need from the past is a `rules.repetition.History`,
appended in O(1) along a line of play and copied once per branch (when a second move is
tried from the same state). Boku also carries its free cells and capturing moves forward,
Quorum its stone masks and Razzle Dazzle its occupied squares; `_play` makes each new state
with a `direct_constructor`, which skips the frozen dataclass's `__init__`.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType, MemberDescriptorType
from typing import Any, ClassVar, Generic, TypeVar

FORMAT_VERSION = 1


class RulesError(ValueError):
    """Base of every error a player can cause; the message is written for the player."""


class UnknownGame(RulesError):
    pass


class UnknownVariant(RulesError):
    pass


class InvalidMove(RulesError):
    """The text is not a move at all (syntax)."""


class IllegalMove(RulesError):
    """The text names a move the rules forbid here."""


class InvalidDiagram(RulesError):
    pass


class InvalidState(RulesError):
    """A dumped state that cannot be loaded (wrong version, corrupt data)."""


class InvalidRecord(RulesError):
    pass


class Reason(StrEnum):
    """Why a game ended: the fixed vocabulary of outcomes, stored as these strings."""

    TOWER = "tower"
    """Boost: a player's tower stands ringed by dragons."""
    CAPTURE = "capture"
    """Boost: every other player has been beaten on the board."""
    QUORUM = "quorum"
    """Quorum: one player holds all four centre squares."""
    FIVE = "five"
    """Boku: five or more of one player's marbles in a row."""
    GOAL = "goal"
    """Razzle Dazzle: the ball reached the far rank."""
    KING = "king"
    """Kyo: the opponent's king was taken."""
    MANA = "mana"
    """Kyo: both of the opponent's mana pieces were taken."""
    REPETITION = "repetition"
    """A position recurred as often as the game's repetition rule allows: a draw."""
    BOARD_FULL = "board-full"
    """Boku: no empty cell is left: a draw."""
    MOVE_LIMIT = "move-limit"
    """The game ran past its longest allowed length: a draw."""
    NO_MOVES = "no-moves"
    """Nobody can act (everyone could only pass), or nobody is left standing: a draw."""
    RESIGNATION = "resignation"
    """A player resigned; the others win."""
    TIMEOUT = "timeout"
    """A player ran out of time."""
    AGREEMENT = "agreement"
    """The players agreed to a draw."""


@dataclass(frozen=True, init=False)
class Outcome:
    """Who won (`winners`, empty for a draw) and why."""

    winners: tuple[int, ...]
    reason: Reason

    def __init__(self, winners: tuple[int, ...], reason: Reason | str) -> None:
        """`reason` may be given as its string; anything outside `Reason` is a ValueError."""
        try:
            known = Reason(reason)
        except ValueError:
            raise ValueError(f"unknown outcome reason {reason!r}") from None
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "reason", known)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def describe(self) -> str:
        if self.is_draw:
            return f"draw ({self.reason})"
        seats = ", ".join(str(s) for s in self.winners)
        return f"seat {seats} wins ({self.reason})"


@dataclass(frozen=True)
class Pass:
    """The only legal turn of a player who cannot act; the match service plays it."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

Point = tuple[int, int]


@dataclass(frozen=True)
class Highlight:
    """What the last turn did, kept in the state so any later render can mark it."""

    seat: int
    notation: str
    path: tuple[Point, ...] = ()
    captured: tuple[Point, ...] = ()
    changed: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "notation": self.notation,
            "path": [list(p) for p in self.path],
            "captured": [list(p) for p in self.captured],
            "changed": [list(p) for p in self.changed],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Highlight:
        def points(key: str) -> tuple[Point, ...]:
            return tuple((int(a), int(b)) for a, b in data.get(key, ()))

        return cls(
            int(data["seat"]),
            str(data["notation"]),
            points("path"),
            points("captured"),
            points("changed"),
        )


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    player_counts: tuple[int, ...] = (2,)


class MoveTree:
    """Prefix tree of legal moves' notation tokens, for square-by-square pickers.

    `move` is set where a complete move ends; a node may also have children (a pass chain
    that could go on). Children are computed on first use, so a game with too many turns to
    list expands only the nodes a player reaches. `key` names the game position a node stands
    for when different paths can reach the same one (a loop), so `moves()` visits it once.
    """

    __slots__ = ("_children", "_expand", "key", "move")

    def __init__(
        self,
        expand: Callable[[], Mapping[str, MoveTree]] | None = None,
        move: Hashable | None = None,
        key: Hashable | None = None,
    ) -> None:
        self._expand = expand
        self._children: Mapping[str, MoveTree] | None = None
        self.move = move
        self.key = key

    @property
    def children(self) -> Mapping[str, MoveTree]:
        """The next tokens and their subtrees, computed once, on first use."""
        if self._children is None:
            found = self._expand() if self._expand is not None else {}
            self._children = MappingProxyType(dict(found))
            self._expand = None
        return self._children

    def moves(
        self, seconds: float | None = None, *, breadth_first: bool = False
    ) -> Iterator[Hashable]:
        """Every complete move at or below this node, each once, depth first (a picker's
        order) or breadth first (the shortest first: a search that can list only some of a
        position's moves sees every piece's short ones, not one piece's long walks); with
        `seconds`, only those found within that much time (lists shown to players are
        bounded)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        keys: set[Hashable] = set()
        found: set[Hashable] = set()
        pending: deque[MoveTree] = deque([self])
        take = pending.popleft if breadth_first else pending.pop
        while pending:
            if deadline is not None and time.perf_counter() > deadline:
                return
            node = take()
            if node.key is not None:
                if node.key in keys:
                    continue
                keys.add(node.key)
            if node.move is not None and node.move not in found:
                found.add(node.move)
                yield node.move
            children = node.children.values()
            pending.extend(children if breadth_first else reversed(list(children)))

    def walk(self, tokens: Sequence[str]) -> MoveTree | None:
        node: MoveTree | None = self
        for token in tokens:
            if node is None:
                return None
            node = node.children.get(token)
        return node


def build_move_tree(entries: Iterable[tuple[Sequence[str], Hashable]]) -> MoveTree:
    """The tree of a complete listing: each node groups its moves by their next token when
    first asked for its children."""
    return _grouped([(tuple(tokens), move) for tokens, move in entries], 0)


def _grouped(entries: list[tuple[tuple[str, ...], Hashable]], depth: int) -> MoveTree:
    """The node of the moves in `entries`, which share their first `depth` tokens."""

    def expand() -> dict[str, MoveTree]:
        groups: dict[str, list[tuple[tuple[str, ...], Hashable]]] = {}
        for tokens, move in entries:
            if len(tokens) > depth:
                groups.setdefault(tokens[depth], []).append((tokens, move))
        return {token: _grouped(group, depth + 1) for token, group in groups.items()}

    ends = [move for tokens, move in entries if len(tokens) == depth]
    return MoveTree(expand, ends[-1] if ends else None)


BUDGET = 0.03  # seconds a list shown to a player may take to find its entries


@dataclass(frozen=True, kw_only=True, slots=True)
class CommonState:
    """The fields every game's state carries, declared once so the shared code can read them.

    Keyword-only, so a game's own fields (its board first) keep their positions in the
    constructor; frozen, so they read as read-only properties.
    """

    variant: str = "standard"
    players: int = 2
    turn: int = 1
    """The seat to move, 1-based."""
    ply: int = 0
    """Turns played so far, passes included."""
    result: Outcome | None = None
    """None while the game goes on."""
    last: Highlight | None = None
    """What the last turn did, for renderers."""


S = TypeVar("S", bound=CommonState)
M = TypeVar("M", bound=Hashable)
D = TypeVar("D")


def direct_constructor(cls: type[D], names: Sequence[str]) -> Callable[..., D]:
    """A constructor for the frozen dataclass `cls` taking the values of all its fields, in
    the order of `names`, and storing them as they are: no `__init__`, no `__post_init__`, no
    defaults, no checks. For a game's `_play`, which makes one state per turn, and for moves
    made while listing them: a frozen dataclass's `__init__` stores each field through
    `object.__setattr__`, and that alone cost about a third of a Boku turn. Written out as
    code once, like dataclasses' own `__init__`, because a loop over the fields would spend
    much of the saving."""
    fields = [item.name for item in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if sorted(names) != sorted(fields):
        raise ValueError(f"{cls.__name__} needs exactly its fields: {', '.join(fields)}")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    body = ["    state = new(cls)"]
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if isinstance(slot, MemberDescriptorType):  # a slot: its descriptor stores the value
            namespace[f"set_{name}"] = slot.__set__
            body.append(f"    set_{name}(state, {name})")
        else:
            body.append(f"    state.__dict__[{name!r}] = {name}")
    source = f"def make({', '.join(names)}):\n" + "\n".join(body) + "\n    return state\n"
    exec(source, namespace)  # noqa: S102 - source made above from the class's own field names
    return namespace["make"]  # type: ignore[no-any-return]


# A Highlight from all five of its fields, for the games' `_play` (one per turn).
make_highlight = direct_constructor(Highlight, ("seat", "notation", "path", "captured", "changed"))


# --- squares -------------------------------------------------------------------------------

FILES = "abcdefghijklmnopqrstuvwxyz"
_SQUARE = re.compile(r"([a-z])(\d{1,2})")


def square_name(point: Point) -> str:
    return f"{FILES[point[0]]}{point[1] + 1}"


def parse_square(text: str, width: int, height: int) -> Point:
    """'c3' -> (2, 2); raises InvalidMove for anything that is not a square of the board."""
    match = _SQUARE.fullmatch(text.strip().lower())
    if not match:
        raise InvalidMove(f"{text!r} is not a square (write a file letter and a rank, like c3)")
    point = (FILES.index(match[1]), int(match[2]) - 1)
    if not (0 <= point[0] < width and 0 <= point[1] < height):
        last = square_name((width - 1, height - 1))
        raise InvalidMove(f"{text} is off the board (squares run from a1 to {last})")
    return point


@dataclass(frozen=True)
class Rect:
    """A rectangular board whose squares are numbered rank by rank from a1 (index 0)."""

    width: int
    height: int

    def index(self, point: Point) -> int:
        return point[1] * self.width + point[0]

    def point(self, index: int) -> Point:
        return index % self.width, index // self.width

    def name(self, index: int) -> str:
        return square_name(self.point(index))

    def contains(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height


def split_squares(text: str) -> list[str]:
    """'a1-E3', 'a1 e3', 'A1E3' -> ['a1', 'e3']."""
    return [m.group(0) for m in _SQUARE.finditer(text.lower())]


# --- words for players ----------------------------------------------------------------------


def join_words(words: Sequence[str]) -> str:
    """'a3', 'a3 and b4', 'a3, b4 and c5': a list the way a sentence names it."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counted(number: int, noun: str) -> str:
    """`1 stone`, `3 stones`, `no stones`: a count in words for descriptions."""
    if number == 0:
        return f"no {noun}s"
    return f"{number} {noun}{'' if number == 1 else 's'}"


def join_clauses(clauses: Sequence[str]) -> str:
    """Like `join_words`, with a comma before the last 'and' when a clause has an 'and' of its
    own, so that the lists stay apart: `taking a3 and b4, and turning c5`."""
    if len(clauses) > 1 and any(" and " in clause for clause in clauses):
        return f"{', '.join(clauses[:-1])}, and {clauses[-1]}"
    return join_words(clauses)


def owned_pieces(owner: str, noun: str, squares: Sequence[str]) -> str:
    """Whose pieces, and where: `bob's stone on a3`, `bob's stones on a3 and b4`."""
    plural = "" if len(squares) == 1 else "s"
    return f"{owner}'s {noun}{plural} on {join_words(squares)}"


# --- diagrams ------------------------------------------------------------------------------

_KEY_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9 _-]*?)\s*:\s*(.*?)$")


def split_diagram(text: str) -> tuple[list[list[str]], dict[str, str]]:
    """Cell rows (labels still in) and trailing `key: value` lines, keys lower-cased."""
    rows: list[list[str]] = []
    keys: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("```"):
            continue
        key_match = _KEY_LINE.match(line)
        if key_match:
            keys[key_match[1].lower()] = key_match[2]
        else:
            rows.append(line.split())
    return rows, keys


def grid_rows(rows: list[list[str]], width: int, height: int) -> list[list[str]]:
    """Strip rank and file labels; return `height` rows of `width` cells, far side first."""
    letters = list(FILES[:width])
    cells: list[list[str]] = []
    for row in rows:
        if [t.lower() for t in row] == letters:
            continue
        trimmed = list(row)
        if len(trimmed) > width and trimmed[0].isdigit():
            trimmed = trimmed[1:]
        if len(trimmed) > width and trimmed[-1].isdigit():
            trimmed = trimmed[:-1]
        if len(trimmed) != width:
            raise InvalidDiagram(
                f"row {' '.join(row)!r} has {len(trimmed)} cells; every row needs {width}"
            )
        cells.append(trimmed)
    if len(cells) != height:
        raise InvalidDiagram(f"the diagram has {len(cells)} rows; this board needs {height}")
    return cells


def parse_seat(value: str, players: int, names: Mapping[str, int] | None = None) -> int:
    lowered = value.strip().lower()
    if names and lowered in names:
        return names[lowered]
    if lowered.isdigit() and len(lowered) <= 2 and 1 <= int(lowered) <= players:
        return int(lowered)
    choices = ", ".join([*(names or {}), *(str(s) for s in range(1, players + 1))])
    raise InvalidDiagram(f"{value!r} is not a seat (use one of: {choices})")


# --- the game interface -------------------------------------------------------------------


class Game(ABC, Generic[S, M]):
    """A game's rules. Subclasses fill in the abstract methods; the rest is shared."""

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[Mapping[str, Variant]]
    default_variant: ClassVar[str]
    help_topics: ClassVar[Mapping[str, str]]
    board_size: ClassVar[tuple[int, int]]
    seat_names: ClassVar[tuple[str, ...]] = ()
    # Whether a position may have too many turns to list in time (Kyo): then anything with a
    # time budget walks the lazy `move_tree` instead of calling `legal_moves`.
    may_list_slowly: ClassVar[bool] = False

    # -- to implement --------------------------------------------------------------------

    @abstractmethod
    def _setup(self, variant: str, players: int, seed: int) -> S: ...

    @abstractmethod
    def legal_moves(self, state: S) -> tuple[M, ...]: ...

    @abstractmethod
    def _play(self, state: S, move: M) -> S:
        """Apply a move already known to be legal."""

    @abstractmethod
    def format_move(self, state: S, move: M) -> str: ...

    @abstractmethod
    def diagnose(self, state: S, text: str, names: Sequence[str] | None = None) -> RulesError:
        """Why `text` (which matches no legal move) is wrong: InvalidMove or IllegalMove.

        `names` are the players' display names by seat, for messages about their pieces.
        """

    @abstractmethod
    def parse_diagram(self, text: str) -> S: ...

    @abstractmethod
    def format_diagram(self, state: S) -> str: ...

    @abstractmethod
    def _encode(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def _decode(self, data: Mapping[str, Any]) -> S: ...

    @abstractmethod
    def describe_position(self, state: S, names: Sequence[str] | None = None) -> str:
        """What each side has on the board, in a short sentence (`alice: 12 stones; bob: 11
        stones.`), so alt text and other words can say how a game stands without a picture."""

    # -- overridable conveniences ----------------------------------------------------------

    def normalize(self, text: str) -> str:
        """The form typed text and canonical notation are compared in."""
        return re.sub(r"[\s\-,]+", "", text.lower())

    def move_tokens(self, state: S, move: M) -> tuple[str, ...]:
        """A move's notation split for a square-by-square picker."""
        return tuple(self.format_move(state, move).split("-"))

    def describe_move(self, state: S, move: M, names: Sequence[str] | None = None) -> str:
        """What a legal `move` does in `state`, as the words after "<name> played", so a post
        says what happened: `f8b4, taking bob's stone on a3 and turning c5`. Games add their
        events to the notation; `names[seat - 1]` is a player's display name."""
        if isinstance(move, Pass):
            return "pass, having no legal move"
        return self.format_move(state, move)

    # -- shared behaviour ------------------------------------------------------------------

    @property
    def player_counts(self) -> tuple[int, ...]:
        counts = {n for v in self.variants.values() for n in v.player_counts}
        return tuple(sorted(counts))

    def new(self, players: int | None = None, variant: str | None = None, seed: int = 0) -> S:
        name = variant or self.default_variant
        if name not in self.variants:
            known = ", ".join(self.variants)
            raise UnknownVariant(f"{self.title} has no variant {name!r} (choose from: {known})")
        allowed = self.variants[name].player_counts
        count = allowed[0] if players is None else players
        if count not in allowed:
            counts = ", ".join(str(n) for n in allowed)
            raise UnknownVariant(f"{self.title} {name} is played by {counts} players, not {count}")
        return self._setup(name, count, seed)

    def seat_name(self, seat: int) -> str:
        """What players call a seat: a colour where the game has fixed colours."""
        if 1 <= seat <= len(self.seat_names):
            return self.seat_names[seat - 1]
        return f"Player {seat}"

    def seats_described(
        self, state: S, names: Sequence[str] | None, words: Callable[[int], str]
    ) -> str:
        """`alice: 12 stones; bob: 11 stones.`: each seat's `words`, for describe_position."""
        parts = [
            f"{self.player_name(seat, names)}: {words(seat)}"
            for seat in range(1, self.players(state) + 1)
        ]
        return "; ".join(parts) + "."

    def player_name(self, seat: int, names: Sequence[str] | None = None) -> str:
        """How text names a player: the display name if given (case kept), else the seat's."""
        if names and 1 <= seat <= len(names):
            return names[seat - 1]
        return self.seat_name(seat)

    def players(self, state: S) -> int:
        return state.players

    def to_move(self, state: S) -> int:
        return state.turn

    def ply(self, state: S) -> int:
        return state.ply

    def outcome(self, state: S) -> Outcome | None:
        return state.result

    def last(self, state: S) -> Highlight | None:
        return state.last

    def apply(self, state: S, move: M, *, check: bool = True) -> S:
        """The state after `move`.

        With `check=False` the move is trusted: it must come from `legal_moves(state)` (search,
        playouts, replaying a stored log). Nothing is regenerated or re-checked, so a move that
        is not legal gives an undefined state. Anything a person typed goes through the check.
        """
        if check:
            if self.outcome(state) is not None:
                raise IllegalMove("the game is over")
            if not self.is_legal(state, move):
                raise IllegalMove(f"{self._describe(state, move)} is not a legal move here")
        after = self._play(state, move)
        if isinstance(move, Pass) and self.outcome(after) is None and self._all_stuck(after):
            after = self.end(after, Outcome((), Reason.NO_MOVES))
        return after

    def _all_stuck(self, after_pass: S) -> bool:
        """Whether each other player, in turn, could only pass too: then nobody can act."""
        probe = after_pass
        for _ in range(self.players(after_pass) - 1):
            if not self.must_pass(probe):
                return False
            probe = self._play(probe, PASS)  # type: ignore[arg-type]
        return True

    def _describe(self, state: S, move: M) -> str:
        try:
            return self.format_move(state, move)
        except Exception:  # a foreign object cannot be formatted; say what it was
            return repr(move)

    def parse_move(self, state: S, text: str, names: Sequence[str] | None = None) -> M:
        """The legal move `text` means. Raises InvalidMove if it is not a move, IllegalMove if
        it is not allowed here; `names` (display names by seat) go into those messages."""
        if self.outcome(state) is not None:
            raise IllegalMove("the game is over")
        wanted = self.normalize(text)
        if not wanted:
            raise InvalidMove("type a move, for example " + self._example(state))
        for move in self.legal_moves(state):
            if self.normalize(self.format_move(state, move)) == wanted:
                return move
        raise self.diagnose(state, text, names)

    def _example(self, state: S) -> str:
        moves = self.legal_moves(state)
        return self.format_move(state, moves[0]) if moves else "pass"

    def move_tree(self, state: S) -> MoveTree:
        """The picker's tree; a game with too many turns to list builds it step by step."""
        return build_move_tree((self.move_tokens(state, m), m) for m in self.legal_moves(state))

    def is_legal(self, state: S, move: M) -> bool:
        """Whether `move` may be played here (a game may check it without listing every move)."""
        return move in self.legal_moves(state)

    def must_pass(self, state: S) -> bool:
        """Whether passing is the only legal move (a game may answer on finding one turn)."""
        return self.legal_moves(state) == (PASS,)

    def token_label(self, state: S, prefix: Sequence[str], token: str) -> str:
        """What choosing `token` after `prefix` does, in words, for the picker's choices."""
        return token

    def completions(self, state: S, typed: str, limit: int, seconds: float = BUDGET) -> list[str]:
        """Legal moves' notation starting with what was typed, for autocomplete: at most
        `limit`, and only what is found within `seconds`."""
        wanted = self.normalize(typed)
        found: list[str] = []
        deadline = time.perf_counter() + seconds
        for move in self.legal_moves(state):
            if len(found) == limit or time.perf_counter() > deadline:
                break
            text = self.format_move(state, move)
            if not isinstance(move, Pass) and self.normalize(text).startswith(wanted):
                found.append(text)
        return found

    def nearest_moves(self, state: S, text: str, limit: int, seconds: float = BUDGET) -> list[str]:
        """A few legal moves close to a text that is not one, for the hint under an error:
        those sharing its longest run of leading tokens, found within `seconds`."""
        tree = self.move_tree(state)
        typed = self.normalize(text)
        node = tree
        while True:  # the longest token that still matches, so "e10..." is not taken for e1
            matching = [t for t in node.children if typed.startswith(self.normalize(t))]
            if not matching:
                break
            token = max(matching, key=len)
            typed = typed[len(self.normalize(token)) :]
            node = node.children[token]
        found = itertools.islice(node.moves(seconds), limit)
        return [self.format_move(state, move) for move in found]  # type: ignore[arg-type]

    def end(self, state: S, outcome: Outcome) -> S:
        """Finish the game from outside the rules (agreement, timeout)."""
        if self.outcome(state) is not None:
            raise IllegalMove("the game is already over")
        return dataclasses.replace(state, result=outcome)

    def resign(self, state: S, seat: int) -> S:
        if not 1 <= seat <= self.players(state):
            raise IllegalMove(f"there is no seat {seat} in this game")
        others = tuple(s for s in range(1, self.players(state) + 1) if s != seat)
        return self.end(state, Outcome(others, Reason.RESIGNATION))

    def time_out(self, state: S, seat: int) -> S:
        """That seat ran out of time: it leaves as if it resigned (in 3+ player Boost the
        others play on), and a game that ends there ends on time."""
        after = self.resign(state, seat)
        outcome = self.outcome(after)
        if outcome is None or outcome.reason != Reason.RESIGNATION:
            return after
        return dataclasses.replace(after, result=Outcome(outcome.winners, Reason.TIMEOUT))

    def dump(self, state: S) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "game": self.name, "state": self._encode(state)}

    def load(self, data: Mapping[str, Any]) -> S:
        if not isinstance(data, Mapping):
            raise InvalidState("a saved state must be a JSON object")
        if data.get("format") != FORMAT_VERSION:
            raise InvalidState(f"saved state format {data.get('format')!r} is not supported")
        if data.get("game") != self.name:
            raise InvalidState(f"saved state is for {data.get('game')!r}, not {self.name}")
        try:
            return self._decode(data["state"])
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise InvalidState(f"saved {self.name} state is corrupt: {error!r}") from error


# --- shared state helpers ------------------------------------------------------------------


def next_seat(seat: int, players: int) -> int:
    return seat % players + 1


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "reason": outcome.reason.value}


def outcome_from_json(data: Mapping[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(tuple(int(s) for s in data["winners"]), str(data["reason"]))


def highlight_to_json(highlight: Highlight | None) -> dict[str, Any] | None:
    return None if highlight is None else highlight.to_json()


def highlight_from_json(data: Mapping[str, Any] | None) -> Highlight | None:
    return None if data is None else Highlight.from_json(data)


def common_to_json(state: CommonState) -> dict[str, Any]:
    """The fields every state has, for a game's `_encode`."""
    return {
        "variant": state.variant,
        "players": state.players,
        "turn": state.turn,
        "ply": state.ply,
        "result": outcome_to_json(state.result),
        "last": highlight_to_json(state.last),
    }


def common_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for the common fields, for a game's `_decode`."""
    return {
        "variant": str(data["variant"]),
        "players": int(data["players"]),
        "turn": int(data["turn"]),
        "ply": int(data["ply"]),
        "result": outcome_from_json(data["result"]),
        "last": highlight_from_json(data["last"]),
    }
