"""Pure helpers that show a player legal moves: autocomplete, and the hint after a bad move."""

from __future__ import annotations

from bot.service.matches import Match

MAX_CHOICES = 25
HINTED = 8  # legal moves shown under a refused move: a few, the nearest first


def suggestions(match: Match, typed: str) -> list[str]:
    """Legal moves whose notation starts with what was typed, for autocomplete (found within
    the rules' time budget, so a position with too many turns to list never stalls it)."""
    return match.game.completions(match.state, typed, MAX_CHOICES)


def legal_hint(match: Match, text: str) -> str:
    """A few legal moves sharing the longest start with the text, or where moves start.

    Only the picker's lazy tree is walked, within the rules' time budget: never a complete
    listing (a Kyo position can have hundreds of thousands of turns)."""
    game, state = match.game, match.state
    tree = game.move_tree(state)
    typed = game.normalize(text)
    # The longest matching token, so "e10..." is not taken for e1.
    matching = [t for t in tree.children if typed.startswith(game.normalize(t))]
    if matching:
        token = max(matching, key=len)
        moves = game.nearest_moves(state, text, HINTED + 1)
        shown = ", ".join(moves[:HINTED])
        more = ", and more" if len(moves) > HINTED else ""
        return f"legal moves from {token}: {shown}{more}"
    starts = ", ".join(list(tree.children)[:MAX_CHOICES])
    return f"moves can start with: {starts}" if starts else "there is no legal move"
