"""The words a picture draws, in one language, handed in by whoever asks for the picture.

Renderers know no catalogue and no reader (DESIGN.md §9): the bot words these from its
catalogue in the language of the post (bot/posts/pictures.py) and passes them along, to a
thread or, pickled, to a worker process, where no ContextVar would follow. A sentence that
depends on the position is a template with named placeholders (`{player} to move`), filled
here; a name or a move's notation goes in as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PictureWords:
    """Every word of the boards, their keys and the analysis graph, in one language."""

    seats: Mapping[str, str]
    """Each seat's colour by the rules' seat key (`rules.seat.white`: `White`)."""
    reasons: Mapping[str, str]
    """Why a game ended, by the outcome's reason code (`move-limit`: `move limit`)."""
    board: Mapping[str, str]
    """The header's sentences: `to_move` {player}, `won` {winners} {reason}, `draw`
    {reason}, `together` {first} {last}, `no_turns`, `after_turn` {turn}, `turn` {turn}
    {player} {move}; the seats' notes `timed_out`, `resigned`, `defeated`, `must_throw`;
    Boku's `blocked` {cell} and `blocked_for` {player}."""
    key: Mapping[str, str]
    """The key picture: its `title` {game}, and what each entry means, by game and entry
    (`boost.pawn` {seat})."""
    graph: Mapping[str, str]
    """The analysis graph: the axis's `turn`, and each mark by its code (`blunder`)."""

    def say(self, table: Mapping[str, str], name: str, **values: Any) -> str:
        """One of the words, its placeholders filled: `words.say(words.board, "to_move",
        player="ann")`."""
        return table[name].format_map(values)


class _Echo(dict[str, str]):
    """A table in which every name is its own word."""

    def __missing__(self, name: str) -> str:
        return name


PLACEHOLDERS = PictureWords(
    seats=_Echo(),
    reasons=_Echo(),
    board=_Echo(),
    key=_Echo(),
    graph=_Echo(),
)
"""Words of no language (each name stands for itself) for the pictures the palettes are
built from (renderers/make_palettes.py), where text matters only by its colours."""
