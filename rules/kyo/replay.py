"""Replaying a typed turn through the actions of rules.kyo.turns, with the player's reasons.

The search never needs words; a player who typed a turn the rules forbid does. `simulate`
runs the tokens one by one and, at the first action refused, turns the error code into a
sentence that names the squares and items involved and says what would be allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.core import IllegalMove
from rules.kyo.board import (
    BY_NAME,
    CHIP_NAMES,
    DIRECTION_NAMES,
    DIRECTION_TO,
    LIGHT_PAWNS,
    MANA,
    MAX_CHIPS,
    NAMES,
    NEIGHBOUR_CELLS,
    PAWN_NAMES,
    SHIELD,
    Side,
)
from rules.kyo.turns import (
    CHIPPED,
    DEPLOYED,
    E_DEPLOY_TARGET,
    E_LIFT_LIMIT,
    E_NEEDS_MANA,
    E_NO_CHIPS,
    E_NO_SHIELD,
    E_NOT_NEXT,
    E_NOT_QUEEN,
    E_NOT_TOWER,
    E_ONLY_ACTION,
    E_OUTNUMBERED,
    E_OWN_PAWN,
    E_SAME_WAY,
    E_SHUFFLE_CHIPS,
    E_SHUFFLE_SHIELD,
    E_SLICE_SIZE,
    E_TURN_OVER,
    EMPTY,
    MOVED,
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
    outnumbers,
    shuffle,
    start_node,
    step,
)


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
    raise IllegalMove, in a player's words, at the first action the rules forbid. With
    `partial`, the tokens may stop anywhere (a picker's prefix): the trace then holds the
    node reached and any slice size still waiting for its action."""
    origin = BY_NAME[tokens[0]]
    stack = board[origin]
    if not stack:
        raise IllegalMove(f"{tokens[0]} is empty: pick a stack with your pawn or mana on top")
    if stack[-1] not in side.pawns and stack[-1] not in side.mana:
        raise IllegalMove(
            f"the top of {tokens[0]} is {describe(stack[-1])}, not yours: pick a stack with "
            f"your ({side.name}) pawn or mana on top"
        )
    node = start_node(board, origin, side)
    trace = Trace(board, [origin], [], [], [tokens[0]], node)
    size: int | None = None
    ended = ""
    for token in tokens[1:]:
        pos = node[1]
        here = node[0][pos]
        if ended:
            raise IllegalMove(f"the turn is over after {ended}, so {token} cannot follow")
        if token[0] == ":":
            size = int(token[1:])
            most = liftable(here, side)
            if size > most:
                raise IllegalMove(slice_limit(here, NAMES[pos], most, side))
            continue
        chips = node[2] if size is None else size
        size = None
        code, result = _run(node, side, token, chips)
        if code < 0:
            raise IllegalMove(explain(code, node, token, chips, side))
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
        if not ended:
            trace.board = end_node(node)
        return trace
    if size is not None:
        raise IllegalMove("a slice size (:n) must be followed by what the slice does")
    if not ended:
        if node[3] == START:
            raise IllegalMove(
                f"say what {tokens[0]} does: a step (like {tokens[0]}-{_a_neighbour(origin)}), "
                "a shuffle (=...) or a chip move (>...)"
            )
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


def _a_neighbour(pos: int) -> str:
    return NAMES[NEIGHBOUR_CELLS[pos][0]]


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


def describe(item: str) -> str:
    """'d' -> "Red's dark mana", 'K' -> "Gold's king", 'S' -> 'a shield'."""
    if item == SHIELD:
        return "a shield"
    whose = "Gold's" if item.isupper() else "Red's"
    name = PAWN_NAMES.get(item.upper()) or CHIP_NAMES[item.upper()]
    return f"{whose} {name}"


def describe_end(code: int, token: str) -> str:
    """The action that ended a turn, for 'the turn is over after ...'."""
    if code == STRIKE:
        return f"the strike on {token.lstrip('x')}"
    if token[0] == "=":
        return f"the shuffle {token}"
    return f"the move to {token.lstrip('>')}"


