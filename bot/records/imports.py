"""Records read back for study: a plain-text record or an APGameRecord JSON, uploaded by a
member, checked and replayed; or a position (a diagram or a record's last position) to start a
match from. A file that cannot be read is refused with where it went wrong (the line, or the
JSON field) and what was expected; nothing read here is stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import rules
from bot.posts import limits
from bot.service.matches import ServiceError
from bot.texts import Text, t
from rules import Game, RulesError
from rules.errors import InvalidRecord
from rules.outcomes import Outcome, Reason
from rules.records import Record

MAX_BYTES = 512 * 1024
"""The largest file read: a 1,000-turn record in either format is under 100 KB."""
MAX_TURNS = 2000
"""More turns than any game here lasts (Boost's move limit is the longest)."""
SHOWN = 40
"""Characters of a file's text quoted back in a refusal."""
_TURN_LINE = re.compile(r"^\s*\d+\.\s")
_SEATED = re.compile(r"^(.+) \([^()]+\)(?:, [^()]*)?$")
"""A Seat header as export.text_record writes it, `alice (White), rated 3.5`: the name."""


class RecordError(ServiceError):
    """A file that is not a record (or diagram) we can read: `text` says where and why, and
    the member is told so as of any request that cannot be done."""

    def __init__(self, text: Text) -> None:
        super().__init__(text, t("records.bad.hint"))


@dataclass(frozen=True)
class Study:
    """A record read from a file: the game, who played, and where each turn stands in the
    file, so a turn that cannot be played is named by its line (or round and seat)."""

    record: Record
    names: tuple[str, ...]
    places: tuple[Text, ...]

    @property
    def game(self) -> Game[Any, Any]:
        return rules.get_game(self.record.game)


def decoded(data: bytes) -> str:
    """The file as text, refused when too large or not UTF-8."""
    if len(data) > MAX_BYTES:
        raise RecordError(
            t("records.bad.too_large", size=len(data) // 1024, limit=MAX_BYTES // 1024)
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RecordError(t("records.bad.encoding", line=line)) from None
    if not text.strip():
        raise RecordError(t("records.bad.empty"))
    return text


def read_record(data: bytes) -> Study:
    """A record of either format (JSON when it starts with `{`), checked but not replayed."""
    text = decoded(data)
    study = read_json(text) if text.lstrip().startswith("{") else read_text(text)
    if len(study.record.turns) > MAX_TURNS:
        raise RecordError(t("records.bad.too_long", count=len(study.record.turns), limit=MAX_TURNS))
    try:
        study.game.new(
            players=study.record.players, variant=study.record.variant, seed=study.record.seed
        )
    except RulesError as error:
        raise RecordError(t("records.bad.record", error=error)) from error
    return study


def read_text(text: str) -> Study:
    """The plain-text record (bot.records.export.text_record, or /record's file)."""
    try:
        record = Record.from_text(text)
    except RulesError as error:
        raise RecordError(t("records.bad.record", error=error)) from error
    record = replace(record, game=_known(record.game).name)
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if _TURN_LINE.match(line)]
    places = tuple(t("records.place.line", line=n) for n in lines)
    seated = (record.tags.get(f"Seat{seat}", str(seat)) for seat in range(1, record.players + 1))
    names = tuple(found[1] if (found := _SEATED.match(s)) else s for s in seated)
    return Study(record, names, places)


def read_json(text: str) -> Study:
    """The APGameRecord JSON (bot.records.export.ap_record, or another site's record of one of
    these games): the header's game and players, and the moves round by round."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(t("records.bad.json", line=error.lineno, column=error.colno)) from None
    root = _object(data, "record")
    header = _object(root.get("header"), "header")
    game = _known(
        _string(_object(header.get("game"), "header.game").get("name"), "header.game.name")
    )
    variants = _list(header["game"].get("variants", []), "header.game.variants")
    variant = _string(variants[0], "header.game.variants[0]") if variants else game.default_variant
    players = _list(header.get("players"), "header.players")
    if not players:
        raise RecordError(
            t("records.bad.field", field="header.players", expected=t("records.expected.players"))
        )
    names, scores = [], []
    for index, entry in enumerate(players):
        where = f"header.players[{index}]"
        player = _object(entry, where)
        names.append(_string(player.get("name"), f"{where}.name"))
        scores.append(_whole(player.get("result"), f"{where}.result"))
    seed = _whole(header.get("seed", 0), "header.seed")
    position = header.get("startingPosition")
    if position is not None:
        position = _string(position, "header.startingPosition")
    turns: list[str] = []
    places: list[Text] = []
    for number, row in enumerate(_list(root.get("moves"), "moves"), start=1):
        entries = _list(row, f"moves[{number - 1}]")
        if len(entries) > len(names):
            raise RecordError(
                t("records.bad.round", round=number, count=len(entries), players=len(names))
            )
        for seat, entry in enumerate(entries, start=1):
            if entry is None:
                continue
            where = f"moves[{number - 1}][{seat - 1}]"
            move = entry.get("move") if isinstance(entry, dict) else entry
            turns.append(_string(move, where))
            places.append(t("records.place.round", round=number, seat=seat))
    record = Record(
        game.name,
        variant,
        len(names),
        seed,
        tuple(turns),
        _outcome(scores, header.get("reason")),
        position=position,
    )
    return Study(record, tuple(names), tuple(places))


def _outcome(scores: Sequence[int], reason: Any) -> Outcome | None:
    """The result the players' scores say (the best score wins; all equal is a draw), with
    the reason when the header names one we know; without one the rules' own ending
    stands."""
    if reason not in {r.value for r in Reason}:
        return None
    best = max(scores)
    if all(score == best for score in scores):
        return Outcome((), reason)
    return Outcome(tuple(n for n, score in enumerate(scores, start=1) if score == best), reason)


def replay(study: Study) -> tuple[Any, ...]:
    """Every position of the record, the setup (or starting position) first: CPU work, for a
    thread or worker. A turn that cannot be played is refused naming its place in the file."""
    game = study.game
    try:
        return tuple(study.record.positions(game))
    except InvalidRecord as error:
        number = error.values.get("number")
        if error.key != "rules.record.turn" or not isinstance(number, int):
            raise RecordError(t("records.bad.record", error=error)) from error
        place = study.places[number - 1]
        turn, why = error.values["turn"], error.values["error"]
        shown = limits.clip(str(turn), SHOWN)
        raise RecordError(t("records.bad.turn", place=place, turn=shown, error=why)) from error
    except RulesError as error:
        raise RecordError(t("records.bad.record", error=error)) from error


def read_position(game: Game[Any, Any], data: bytes) -> Any:
    """A position of `game` to start a match from: a diagram, or a record whose last
    position is taken (a finished game is refused: there is nothing left to play)."""
    text = decoded(data)
    if text.lstrip().startswith(("{", "[")):
        study = read_json(text) if text.lstrip().startswith("{") else read_text(text)
        if study.game.name != game.name:
            raise RecordError(t("records.bad.other_game", record=study.game.title, game=game.title))
        state = replay(study)[-1]
    else:
        try:
            state = game.parse_diagram(text)
        except RulesError as error:
            raise RecordError(t("records.bad.diagram", game=game.title, error=error)) from error
    if game.outcome(state) is not None:
        raise RecordError(t("records.bad.over", game=game.title))
    return state


def _known(name: str) -> Game[Any, Any]:
    """The game a record names, by its name (`razzle`) or title (`Razzle Dazzle`)."""
    for game in rules.GAMES.values():
        if name.strip().lower() in (game.name, game.title.lower()):
            return game
    games = ", ".join(game.title for game in rules.GAMES.values())
    raise RecordError(t("records.bad.game", game=limits.clip(name, SHOWN), games=games))


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(
            t("records.bad.field", field=where, expected=t("records.expected.object"))
        )
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(t("records.bad.field", field=where, expected=t("records.expected.list")))
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(
            t("records.bad.field", field=where, expected=t("records.expected.string"))
        )
    return value


def _whole(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(t("records.bad.field", field=where, expected=t("records.expected.whole")))
    return value
