"""Pure helpers that show a player legal moves: autocomplete, and the hint after a bad move."""

from __future__ import annotations

from bot.service.matches import Match
from rules import PASS

MAX_CHOICES = 25


def suggestions(match: Match, typed: str) -> list[str]:
    """Legal moves whose notation starts with what was typed, for autocomplete."""
    game, state = match.game, match.state
    wanted = game.normalize(typed)
    found: list[str] = []
    for move in game.legal_moves(state):
        if move == PASS:
            continue
        text = game.format_move(state, move)
        if game.normalize(text).startswith(wanted):
            found.append(text)
            if len(found) == MAX_CHOICES:
                break
    return found


def legal_hint(match: Match, text: str) -> str:
    """The legal moves from the square the text starts with, or where moves start."""
    game, state = match.game, match.state
    tree = game.move_tree(state)
    typed = game.normalize(text)
    # The longest matching token, so "e10..." is not taken for e1.
    matching = [t for t in tree.children if typed.startswith(game.normalize(t))]
    if matching:
        token = max(matching, key=len)
        moves = [game.format_move(state, m) for m in tree.children[token].moves()]
        shown = ", ".join(moves[:MAX_CHOICES])
        more = f" and {len(moves) - MAX_CHOICES} more" if len(moves) > MAX_CHOICES else ""
        return f"legal moves from {token}: {shown}{more}"
    starts = ", ".join(list(tree.children)[:MAX_CHOICES])
    return f"moves can start with: {starts}" if starts else "there is no legal move"
