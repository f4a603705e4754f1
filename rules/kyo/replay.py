"""Replaying a typed turn through the actions of rules.kyo.turns, with the player's reasons.

The search never needs words; a player who typed a turn the rules forbid does. `simulate`
runs the tokens one by one and, at the first action refused, raises the reason
rules.kyo.explain gives for its error code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.errors import IllegalMove
from rules.kyo.board import (
    BY_NAME,
    DIRECTION_TO,
    MANA,
    NAMES,
    SHIELD,
    Side,
)
from rules.kyo.explain import a_neighbour, describe, describe_end, explain, slice_limit
from rules.kyo.turns import (
    E_NOT_NEXT,
    E_SLICE_SIZE,
    NODE,
    START,
    STRIKE,
    Board,
    Node,
    Result,
    deploy,
    end_node,
    liftable,
    move_chips,
    shuffle,
    start_node,
    step,
)
from rules.phrases import Phrase, phrase


@dataclass(frozen=True)
class Action:
    """One action a turn took: its token, the node it started from and the slice it used."""

    token: str
    node: Node
    chips: int
    code: int


@dataclass
class Trace:
    """What a typed turn did: the board it leaves, the tiles to highlight, and the turn's
    tokens normalised (a strike marked x, a slice size only where it changes the slice)."""

    board: Board
    path: list[int]
    struck: list[int]
    changed: list[int]
    tokens: list[str]
    node: Node
    size: int | None = None  # a slice size typed for the next action, which is still to come
    actions: list[Action] = field(default_factory=list)  # in order, for the words of a post


def simulate(board: Board, side: Side, tokens: Sequence[str], *, partial: bool = False) -> Trace:
    """Run a turn's tokens (origin square first) through the same actions as the search;
    raise IllegalMove, saying why, at the first action the rules forbid. With
    `partial`, the tokens may stop anywhere (a picker's prefix): the trace then holds the
    node reached and any slice size still waiting for its action."""
    origin = BY_NAME[tokens[0]]
    stack = board[origin]
    if not stack:
        raise IllegalMove("rules.kyo.empty", square=tokens[0])
    if stack[-1] not in side.pawns and stack[-1] not in side.mana:
        raise IllegalMove(
            "rules.kyo.not_yours", square=tokens[0], top=describe(stack[-1]), side=phrase(side.key)
        )
    node = start_node(board, origin, side)
    trace = Trace(board, [origin], [], [], [tokens[0]], node)
    size: int | None = None
    ended: Phrase | None = None
    for token in tokens[1:]:
        pos = node[1]
        here = node[0][pos]
        if ended is not None:
            raise IllegalMove("rules.kyo.over_after", ended=ended, token=token)
        if token[0] == ":":
            size = int(token[1:])
            most = liftable(here, side)
            if size > most:
                raise slice_limit(here, NAMES[pos], most, side)
            continue
        chips = node[2] if size is None else size
        size = None
        code, result = _run(node, side, token, chips)
        if code < 0:
            raise explain(code, node, token, chips, side)
        trace.actions.append(Action(token, node, chips, code))
        if chips != node[2] and token[0] != "=":
            trace.tokens.append(f":{chips}")
        if token[0] == "=":
            trace.changed.append(pos)
            trace.tokens.append(token)
        else:
            q = BY_NAME[token.lstrip("x>+")]
            trace.tokens.append(_written(token, code, here))
            if token[0] == "+":
                trace.changed.append(q)
            elif code == STRIKE and node[0][q][-1] == SHIELD:
                trace.struck.append(q)
            else:
                trace.path.append(q)
                if code == STRIKE:
                    trace.struck.append(q)
        if code == NODE:
            node = trace.node = result
        else:
            trace.board = result
            ended = describe_end(code, token)
    if partial:
        trace.size = size
        if ended is None:
            trace.board = end_node(node)
        return trace
    if size is not None:
        raise IllegalMove("rules.kyo.dangling_slice")
    if ended is None:
        if node[3] == START:
            raise IllegalMove("rules.kyo.say_what", square=tokens[0], neighbour=a_neighbour(origin))
        trace.board = end_node(node)
    return trace


def _written(token: str, code: int, here: str) -> str:
    """A move token as the search writes it: x for a strike, > only for chips leaving a pawn."""
    square = token.lstrip("x>+")
    if code == STRIKE:
        return "x" + square
    if token[0] == "+":
        return token
    if token[0] == ">" and here[-1] not in MANA:
        return token
    return square


def _run(node: Node, side: Side, token: str, chips: int) -> Result:
    board, pos = node[0], node[1]
    if token[0] == "=":
        if len(token) - 1 > liftable(board[pos], side):
            return E_SLICE_SIZE, None
        return shuffle(node, side, token[1:])
    q = BY_NAME[token.lstrip("x>+")]
    way = DIRECTION_TO.get((pos, q))
    if way is None:
        return E_NOT_NEXT, None
    if token[0] == "+":
        return deploy(node, side, chips, q)
    if token[0] == ">" or board[pos][-1] in MANA:
        return move_chips(node, side, chips, q)
    return step(node, side, chips, q, way, bool(way % 2))
