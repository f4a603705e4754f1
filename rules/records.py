"""Game records: a header and the list of turns, as text, replayable to the same state.

Turns are numbered as the boards number them: moves and passes only. A resignation or a
timeout is logged among the turns (`resign 2`, `timeout 1`) but written in a record as an
unnumbered event naming the player and their colour, never a seat number:
`{resigned: bob (Black)}`, `{timed out: Red}` (colours as the rules' seat keys name them).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import InvalidRecord, RulesError
from rules.game import Game
from rules.outcomes import Outcome, Reason
from rules.phrases import Phrase

_HEADER = re.compile(r"^\[(\w+)\s+\"(.*)\"\]$")
_TURN = re.compile(r"^(\d+)\.\s+(.+)$")
_RESIGN = re.compile(r"^resign\s+(\d+)$")
_TIMEOUT = re.compile(r"^timeout\s+(\d+)$")
DIAGRAM_LINES = " / "
"""Joins a diagram's lines inside the one Position header line (no diagram uses a slash)."""
_EVENT = re.compile(r"^\{(resigned|timed out):\s+(?:.*\()?(\w+)\)?\}$")
EVENTS = {"resign": "resigned", "timeout": "timed out"}
"""A logged event's first word, and how a record writes it."""


def is_event(turn: str) -> bool:
    """Whether a logged turn is a resignation or a timeout rather than a move or pass."""
    return bool(_RESIGN.match(turn) or _TIMEOUT.match(turn))


def numbered(turns: Iterable[str]) -> Iterator[tuple[int | None, str]]:
    """Each logged turn with its number as boards and records count turns (moves and
    passes), None for an event (a resignation or a timeout)."""
    number = 0
    for turn in turns:
        if is_event(turn):
            yield None, turn
        else:
            number += 1
            yield number, turn


def colour(game: Game[Any, Any], seat: int) -> str:
    """A seat's colour as records write it: `Black` (from the rules' seat key)."""
    return game.seat_keys[seat - 1].rpartition(".")[2].capitalize()


