"""Pure helpers that show a player legal moves: autocomplete, and the hint after a bad move."""

from __future__ import annotations

import re

from bot.service.matches import Match
from bot.texts import Text, t

MAX_CHOICES = 25
HINTED = 8  # legal moves shown under a refused move: a few, the nearest first


def suggestions(match: Match, typed: str) -> list[str]:
    """Legal moves whose notation starts with what was typed, for autocomplete (found within
    the rules' time budget, so a position with too many turns to list never stalls it)."""
    return match.game.completions(match.state, typed, MAX_CHOICES)


def legal_hint(match: Match, text: str) -> Text:
    """A few legal moves sharing the longest start with the text, or where moves start.

    Only the picker's lazy tree is walked, within the rules' time budget: never a complete
    listing (a Kyo position can have hundreds of thousands of turns)."""
    game, state = match.game, match.state
    tree = game.move_tree(state)
    typed = game.normalize(text)
    # The longest matching token, so "e10..." is not taken for e1.
    matching = [c for c in tree.children if typed.startswith(game.normalize(c))]
    if matching:
        token = max(matching, key=len)
        moves = game.nearest_moves(state, text, HINTED + 1)
        shown = ", ".join(moves[:HINTED])
        if len(moves) > HINTED:
            return t("service.turn.legal_from_more", token=token, moves=shown)
        return t("service.turn.legal_from", token=token, moves=shown)
    square = _square(typed)
    near = [c for c in tree.children if _square(c)] if square else []
    if square and near:
        near.sort(key=lambda c: _distance(square, _square(c) or square))
        nearest = ", ".join(near[:HINTED])
        return t("service.turn.nearest", typed=text.strip(), squares=nearest)
    starts = ", ".join(list(tree.children)[:MAX_CHOICES])
    return t("service.turn.starts", starts=starts) if starts else t("service.turn.no_legal_move")


SQUARE = re.compile(r"([a-z])(\d{1,2})")


def _square(text: str) -> tuple[int, int] | None:
    """`e5` -> (4, 5): a square's file and rank, when the text is just one square's name."""
    found = SQUARE.fullmatch(text.lower())
    return (ord(found[1]) - ord("a"), int(found[2])) if found else None


def _distance(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Steps between two squares on a hexagonal board (Boku's, whose files lean), then on a
    square one: near squares first on either kind of board."""
    files, ranks = b[0] - a[0], b[1] - a[1]
    return max(abs(files), abs(ranks), abs(files - ranks)), abs(files) + abs(ranks)