def slice_limit(stack: str, where: str, most: int, side: Side) -> str:
    """Why the slice on `where` cannot hold more than `most` chips."""
    if stack[-1] in LIGHT_PAWNS:
        return f"a light pawn lifts only itself, so the slice on {where} holds no chips"
    under = len(stack) - (stack[-1] not in MANA) - most  # items left under the largest slice
    if not under:
        reason = "there are no more chips there"
    elif stack[under - 1] in side.enemy_mana:
        reason = "enemy mana cannot be lifted, nor anything under it"
    else:
        reason = f"a pawn lifts at most {MAX_CHIPS} chips"
    chips = "chip" if most == 1 else "chips"
    return f"the slice on {where} can hold at most {most} {chips} ({reason})"


def explain(code: int, node: Node, token: str, chips: int, side: Side) -> str:
    """A player's explanation of an error code, with the squares and items involved."""
    board, pos, c, phase, colour, way, _, _, _, lifted = node
    here = NAMES[pos]
    stack = board[pos]
    target = token.lstrip("x>+=")
    q = BY_NAME.get(target, -1)
    top = board[q][-1] if q >= 0 and board[q] else EMPTY
    if code == E_NOT_NEXT:
        return f"{target} is not next to {here}: every action reaches one of the 8 tiles around"
    if code == E_LIFT_LIMIT:
        return (
            f"a pawn lifts at most {MAX_CHIPS} chips in a whole turn, its first slice included: "
            f"it has lifted {lifted} so far and holds {c}, so here its slice can hold at most "
            f"{c + MAX_CHIPS - lifted}"
        )
    if code == E_OWN_PAWN:
        return f"{target} holds your own {PAWN_NAMES[top.upper()]}: a pawn cannot step onto it"
    if code == E_OUTNUMBERED:
        mine, theirs = outnumbers(board, pos, q, side)
        return (
            f"your light pawn on {here} does not outnumber the {PAWN_NAMES[top.upper()]} on "
            f"{target}: {mine} tile(s) around {target} show your colour on top, {theirs} around "
            f"{here} show theirs, and a light pawn needs more than the defender"
        )
    if code == E_NEEDS_MANA:
        rest = len(stack) - 1 - chips
        left = describe(stack[rest - 1]) if rest else "nothing"
        return (
            f"after a mana step only mana steps may follow: stepping from {here} with "
            f"{chips} chip(s) leaves {left} on top, and only dark mana allows a straight step, "
            "light mana a diagonal one"
        )
    if code == E_SAME_WAY:
        name = "dark" if colour == "d" else "light"
        return (
            f"consecutive mana steps over {name} mana keep their direction: this one must go "
            f"{DIRECTION_NAMES[way]}; change the mana colour to turn"
        )
    if code == E_TURN_OVER:
        if phase == MOVED:
            return f"the direct step to {here} ended the turn (a tower may still deploy: +square)"
        if phase == CHIPPED:
            return "moving chips is the turn's only action (a tower may still deploy: +square)"
        if phase == DEPLOYED:
            return (
                "a tower deploys only at the end of its turn: after a deploy it may deploy "
                "more (+square) but takes no other action"
            )
        return "the turn is already over"
    if code == E_NOT_QUEEN:
        return "only a queen shuffles during a turn; for any other stack a shuffle is the turn"
    if code == E_NOT_TOWER:
        return (
            "only a tower deploys shields as a separate action; other pawns move shields "
            f"as a chip move, like {here}:1>{_a_neighbour(pos)}"
        )
    if code == E_NO_SHIELD:
        return f"the slice on {here} holds no shield to deploy; lift more chips first (:n)"
    if code == E_DEPLOY_TARGET:
        return (
            f"a shield is deployed on an empty tile, on mana, or where this turn already "
            f"deployed one, and {target} has {describe(top)} on top"
        )
    if code == E_SHUFFLE_CHIPS:
        count = len(token) - 1
        above = 0 if stack[-1] in MANA else 1
        now = stack[max(0, len(stack) - above - count) : len(stack) - above].upper()
        return (
            f"a shuffle reorders the lifted chips: the top {count} on {here} are {now}, "
            f"not {token[1:]}"
        )
    if code == E_SHUFFLE_SHIELD:
        return "no shuffle may leave a shield under a mana chip: write the shields last, like =DLS"
    if code == E_ONLY_ACTION:
        return (
            "moving chips without the pawn must be the turn's only action (a tower may "
            "still deploy)"
        )
    if code == E_NO_CHIPS:
        return f"the slice on {here} holds no chips to move; lift some first, like {here}:1>square"
    assert code == E_SLICE_SIZE, code
    return slice_limit(stack, here, liftable(stack, side), side)
