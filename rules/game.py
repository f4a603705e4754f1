"""The Game base: the rules API every game implements, and what they all share."""

from __future__ import annotations

import dataclasses
import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from rules.errors import IllegalMove, InvalidMove, InvalidState, RulesError, UnknownVariant
from rules.movetree import BUDGET, MoveTree, build_move_tree
from rules.notation import squeezed
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase, Words, phrase
from rules.state import PASS, CommonState, Highlight, Pass

FORMAT_VERSION = 1

S = TypeVar("S", bound=CommonState)
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class Variant:
    name: str
    description: Phrase
    """What sets the variant apart, in a few words (`rules.variant.<game>.<name>`)."""
    player_counts: tuple[int, ...] = (2,)


class Game(ABC, Generic[S, M]):
    """A game's rules. Subclasses fill in the abstract methods; the rest is shared."""

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[Mapping[str, Variant]]
    default_variant: ClassVar[str]
    help_topics: ClassVar[tuple[str, ...]]
    """The names of the game's help topics; their texts are `help.<game>.<topic>` in the
    catalogue."""
    board_size: ClassVar[tuple[int, int]]
    seat_keys: ClassVar[tuple[str, ...]] = ()
    """What players call each seat (its colour), as catalogue keys: `rules.seat.white`."""
    # Whether a position may have too many turns to list in time (Kyo): then anything with a
    # time budget walks the lazy `move_tree` instead of calling `legal_moves`.
    may_list_slowly: ClassVar[bool] = False
    repetition_draw: ClassVar[int | None] = None
    """How often one position may occur before the game is drawn (None: no such rule)."""

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
    def describe_position(self, state: S, names: Sequence[str] | None = None) -> Phrase:
        """What each side has on the board, in a short sentence (`alice: 12 stones; bob: 11
        stones.`), so alt text and other words can say how a game stands without a picture."""

    # -- overridable conveniences ----------------------------------------------------------

    def normalize(self, text: str) -> str:
        """The form typed text and canonical notation are compared in."""
        return squeezed(text)

    def move_tokens(self, state: S, move: M) -> tuple[str, ...]:
        """A move's notation split for a square-by-square picker."""
        return tuple(self.format_move(state, move).split("-"))

    def describe_move(self, state: S, move: M, names: Sequence[str] | None = None) -> Words:
        """What a legal `move` does in `state`, as the words after "<name> played", so a post
        says what happened: `f8b4, taking bob's stone on a3 and turning c5`. Games add their
        events to the notation; `names[seat - 1]` is a player's display name."""
        if isinstance(move, Pass):
            return phrase("rules.game.passed", move=self.format_move(state, move))
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
            raise UnknownVariant(
                "rules.game.no_variant", game=self.title, variant=name, choices=known
            )
        allowed = self.variants[name].player_counts
        count = allowed[0] if players is None else players
        if count not in allowed:
            counts = ", ".join(str(n) for n in allowed)
            raise UnknownVariant(
                "rules.game.players", game=self.title, variant=name, allowed=counts, players=count
            )
        return self._setup(name, count, seed)

    def seat_phrase(self, seat: int) -> Phrase:
        """What players call a seat: its colour, as a phrase to word."""
        return phrase(self.seat_keys[seat - 1])

    def seats_described(
        self, state: S, names: Sequence[str] | None, words: Callable[[int], Words]
    ) -> Phrase:
        """`alice: 12 stones; bob: 11 stones.`: each seat's `words`, for describe_position."""
        parts = [
            phrase("rules.position.seat", player=self.player_words(seat, names), has=words(seat))
            for seat in range(1, self.players(state) + 1)
        ]
        seats = parts[-1]
        for part in reversed(parts[:-1]):
            seats = phrase("rules.position.next", first=part, rest=seats)
        return phrase("rules.position.all", seats=seats)

    def player_words(self, seat: int, names: Sequence[str] | None = None) -> Words:
        """How the rules name a player: the display name if given (case kept), else the
        seat's colour."""
        if names and 1 <= seat <= len(names):
            return names[seat - 1]
        return self.seat_phrase(seat)

    def namer(self, names: Sequence[str] | None) -> Callable[[int], Words]:
        """`player_words` with the names bound, for the words and refusals of a game's modules."""
        return lambda seat: self.player_words(seat, names)

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
                raise IllegalMove("rules.game.over")
            if not self.is_legal(state, move):
                raise IllegalMove("rules.game.not_legal", move=self._describe(state, move))
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
            raise IllegalMove("rules.game.over")
        wanted = self.normalize(text)
        if not wanted:
            raise InvalidMove("rules.game.type_move", example=self._example(state))
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

    def repetitions(self, state: S) -> int:
        """How many times the current position has occurred, counted as the game's
        repetition rule counts (0 in a game without one)."""
        return 0

    def must_pass(self, state: S) -> bool:
        """Whether passing is the only legal move (a game may answer on finding one turn)."""
        return self.legal_moves(state) == (PASS,)

    def token_label(self, state: S, prefix: Sequence[str], token: str) -> Words:
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
            raise IllegalMove("rules.game.already_over")
        return dataclasses.replace(state, result=outcome)

    def resign(self, state: S, seat: int) -> S:
        if not 1 <= seat <= self.players(state):
            raise IllegalMove("rules.game.no_seat", seat=seat)
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
            raise InvalidState("rules.state.not_object")
        if data.get("format") != FORMAT_VERSION:
            raise InvalidState("rules.state.format", format=repr(data.get("format")))
        if data.get("game") != self.name:
            raise InvalidState(
                "rules.state.other_game", saved=repr(data.get("game")), game=self.name
            )
        try:
            return self._decode(data["state"])
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise InvalidState("rules.state.corrupt", game=self.name, error=repr(error)) from error
