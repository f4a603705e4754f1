"""Why the rules refuse a Kyo action, for a player: each error code of rules.kyo.turns turned
into a refusal that names the squares and items involved and says what would be allowed."""

from __future__ import annotations

from rules.errors import IllegalMove
from rules.kyo.board import (
    BY_NAME,
    DIRECTION_KEYS,
    ITEM_KEYS,
    LIGHT_PAWNS,
    MANA,
    MAX_CHIPS,
    NAMES,
    NEIGHBOUR_CELLS,
    SEAT_KEYS,
    SHIELD,
    Side,
    owner,
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
from rules.phrases import Phrase, counted, phrase


def a_neighbour(pos: int) -> str:
    """A tile next to `pos`, for examples."""
    return NAMES[NEIGHBOUR_CELLS[pos][0]]


def describe(item: str) -> Phrase:
    """'d' -> "Red's dark mana", 'K' -> "Gold's king", 'S' -> 'a shield'."""
    if item == SHIELD:
        return phrase("rules.kyo.a_shield")
    whose = phrase(SEAT_KEYS[owner(item) - 1])
    return phrase("rules.kyo.whose", owner=whose, item=item_name(item))


def item_name(item: str) -> Phrase:
    """'d' -> 'dark mana', 'K' -> 'king': what an item is, whoever owns it."""
    return phrase(ITEM_KEYS[item.upper()])


def describe_end(code: int, token: str) -> Phrase:
    """The action that ended a turn, for 'the turn is over after ...'."""
    if code == STRIKE:
        return phrase("rules.kyo.ended.strike", square=token.lstrip("x"))
    if token[0] == "=":
        return phrase("rules.kyo.ended.shuffle", token=token)
    return phrase("rules.kyo.ended.move", square=token.lstrip(">"))


def slice_limit(stack: str, where: str, most: int, side: Side) -> IllegalMove:
    """Why the slice on `where` cannot hold more than `most` chips."""
    if stack[-1] in LIGHT_PAWNS:
        return IllegalMove("rules.kyo.light_pawn_slice", square=where)
    under = len(stack) - (stack[-1] not in MANA) - most  # items left under the largest slice
    if not under:
        reason = phrase("rules.kyo.slice.no_more")
    elif stack[under - 1] in side.enemy_mana:
        reason = phrase("rules.kyo.slice.enemy_mana")
    else:
        reason = phrase("rules.kyo.slice.most", most=MAX_CHIPS)
    return IllegalMove("rules.kyo.slice_limit", square=where, count=most, reason=reason)


def explain(code: int, node: Node, token: str, chips: int, side: Side) -> IllegalMove:
    """Why the rules refuse an action, by its error code, with the squares and items involved."""
    board, pos, c, phase, colour, way, _, _, _, lifted = node
    here = NAMES[pos]
    stack = board[pos]
    target = token.lstrip("x>+=")
    q = BY_NAME.get(target, -1)
    top = board[q][-1] if q >= 0 and board[q] else EMPTY
    if code == E_NOT_NEXT:
        return IllegalMove("rules.kyo.not_next", target=target, square=here)
    if code == E_LIFT_LIMIT:
        return IllegalMove(
            "rules.kyo.lift_limit",
            most=MAX_CHIPS,
            lifted=lifted,
            holds=c,
            left=c + MAX_CHIPS - lifted,
        )
    if code == E_OWN_PAWN:
        return IllegalMove("rules.kyo.own_pawn", target=target, pawn=item_name(top))
    if code == E_OUTNUMBERED:
        mine, theirs = outnumbers(board, pos, q, side)
        return IllegalMove(
            "rules.kyo.outnumbered",
            square=here,
            pawn=item_name(top),
            target=target,
            mine=counted(mine, "rules.count.tiles", "rules.count.no_tiles"),
            theirs=counted(theirs, "rules.count.tiles", "rules.count.no_tiles"),
        )
    if code == E_NEEDS_MANA:
        rest = len(stack) - 1 - chips
        left = describe(stack[rest - 1]) if rest else phrase("rules.kyo.nothing")
        chips_lifted = counted(chips, "rules.count.chips", "rules.count.no_chips")
        return IllegalMove("rules.kyo.needs_mana", square=here, chips=chips_lifted, left=left)
    if code == E_SAME_WAY:
        mana = phrase("rules.kyo.item.dark_mana" if colour == "d" else "rules.kyo.item.light_mana")
        return IllegalMove("rules.kyo.same_way", mana=mana, direction=phrase(DIRECTION_KEYS[way]))
    if code == E_TURN_OVER:
        if phase == MOVED:
            return IllegalMove("rules.kyo.over.moved", square=here)
        if phase == CHIPPED:
            return IllegalMove("rules.kyo.over.chipped")
        if phase == DEPLOYED:
            return IllegalMove("rules.kyo.over.deployed")
        return IllegalMove("rules.kyo.over.done")
    if code == E_NOT_QUEEN:
        return IllegalMove("rules.kyo.not_queen")
    if code == E_NOT_TOWER:
        return IllegalMove("rules.kyo.not_tower", square=here, neighbour=a_neighbour(pos))
    if code == E_NO_SHIELD:
        return IllegalMove("rules.kyo.no_shield", square=here)
    if code == E_DEPLOY_TARGET:
        return IllegalMove("rules.kyo.deploy_target", target=target, top=describe(top))
    if code == E_SHUFFLE_CHIPS:
        count = len(token) - 1
        above = 0 if stack[-1] in MANA else 1
        now = stack[max(0, len(stack) - above - count) : len(stack) - above].upper()
        return IllegalMove(
            "rules.kyo.shuffle_chips",
            chips=phrase("rules.count.chips", count=count),
            square=here,
            now=now,
            order=token[1:],
        )
    if code == E_SHUFFLE_SHIELD:
        return IllegalMove("rules.kyo.shuffle_shield")
    if code == E_ONLY_ACTION:
        return IllegalMove("rules.kyo.only_action")
    if code == E_NO_CHIPS:
        return IllegalMove("rules.kyo.no_chips", square=here, neighbour=a_neighbour(pos))
    assert code == E_SLICE_SIZE, code
    return slice_limit(stack, here, liftable(stack, side), side)
