"""A match written out: the plain-text record (header lines, then one numbered line per turn,
in the game's notation) and the Abstract Play game record (APGameRecord 1-0-0).

The text record keeps the `[Tag "value"]` header lines of rules.records.Record, so
`Record.from_text` reads it too; the tags it needs (Game, Variant, Players, Seed, Winners,
Reason) come first, the ones for people after. The JSON follows Abstract Play's schema
(AbstractPlay/recranks src/schemas/gamerecord.json): a header and the moves as rounds, one
entry per seat in seating order (null where a seat did not play that round); the header's
extra fields (`seed`, `reason`, `server`, `clock`) let it be read back exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.posts.match_texts import pace
from bot.texts import Wordable, say, t
from rules import Game
from rules.outcomes import Outcome, described
from rules.records import DIAGRAM_LINES

SITE = "Discord"
"""The header's `site.name`: "a consistent name for that service so that records can be
collated"; the server's own name goes in the extra `server` field."""


@dataclass(frozen=True)
class Player:
    """A seat as a record shows it: the name, the seat's colour, the rating when known."""

    name: str
    user_id: int
    colour: Wordable
    is_ai: bool = False
    rating: str | None = None


@dataclass(frozen=True)
class Export:
    """Everything a record says about one match, gathered by bot.records.gather."""

    match_id: int
    game: Game[Any, Any]
    variant: str
    seed: int
    players: tuple[Player, ...]
    turns: tuple[str, ...]
    seats: tuple[int, ...]
    """The seat that made each turn, for the JSON's rounds."""
    started: str
    ended: str | None
    generated: str
    days: int
    rated: bool = True
    result: Outcome | None = None
    server: str | None = None
    """The server's name; None for a match in direct messages."""
    event: str | None = None
    round: int | None = None
    position: str | None = None
    """The diagram the match started from, when it did not start from the setup."""

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def stem(self) -> str:
        """The files' name without extension: `quorum-12`."""
        return f"{self.game.name}-{self.match_id}"


def seated(export: Export, locale: str | None = None) -> list[str]:
    """`alice (White)` for each seat, as the result names its winners."""
    return [say(t("records.seat", player=p.name, colour=p.colour), locale) for p in export.players]


def text_record(export: Export, locale: str | None = None) -> str:
    """The plain-text record, its words in `locale`."""
    outcome = export.result
    names = seated(export, locale)
    tags: list[tuple[str, str]] = [
        ("Game", export.game.name),
        ("Variant", export.variant),
        ("Players", str(len(export.players))),
        ("Seed", str(export.seed)),
        ("Result", say(described(outcome, names), locale) if outcome else "*"),
        ("Winners", " ".join(str(s) for s in outcome.winners) if outcome else ""),
        ("Reason", outcome.reason.value if outcome else ""),
        ("Title", export.game.title),
        ("Site", export.server or say(t("records.direct_messages"), locale)),
        ("Match", str(export.match_id)),
    ]
    if export.event is not None:
        tags += [("Event", export.event), ("Round", str(export.round))]
    for seat, (player, name) in enumerate(zip(export.players, names, strict=True), start=1):
        rating = say(t("records.rating", rating=player.rating), locale) if player.rating else ""
        tags.append((f"Seat{seat}", name + rating))
    tags += [
        ("Rated", say(t("records.rated" if export.rated else "records.unrated"), locale)),
        ("Clock", say(pace(export.days), locale)),
        ("Started", export.started),
        ("Ended", export.ended or ""),
    ]
    if export.position is not None:
        tags.append(("Position", DIAGRAM_LINES.join(export.position.splitlines())))
    lines = [f'[{tag} "{value}"]' for tag, value in tags]
    lines.append("")
    lines += [f"{number}. {turn}" for number, turn in enumerate(export.turns, start=1)]
    return "\n".join(lines) + "\n"


def results(outcome: Outcome, players: int) -> list[int]:
    """Each seat's `result` as the schema wants it (higher is better): 1 for a winner, 0 for
    the others; a draw gives everyone the same."""
    if outcome.is_draw:
        return [0] * players
    return [int(seat in outcome.winners) for seat in range(1, players + 1)]


def rounds(turns: Sequence[str], seats: Sequence[int], players: int) -> list[list[str | None]]:
    """The turns as rounds, one entry per seat in seating order. A round closes when a seat
    plays again or one before the last to play does, so reading the entries in order gives
    the turns in the order they were played."""
    found: list[list[str | None]] = []
    row: list[str | None] = []
    last = players
    for turn, seat in zip(turns, seats, strict=True):
        if seat <= last:
            row = [None] * players
            found.append(row)
        row[seat - 1] = turn
        last = seat
    return found


def ap_record(export: Export) -> dict[str, Any]:
    """The finished match as an APGameRecord 1-0-0 (a running match has no record there:
    `date-end` is required)."""
    if export.result is None or export.ended is None:
        raise ValueError("only a finished match has an Abstract Play record")
    scores = results(export.result, len(export.players))
    header: dict[str, Any] = {
        "game": {"name": export.game.title, "variants": [export.variant]},
        "site": {"name": SITE, "gameid": str(export.match_id)},
        "date-start": export.started,
        "date-end": export.ended,
        "date-generated": export.generated,
        "unrated": not export.rated,
        "players": [
            {
                "name": player.name,
                "userid": str(player.user_id),
                "is_ai": player.is_ai,
                "result": score,
                "colour": say(player.colour),
                **({"rating": player.rating} if player.rating else {}),
            }
            for player, score in zip(export.players, scores, strict=True)
        ],
        "seed": export.seed,
        "reason": export.result.reason.value,
        "clock": export.days,
        "server": export.server,
    }
    if export.event is not None:
        header |= {"event": export.event, "round": str(export.round)}
    if export.position is not None:
        header["startingPosition"] = export.position
    moves = rounds(export.turns, export.seats, len(export.players))
    return {"header": header, "moves": moves}


def json_record(export: Export) -> str:
    """The APGameRecord as a file's text, one move a line, so a person can read it too."""
    return json.dumps(ap_record(export), indent=1, ensure_ascii=False) + "\n"
