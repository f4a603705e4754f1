"""Kyo for people choosing a turn step by step: the lazy picker tree and its labels in words.

A Kyo position can have hundreds of thousands of turns, so nothing here lists them: a tree
node is expanded by trying the actions of the one search node it stands for, when a player
reaches it, and lists shown to players (autocomplete, hints) stop at a time budget.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Hashable, Sequence

from rules.errors import IllegalMove, InvalidMove
from rules.kyo.board import BY_NAME, MANA, NAMES, Side
from rules.kyo.explain import describe, item_name
from rules.kyo.notation import join, tokenize
from rules.kyo.replay import simulate
from rules.kyo.turns import (
    NODE,
    START,
    Board,
    Node,
    actions,
    end_node,
    origins,
    split_written,
    start_node,
)
from rules.movetree import MoveTree
from rules.phrases import Phrase, Words, chained, counted, phrase
from rules.state import PASS

MakeTurn = Callable[[tuple[str, ...], Board], Hashable]

CANDIDATES = 60  # moves gathered under the typed prefix before picking the nearest


def turn_tree(board: Board, side: Side, make_turn: MakeTurn) -> MoveTree:
    """The picker's tree of one side's turns; `make_turn(tokens, board)` makes a move."""

    def expand() -> dict[str, MoveTree]:
        children = {}
        for pos in origins(board, side):
            start = start_node(board, pos, side)
            if any(code >= 0 for _, code, _ in actions(start, side)):
                children[NAMES[pos]] = _subtree(board, side, start, (NAMES[pos],), make_turn)
        return children or {"pass": MoveTree(move=PASS)}

    return MoveTree(expand)


def _subtree(
    board: Board, side: Side, node: Node, path: tuple[str, ...], make_turn: MakeTurn
) -> MoveTree:
    """The tree below one search node: its actions become tokens when first asked for."""
    move = None
    if node[3] != START:
        after = end_node(node)
        move = make_turn(path, after) if after != board else None

    def expand() -> dict[str, MoveTree]:
        children: dict[str, MoveTree] = {}
        sized: dict[str, dict[str, MoveTree]] = {}
        for written, code, result in actions(node, side):
            if code < 0:
                continue
            tokens = split_written(written)
            if code == NODE:
                child = _subtree(board, side, result, (*path, *tokens), make_turn)
            elif result != board:
                child = MoveTree(move=make_turn((*path, *tokens), result))
            else:
                continue
            if len(tokens) == 1:
                children[tokens[0]] = child
            else:
                sized.setdefault(tokens[0], {})[tokens[1]] = child
        for size, group in sized.items():
            children[size] = MoveTree(group.copy)
        return children

    return MoveTree(expand, move, key=node)


READABLE_HEAD = 200  # characters: longer than any turn
SEPARATORS = frozenset("-:=>+x, ")


def readable_tokens(text: str) -> tuple[str, ...]:
    """The tokens of the longest readable start of a text (a half-typed turn like 'e2-e'),
    trying at most a few characters shorter: a token is never longer than that."""
    for cut in range(min(6, len(text) + 1)):
        try:
            return tokenize(text[: len(text) - cut])
        except InvalidMove:
            continue
    # Else the longest start ending before a separator ('e2:999…' reads as e2), looked for
    # in a bounded head of the text so the search stays linear.
    head = text[:READABLE_HEAD]
    for end in reversed([i for i, ch in enumerate(head) if ch in SEPARATORS]):
        try:
            return tokenize(head[:end])
        except InvalidMove:
            continue
    return ()


def follow(tree: MoveTree, tokens: Sequence[str]) -> tuple[MoveTree, int]:
    """The deepest node the typed tokens reach (a dash typed for a strike, or a slice size
    the slice already has, still match) and how many tokens were used."""
    node = tree
    used = 0
    for token in tokens:
        child = node.children.get(token) or node.children.get("x" + token)
        if child is None:
            if token[0] == ":":
                used += 1
                continue
            break
        node = child
        used += 1
    return node, used


def completions(tree: MoveTree, typed: str, limit: int, seconds: float) -> list[str]:
    """Turns whose text starts with what was typed, found within `seconds`."""
    wanted = _squeezed(typed)
    node, _ = follow(tree, readable_tokens(typed))
    found = []
    for move in node.moves(seconds):
        text = str(move)
        if move is not PASS and _squeezed(text).startswith(wanted):
            found.append(text)
            if len(found) == limit:
                break
    return found


def nearest(tree: MoveTree, typed: str, limit: int, seconds: float) -> list[str]:
    """A few turns near a text that is not one: under the deepest node its tokens reach,
    the most similar texts among those found within `seconds`."""
    tokens = readable_tokens(typed)
    node, _ = follow(tree, tokens)
    candidates = [str(m) for m in itertools.islice(node.moves(seconds), CANDIDATES)]
    wanted = join(tokens) if tokens else typed.strip().lower()
    ranked = sorted(
        candidates, key=lambda text: -difflib.SequenceMatcher(None, wanted, text).ratio()
    )
    return ranked[:limit]


def _squeezed(text: str) -> str:
    """A text as compared for autocomplete: lower case, no spaces or dashes, x dropped."""
    return "".join(ch for ch in text.lower() if ch not in " -x,")


# --- labels ------------------------------------------------------------------------------


def label(board: Board, side: Side, prefix: Sequence[str], token: str) -> Words:
    """What choosing `token` after `prefix` does, for a player."""
    if token == "pass":
        return phrase("rules.kyo.label.pass")
    if not prefix:
        stack = board[BY_NAME[token]]
        return phrase("rules.kyo.label.origin", item=describe(stack[-1]), square=token)
    try:
        trace = simulate(board, side, prefix, partial=True)
    except IllegalMove:
        return token
    node = trace.node
    stack = node[0][node[1]]
    carrying = node[2] if trace.size is None else trace.size
    above = 0 if stack[-1] in MANA else 1
    if token[0] == ":":
        return _slice_label(stack, above, node[2], int(token[1:]), node[3] == START)
    if token[0] == "=":
        return phrase("rules.kyo.label.reorder", chips=_chips(token[1:]))
    square = token.lstrip("x>+")
    if token[0] == "+":
        return phrase("rules.kyo.label.deploy", square=square)
    if token[0] == "x":
        target = node[0][BY_NAME[square]]
        return phrase("rules.kyo.label.strike", item=describe(target[-1]), square=square)
    if token[0] == ">" or not above:
        return phrase("rules.kyo.label.move", chips=_count(carrying), square=square)
    return phrase("rules.kyo.label.step", square=square)


def _slice_label(stack: str, above: int, holding: int, size: int, first: bool) -> Phrase:
    """':n': lift n chips at the start; later, leave or pick up the difference."""
    top = len(stack) - above
    if first:
        return phrase(
            "rules.kyo.label.lift" if above else "rules.kyo.label.take", chips=_count(size)
        )
    if size < holding:
        return phrase("rules.kyo.label.leave", chips=_chips(stack[top - holding : top - size]))
    return phrase("rules.kyo.label.pick_up", chips=_chips(stack[top - size : top - holding]))


def _count(chips: int) -> Phrase:
    return counted(chips, "rules.count.chips", "rules.count.no_chips")


def _chips(letters: str) -> Words:
    """'DLS' -> 'dark mana, light mana, shield' (bottom first)."""
    return chained([item_name(letter) for letter in letters], "rules.list.comma")
