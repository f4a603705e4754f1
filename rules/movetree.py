"""The prefix tree of legal moves' notation tokens, for pickers that ask square by square."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType

BUDGET = 0.03  # seconds a list shown to a player may take to find its entries


class MoveTree:
    """Prefix tree of legal moves' notation tokens, for square-by-square pickers.

    `move` is set where a complete move ends; a node may also have children (a pass chain
    that could go on). Children are computed on first use, so a game with too many turns to
    list expands only the nodes a player reaches. `key` names the game position a node stands
    for when different paths can reach the same one (a loop), so `moves()` visits it once.
    """

    __slots__ = ("_children", "_expand", "key", "move")

    def __init__(
        self,
        expand: Callable[[], Mapping[str, MoveTree]] | None = None,
        move: Hashable | None = None,
        key: Hashable | None = None,
    ) -> None:
        self._expand = expand
        self._children: Mapping[str, MoveTree] | None = None
        self.move = move
        self.key = key

    @property
    def children(self) -> Mapping[str, MoveTree]:
        """The next tokens and their subtrees, computed once, on first use."""
        if self._children is None:
            found = self._expand() if self._expand is not None else {}
            self._children = MappingProxyType(dict(found))
            self._expand = None
        return self._children

    def moves(
        self, seconds: float | None = None, *, breadth_first: bool = False
    ) -> Iterator[Hashable]:
        """Every complete move at or below this node, each once, depth first (a picker's
        order) or breadth first (the shortest first: a search that can list only some of a
        position's moves sees every piece's short ones, not one piece's long walks); with
        `seconds`, only those found within that much time (lists shown to players are
        bounded)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        keys: set[Hashable] = set()
        found: set[Hashable] = set()
        pending: deque[MoveTree] = deque([self])
        take = pending.popleft if breadth_first else pending.pop
        while pending:
            if deadline is not None and time.perf_counter() > deadline:
                return
            node = take()
            if node.key is not None:
                if node.key in keys:
                    continue
                keys.add(node.key)
            if node.move is not None and node.move not in found:
                found.add(node.move)
                yield node.move
            children = node.children.values()
            pending.extend(children if breadth_first else reversed(list(children)))

    def walk(self, tokens: Sequence[str]) -> MoveTree | None:
        node: MoveTree | None = self
        for token in tokens:
            if node is None:
                return None
            node = node.children.get(token)
        return node


def build_move_tree(entries: Iterable[tuple[Sequence[str], Hashable]]) -> MoveTree:
    """The tree of a complete listing: each node groups its moves by their next token when
    first asked for its children."""
    return _grouped([(tuple(tokens), move) for tokens, move in entries], 0)


def _grouped(entries: list[tuple[tuple[str, ...], Hashable]], depth: int) -> MoveTree:
    """The node of the moves in `entries`, which share their first `depth` tokens."""

    def expand() -> dict[str, MoveTree]:
        groups: dict[str, list[tuple[tuple[str, ...], Hashable]]] = {}
        for tokens, move in entries:
            if len(tokens) > depth:
                groups.setdefault(tokens[depth], []).append((tokens, move))
        return {token: _grouped(group, depth + 1) for token, group in groups.items()}

    ends = [move for tokens, move in entries if len(tokens) == depth]
    return MoveTree(expand, ends[-1] if ends else None)
