"""Words for players: lists and counts the way a sentence names them."""

from __future__ import annotations

from collections.abc import Sequence


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
