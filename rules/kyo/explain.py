"""Why the rules refuse a Kyo action, in a player's words: each error code of rules.kyo.turns
turned into a sentence that names the squares and items involved and says what would be
allowed."""

from __future__ import annotations

from rules.kyo.board import (
    BY_NAME,
    CHIP_NAMES,
    DIRECTION_NAMES,
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
    STRIKE,
    Node,
    liftable,
    outnumbers,
)


def a_neighbour(pos: int) -> str:
    """A tile next to `pos`, for examples."""
    return NAMES[NEIGHBOUR_CELLS[pos][0]]


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
            f"as a chip move, like {here}:1>{a_neighbour(pos)}"
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