@dataclass(frozen=True)
class Record:
    game: str
    variant: str
    players: int
    seed: int
    turns: tuple[str, ...] = ()
    result: Outcome | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    position: str | None = None
    """The diagram the game started from, when it did not start from the setup."""

    def to_text(self, worded: Callable[[Phrase], str]) -> str:
        """The record as text; `worded` puts the Result header (which nothing reads back) in
        the reader's language: the bot's `say`."""
        result = worded(self.result.by_seat()) if self.result else "*"
        reason = self.result.reason if self.result else ""
        winners = " ".join(str(s) for s in self.result.winners) if self.result else ""
        position = DIAGRAM_LINES.join(self.position.splitlines()) if self.position else ""
        lines = [
            f'[Game "{self.game}"]',
            f'[Variant "{self.variant}"]',
            f'[Players "{self.players}"]',
            f'[Seed "{self.seed}"]',
            f'[Result "{result}"]',
            f'[Winners "{winners}"]',
            f'[Reason "{reason}"]',
            *(f'[{key} "{value}"]' for key, value in self.tags.items()),
            *([f'[Position "{position}"]'] if position else []),
            "",
            *(
                f"{number}. {turn}" if number is not None else self._event(turn)
                for number, turn in numbered(self.turns)
            ),
        ]
        return "\n".join(lines) + "\n"

    def _event(self, turn: str) -> str:
        """`{resigned: bob (Black)}`: the player by their Seat tag (when there is one) and
        their colour."""
        kind, _, seat_text = turn.partition(" ")
        from rules import get_game  # rules/__init__ imports this module: read at call time

        seat = int(seat_text)
        side = colour(get_game(self.game), seat)
        name = self.tags.get(f"Seat{seat}")
        return f"{{{EVENTS[kind]}: {f'{name} ({side})' if name else side}}}"

    @classmethod
    def from_text(cls, text: str) -> Record:
        headers: dict[str, str] = {}
        turns: list[str] = []
        events: list[tuple[int, str, str, int]] = []  # (index in turns, kind, colour, line)
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if header := _HEADER.match(line):
                headers[header[1]] = header[2]
            elif event := _EVENT.match(line):
                events.append((len(turns), event[1], event[2], number))
                turns.append("")
            elif turn := _TURN.match(line):
                expected = len(turns) - len(events) + 1
                if int(turn[1]) != expected:
                    raise InvalidRecord("rules.record.turn_number", line=number, turn=expected)
                turns.append(turn[2].strip())
            else:
                raise InvalidRecord("rules.record.line", line=number)
        game, variant = _tag(headers, "Game"), _tag(headers, "Variant")
        players, seed = _number(headers, "Players"), _number(headers, "Seed")
        headers.pop("Result", None)
        winners, reason = headers.pop("Winners", ""), headers.pop("Reason", "")
        if reason and reason not in {r.value for r in Reason}:
            raise InvalidRecord("rules.record.reason", reason=reason)
        if not all(s.isdigit() for s in winners.split()):
            raise InvalidRecord("rules.record.winners", winners=winners)
        result = Outcome(tuple(int(s) for s in winners.split()), reason) if reason else None
        for index, kind, side, where in events:
            turns[index] = f"{_kind(kind)} {_seat_of(game, side, where)}"
        position = headers.pop("Position", None)
        if position is not None:
            position = "\n".join(position.split(DIAGRAM_LINES))
        return cls(game, variant, players, seed, tuple(turns), result, headers, position)

    def replay(self, game: Game[Any, Any]) -> Any:
        """Play every turn from the setup; the final state equals the recorded game's."""
        return deque(self.positions(game), maxlen=1)[0]

    def positions(self, game: Game[Any, Any]) -> Iterator[Any]:
        """Every position of the game, from the setup to the last turn's (which carries the
        recorded result): one per turn plus the setup, for replays."""
        if game.name != self.game:
            raise InvalidRecord("rules.record.other_game", record=self.game, game=game.name)
        if self.position is None:
            state = game.new(players=self.players, variant=self.variant, seed=self.seed)
        else:
            state = game.parse_diagram(self.position)
        for number, turn in enumerate(self.turns, start=1):
            yield state
            try:
                if resign := _RESIGN.match(turn):
                    state = game.resign(state, int(resign[1]))
                elif timeout := _TIMEOUT.match(turn):
                    state = game.time_out(state, int(timeout[1]))
                else:
                    state = game.apply(state, game.parse_move(state, turn))
            except RulesError as error:
                raise InvalidRecord(
                    "rules.record.turn", number=number, turn=turn, error=error
                ) from error
        if self.result is not None and game.outcome(state) is None:
            state = game.end(state, self.result)
        yield state


def _kind(written: str) -> str:
    return next(kind for kind, words in EVENTS.items() if words == written)


def _seat_of(game_name: str, side: str, line: int) -> int:
    """The seat of the colour an event on this line names."""
    from rules import get_game  # rules/__init__ imports this module: read at call time

    try:
        game = get_game(game_name)
    except RulesError as error:
        raise InvalidRecord("rules.record.line", line=line) from error
    for seat in range(1, len(game.seat_keys) + 1):
        if colour(game, seat) == side.capitalize():
            return seat
    raise InvalidRecord("rules.record.line", line=line)


def _tag(headers: dict[str, str], name: str) -> str:
    """A header tag the record needs, taken out of the headers."""
    if name not in headers:
        raise InvalidRecord("rules.record.header", tag=name)
    return headers.pop(name)


def _number(headers: dict[str, str], name: str) -> int:
    """A header tag the record needs, as a whole number."""
    value = _tag(headers, name)
    try:
        return int(value)
    except ValueError:
        raise InvalidRecord("rules.record.header", tag=name) from None
