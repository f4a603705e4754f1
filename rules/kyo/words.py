"""What a Kyo turn did and how the game stands, in the words of a move's post: a turn's
words are read from the actions `simulate` ran, so they cost one replay of the turn's tokens,
never a list of turns."""

from __future__ import annotations

from collections.abc import Callable

from rules.kyo.board import BY_NAME, CHIP_NAMES, MANA, NAMES, PAWN_NAMES, SHIELD, SIDES, Side
from rules.kyo.replay import Trace, simulate
from rules.kyo.state import KyoState, Turn
from rules.kyo.turns import START, STRIKE, Board, Node
from rules.phrases import counted, join_clauses, join_words


def seat_words(state: KyoState, seat: int) -> str:
    """What one seat has on the board: `20 pawns, 26 mana chips`."""
    side = SIDES[seat]
    pawns = sum(stack.count(letter) for stack in state.board for letter in side.pawns)
    mana = sum(stack.count(letter) for stack in state.board for letter in side.mana)
    return f"{counted(pawns, 'pawn')}, {counted(mana, 'mana chip')}"


def describe_move(state: KyoState, move: Turn, whose: Callable[[int], str]) -> str:
    """The turn replayed once, its strikes, destroyed mana, shields and chips in words."""
    side = SIDES[state.turn]
    trace = simulate(state.board, side, move.tokens)
    clauses = turn_clauses(state.board, side, trace, whose)
    return f"{move}, {join_clauses(clauses)}" if clauses else str(move)


def turn_clauses(board: Board, side: Side, trace: Trace, whose: Callable[[int], str]) -> list[str]:
    """The events of a turn in order, as clauses (`moving Gold's tower`, `deploying a shield
    to f4`); `whose(seat)` names a player."""
    mover, enemy = whose(side.seat), whose(3 - side.seat)
    origin = trace.actions[0].node[1]
    pawn = board[origin][-1]
    moves = [a for a in trace.actions if _is_step(a.token, a.node)]
    struck_pawn = any(a.code == STRIKE and _target(a.token, a.node)[-1] != SHIELD for a in moves)
    moved = pawn not in MANA and not struck_pawn and any(a.code != STRIKE for a in moves)
    clauses = [f"moving {mover}'s {PAWN_NAMES[pawn.upper()]}"] if moved else []
    deploys: dict[str, int] = {}
    for action in trace.actions:
        token, node, chips = action.token, action.node, action.chips
        pos = node[1]
        stack = node[0][pos]
        here = NAMES[pos]
        square = token.lstrip("x>+=")
        if token[0] != "=" and node[3] != START and chips != node[2]:
            top = len(stack) - (stack[-1] not in MANA)
            low, high = sorted((node[2], chips))
            verb = "leaving" if chips < node[2] else "picking up"
            clauses.append(f"{verb} {chip_list(stack[top - high : top - low])} on {here}")
        if token[0] == "=":
            if stack[-1] in MANA:
                shuffled = f"the chips on {here}"
            elif moved:
                shuffled = "its chips"
            else:
                shuffled = f"the chips under {mover}'s {PAWN_NAMES[stack[-1].upper()]}"
            clause = f"shuffling {shuffled}"
            if clause not in clauses:
                clauses.append(clause)
        elif token[0] == "+":
            deploys[square] = deploys.get(square, 0) + 1
        elif not _is_step(token, node):
            chips_moved = stack[-chips:] if stack[-1] in MANA else stack[-1 - chips : -1]
            clauses.append(f"moving {chip_list(chips_moved)} to {square}")
        elif action.code == STRIKE:
            target = _target(token, node)[-1]
            victim = "a shield" if target == SHIELD else f"{enemy}'s {PAWN_NAMES[target.upper()]}"
            clauses.append(f"striking {victim} on {square}")
    if deploys:
        shields = [f"{_counted(n, 'shield')} to {square}" for square, n in deploys.items()]
        clauses.append(f"deploying {join_words(shields)}")
    destroyed = _mana(board, side) - _mana(trace.board, side)
    if destroyed:
        clauses.append(f"destroying {_counted(destroyed, 'mana chip')}")
    return clauses


def chip_list(letters: str) -> str:
    """'DDS' -> '2 dark mana chips and a shield': chips by kind, in the stack's order."""
    counts: dict[str, int] = {}
    for letter in letters.upper():
        counts[letter] = counts.get(letter, 0) + 1
    return join_words(
        [
            _counted(n, "shield" if kind == SHIELD else f"{CHIP_NAMES[kind]} chip")
            for kind, n in counts.items()
        ]
    )


def _counted(n: int, noun: str) -> str:
    return f"a {noun}" if n == 1 else f"{n} {noun}s"


def _is_step(token: str, node: Node) -> bool:
    """A pawn's step or strike: not a shuffle, deploy or move of chips alone."""
    return token[0] not in "=+>" and node[0][node[1]][-1] not in MANA


def _target(token: str, node: Node) -> str:
    """The stack a step went to, as it was before the step."""
    return node[0][BY_NAME[token.lstrip("x")]]


def _mana(board: Board, side: Side) -> int:
    """How many of the enemy's mana chips are on the board."""
    return sum(stack.count(letter) for stack in board for letter in side.enemy_mana)
