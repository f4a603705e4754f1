"""What a Kyo turn did and how the game stands, for a move's post: a turn's words are read
from the actions `simulate` ran, so they cost one replay of the turn's tokens, never a list
of turns."""

from __future__ import annotations

from collections.abc import Callable

from rules.kyo.board import BY_NAME, MANA, NAMES, SHIELD, SIDES, Side
from rules.kyo.explain import item_name
from rules.kyo.replay import Trace, simulate
from rules.kyo.state import KyoState, Turn
from rules.kyo.turns import START, STRIKE, Board, Node
from rules.phrases import Phrase, Words, clauses, counted, listed, phrase

# A number of chips of one kind, by the kind's upper-case letter: `a dark mana chip`.
CHIPS = {
    "D": "rules.kyo.chips.dark",
    "L": "rules.kyo.chips.light",
    "S": "rules.kyo.chips.shield",
}


def seat_words(state: KyoState, seat: int) -> Phrase:
    """What one seat has on the board: `20 pawns, 26 mana chips`."""
    side = SIDES[seat]
    pawns = sum(stack.count(letter) for stack in state.board for letter in side.pawns)
    mana = sum(stack.count(letter) for stack in state.board for letter in side.mana)
    return phrase(
        "rules.kyo.has",
        pawns=counted(pawns, "rules.count.kyo_pawns", "rules.count.no_kyo_pawns"),
        mana=counted(mana, "rules.count.mana_chips", "rules.count.no_mana_chips"),
    )


def describe_move(state: KyoState, move: Turn, whose: Callable[[int], Words]) -> Words:
    """The turn replayed once, its strikes, destroyed mana, shields and chips."""
    side = SIDES[state.turn]
    trace = simulate(state.board, side, move.tokens)
    events = turn_clauses(state.board, side, trace, whose)
    return phrase("rules.move.did", move=str(move), what=clauses(events)) if events else str(move)


def turn_clauses(
    board: Board, side: Side, trace: Trace, whose: Callable[[int], Words]
) -> list[Phrase]:
    """The events of a turn in order, as clauses (`moving their tower`, `deploying a shield
    to f4`), the mover's pieces as theirs, so a post names the mover once; `whose(seat)`
    names the other player. The chips a route drops, or lifts, are one clause each, however
    many tiles: the notation shows where each went."""
    enemy = whose(3 - side.seat)
    origin = trace.actions[0].node[1]
    pawn = board[origin][-1]
    moves = [a for a in trace.actions if _is_step(a.token, a.node)]
    struck_pawn = any(a.code == STRIKE and _target(a.token, a.node)[-1] != SHIELD for a in moves)
    moved = pawn not in MANA and not struck_pawn and any(a.code != STRIKE for a in moves)
    events = [phrase("rules.kyo.moving", pawn=item_name(pawn))] if moved else []
    deploys: dict[str, int] = {}
    slots: dict[str, int] = {}  # leaving or picking up: its clause's place among the events
    tiles: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for action in trace.actions:
        token, node, chips = action.token, action.node, action.chips
        pos = node[1]
        stack = node[0][pos]
        here = NAMES[pos]
        square = token.lstrip("x>+=")
        if token[0] != "=" and node[3] != START and chips != node[2]:
            verb = "rules.kyo.leaving" if chips < node[2] else "rules.kyo.picking_up"
            if verb not in slots:
                slots[verb] = len(events)
                events.append(phrase(verb))
            if here not in tiles.setdefault(verb, []):
                tiles[verb].append(here)
            counts[verb] = counts.get(verb, 0) + abs(chips - node[2])
        if token[0] == "=":
            if stack[-1] in MANA:
                shuffled = phrase("rules.kyo.shuffling.on", square=here)
            elif moved:
                shuffled = phrase("rules.kyo.shuffling.its")
            else:
                shuffled = phrase("rules.kyo.shuffling.under", pawn=item_name(stack[-1]))
            if shuffled not in events:
                events.append(shuffled)
        elif token[0] == "+":
            deploys[square] = deploys.get(square, 0) + 1
        elif not _is_step(token, node):
            chips_moved = stack[-chips:] if stack[-1] in MANA else stack[-1 - chips : -1]
            events.append(
                phrase("rules.kyo.moving_chips", chips=chip_list(chips_moved), square=square)
            )
        elif action.code == STRIKE:
            target = _target(token, node)[-1]
            if target == SHIELD:
                events.append(phrase("rules.kyo.striking_shield", square=square))
            else:
                events.append(
                    phrase("rules.kyo.striking", owner=enemy, pawn=item_name(target), square=square)
                )
    for verb, slot in slots.items():
        events[slot] = phrase(verb, count=counts[verb], squares=listed(tiles[verb]))
    if deploys:
        shields = [
            phrase("rules.kyo.shields_to", shields=phrase(CHIPS[SHIELD], count=n), square=square)
            for square, n in deploys.items()
        ]
        events.append(phrase("rules.kyo.deploying", shields=listed(shields)))
    destroyed = _mana(board, side) - _mana(trace.board, side)
    if destroyed:
        events.append(
            phrase("rules.kyo.destroying", chips=phrase("rules.kyo.chips.mana", count=destroyed))
        )
    return events


def chip_list(letters: str) -> Words:
    """'DDS' -> '2 dark mana chips and a shield': chips by kind, in the stack's order."""
    counts: dict[str, int] = {}
    for letter in letters.upper():
        counts[letter] = counts.get(letter, 0) + 1
    return listed([phrase(CHIPS[kind], count=n) for kind, n in counts.items()])


def _is_step(token: str, node: Node) -> bool:
    """A pawn's step or strike: not a shuffle, deploy or move of chips alone."""
    return token[0] not in "=+>" and node[0][node[1]][-1] not in MANA


def _target(token: str, node: Node) -> str:
    """The stack a step went to, as it was before the step."""
    return node[0][BY_NAME[token.lstrip("x")]]


def _mana(board: Board, side: Side) -> int:
    """How many of the enemy's mana chips are on the board."""
    return sum(stack.count(letter) for stack in board for letter in side.enemy_mana)
