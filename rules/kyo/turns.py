"""A Kyo turn as a walk through intermediate positions, shared by the search and the parser.

A turn starts at one stack. While it goes on, the mover's *slice* is always the top of the
stack it stands on: the pawn (if any) and the `c` chips under it. Re-slicing (putting chips
down, lifting more) only changes `c`, so an intermediate position is a *node*:

    (board, pos, c, phase, colour, way, lo, hi, shielded, lifted)

`phase` says what may still happen (below); `colour`/`way` are the mana colour ('d' or 'l')
and direction of the last mana step, for the keep-your-direction rule; `lo:hi` are the
indices, in the stack at `pos`, of the enemy chips the slice landed on last, which rule 13
destroys if the turn ends there (nothing can lift through enemy mana, so they stay put);
`shielded` is a bit mask of the tiles a tower's deploys have put a shield on this turn (more
may join them there, though shields otherwise need an empty or mana top); `lifted` counts
the chips a pawn has lifted this turn, its first slice included (rule 5: at most 5 in a turn).

A tower deploys only at the end of its turn (rule 10), so once it has deployed, or after its
direct step or chip move, only deploys remain: those nodes forget the road's colour and
direction, and every road ending on a tile shares one deploy search. A slice may stand on a
tile again (rule 5); a node already searched is not searched twice, which keeps loops finite.

Every action is a function from a node to either a new node, a finished board (the action
ended the turn) or an error code. The search (`legal_turns`) tries every action from every
node, in order of notation length, so each resulting position is reached first by its
shortest notation; the parser (rules.kyo.replay) runs the actions a player typed through the
same functions, so both always agree.

Notation tokens (the picker's tokens too): the origin square, then
`:n` slice of n chips for the next action, `e3` step, `xe3` strike, `>e3` chips only,
`+e3` deploy one shield (tower), `=LDS` shuffle (new order of the lifted chips, bottom first).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from itertools import combinations
from operator import or_
from typing import Any

from rules.kyo.board import (
    DARK,
    LIGHT,
    LIGHT_PAWNS,
    MANA,
    MAX_CHIPS,
    NAMES,
    NEIGHBOUR_CELLS,
    NEIGHBOURS,
    QUEENS,
    SHIELD,
    TOWERS,
    Side,
    owner,
)
from rules.kyo.notation import join

Board = tuple[str, ...]
Node = tuple[Board, int, int, int, str, int, int, int, int, int]
# What an action gives: (NODE, the next node), (FINAL or STRIKE, the board the turn leaves),
# or (an error code, None).
Result = tuple[int, Any]

ORTHOGONAL = tuple(tuple(n for n in around if not n[2]) for around in NEIGHBOURS)
DIAGONAL = tuple(tuple(n for n in around if n[2]) for around in NEIGHBOURS)

# Phases of a pawn's turn.
START = 0  # nothing done yet
BEFORE = 1  # only a queen's shuffles so far: any first step may follow
MANA_PATH = 2  # after a mana step: more mana steps, a queen's shuffles, a tower's deploys
MOVED = 3  # a tower after its direct step: deploys only
CHIPPED = 4  # a tower after moving chips: deploys only
DEPLOYED = 5  # a tower after a deploy: more deploys only

EMPTY = "."  # stands for the top of an empty tile: no item letter, unlike "" in every string

# Outcomes of an action that did not fail.
NODE, FINAL, STRIKE = 0, 1, 2

# Error codes (negative), explained to players by rules.kyo.replay.
E_OWN_PAWN = -1
E_OUTNUMBERED = -2
E_NEEDS_MANA = -3
E_SAME_WAY = -4
E_TURN_OVER = -5
E_NOT_QUEEN = -6
E_NOT_TOWER = -7
E_NO_SHIELD = -8
E_DEPLOY_TARGET = -9
E_SHUFFLE_CHIPS = -10
E_SHUFFLE_SHIELD = -11
E_ONLY_ACTION = -12
E_NO_CHIPS = -13
E_SLICE_SIZE = -14
E_NOT_NEXT = -15
E_LIFT_LIMIT = -16


def liftable(stack: str, side: Side) -> int:
    """How many chips the slice may hold here: never past enemy mana, at most 5 under a pawn
    (none under a light pawn), any number without a pawn."""
    top = stack[-1]
    if top in LIGHT_PAWNS:
        return 0
    pawn = top not in MANA and top != SHIELD
    limit = MAX_CHIPS if pawn else len(stack)
    count = 0
    i = len(stack) - 1 - pawn
    enemy = side.enemy_mana
    while i >= 0 and count < limit and stack[i] not in enemy:
        count += 1
        i -= 1
    return count


def lifted_after(node: Node, c: int) -> int:
    """Chips lifted this turn once the pawn's slice holds c: the first slice, then every chip
    picked up on the way (putting chips down gives nothing back)."""
    if node[3] == START:
        return c
    return node[9] + max(0, c - node[2])


def enemy_run(stack: str, end: int, enemy: str) -> int:
    """Length of the unbroken run of enemy chips ending just below index `end`."""
    k = end
    while k and stack[k - 1] in enemy:
        k -= 1
    return end - k


def outnumbers(board: Board, attacker: int, target: int, side: Side) -> tuple[int, int]:
    """(tiles around the target topped by the attacker's colour, tiles around the attacker
    topped by the defender's colour); a light pawn strikes only when the first is larger."""
    mine = sum(1 for q in NEIGHBOUR_CELLS[target] if board[q] and owner(board[q][-1]) == side.seat)
    theirs = sum(
        1
        for q in NEIGHBOUR_CELLS[attacker]
        if board[q] and owner(board[q][-1]) not in (0, side.seat)
    )
    return mine, theirs


def finish(cells: list[str], pos: int, lo: int, hi: int) -> Board:
    """Rule 13: the enemy chips the pawn's slice landed on are destroyed when the turn ends."""
    if lo >= 0:
        stack = cells[pos]
        cells[pos] = stack[:lo] + stack[hi:]
    return tuple(cells)


def end_node(node: Node) -> Board:
    board, pos, _, _, _, _, lo, hi, _, _ = node
    return finish(list(board), pos, lo, hi) if lo >= 0 else board


def drop_chips(cells: list[str], target: int, chips: str) -> None:
    """Chips alone go on top of an empty or mana-topped tile, else just under its top item."""
    stack = cells[target]
    if not stack or stack[-1] in MANA:
        cells[target] = stack + chips
    else:
        cells[target] = stack[:-1] + chips + stack[-1]


# --- the actions of a pawn's turn ----------------------------------------------------------


def step(node: Node, side: Side, c: int, q: int, way: int, diagonal: bool) -> Result:
    """The slice (pawn and c chips) steps to neighbour q: a move, a strike or a shield strike."""
    board, pos, _, phase, colour, last_way, lo, hi, _, _ = node
    if phase > MANA_PATH:
        return E_TURN_OVER, None
    lifted = lifted_after(node, c)
    if lifted > MAX_CHIPS:
        return E_LIFT_LIMIT, None
    stack = board[pos]
    pawn = stack[-1]
    rest = len(stack) - 1 - c
    left = stack[rest - 1] if rest else EMPTY
    mana = ""
    if pawn not in LIGHT_PAWNS:
        if left in DARK:
            mana = "" if diagonal else "d"
        elif left in LIGHT:
            mana = "l" if diagonal else ""
    if phase == MANA_PATH:
        if not mana:
            return E_NEEDS_MANA, None
        if mana == colour and way != last_way:
            return E_SAME_WAY, None
    target = board[q]
    top = target[-1] if target else EMPTY
    if top in side.pawns:
        return E_OWN_PAWN, None
    cells = list(board)
    if top in side.enemy_pawns:
        if pawn in LIGHT_PAWNS:
            mine, theirs = outnumbers(board, pos, q, side)
            if mine <= theirs:
                return E_OUTNUMBERED, None
        cells[pos] = stack[:rest]
        below = len(target) - 1
        cells[q] = target[: below - enemy_run(target, below, side.enemy_mana)] + stack[rest:]
        return STRIKE, tuple(cells)
    if top == SHIELD and pawn not in TOWERS:
        cells[q] = target[:-1]  # reading: the striker stays, so nothing under it is destroyed
        return STRIKE, tuple(cells)
    cells[pos] = stack[:rest]
    cells[q] = target + stack[rest:]
    run = enemy_run(target, len(target), side.enemy_mana)
    lo, hi = (len(target) - run, len(target)) if run else (-1, -1)
    if mana:
        return NODE, (tuple(cells), q, c, MANA_PATH, mana, way, lo, hi, 0, lifted)
    if pawn in TOWERS:
        return NODE, (tuple(cells), q, c, MOVED, "", -1, lo, hi, 0, lifted)
    return FINAL, finish(cells, q, lo, hi)


def shuffle(node: Node, side: Side, order: str) -> Result:
    """The top len(order) chips under the pawn (or of a stack without one) are put in `order`
    (bottom first, written D L S)."""
    board, pos, _, phase, colour, way, lo, hi, _, _ = node
    stack = board[pos]
    top = stack[-1]
    queen = top in QUEENS
    if phase > MANA_PATH:
        return E_TURN_OVER, None
    if phase != START and not queen:
        return E_NOT_QUEEN, None
    chips = own_letters(order, side)
    above = 0 if top in MANA else 1
    start = len(stack) - above - len(chips)
    if start < 0 or sorted(stack[start : len(stack) - above]) != sorted(chips):
        return E_SHUFFLE_CHIPS, None
    if SHIELD in chips.rstrip(SHIELD):
        return E_SHUFFLE_SHIELD, None
    lifted = lifted_after(node, len(chips))
    if lifted > MAX_CHIPS and top not in MANA:
        return E_LIFT_LIMIT, None
    cells = list(board)
    cells[pos] = stack[:start] + chips + stack[len(stack) - above :]
    if not queen:
        return FINAL, tuple(cells)
    after = max(phase, BEFORE)
    return NODE, (tuple(cells), pos, len(chips), after, colour, way, lo, hi, 0, lifted)


def deploy(node: Node, side: Side, c: int, q: int) -> Result:
    """A tower puts the highest shield of its slice on neighbour q: empty, mana on top, or
    given a shield by this turn's deploys. After it the tower only deploys."""
    board, pos, _, phase, _, _, lo, hi, shielded, _ = node
    stack = board[pos]
    if stack[-1] not in TOWERS:
        return E_NOT_TOWER, None
    lifted = lifted_after(node, c)
    if lifted > MAX_CHIPS:
        return E_LIFT_LIMIT, None
    at = stack.rfind(SHIELD, len(stack) - 1 - c, len(stack) - 1)
    if at < 0:
        return E_NO_SHIELD, None
    target = board[q]
    if target and target[-1] not in MANA and not shielded >> q & 1:
        return E_DEPLOY_TARGET, None
    cells = list(board)
    cells[pos] = stack[:at] + stack[at + 1 :]
    cells[q] = target + SHIELD
    return NODE, (tuple(cells), pos, c - 1, DEPLOYED, "", -1, lo, hi, shielded | 1 << q, lifted)


def move_chips(node: Node, side: Side, c: int, q: int) -> Result:
    """c chips step to q without a pawn (from under one, or a stack that has none): the
    turn's only action, though a tower may still deploy."""
    board, pos, _, phase, _, _, _, _, _, _ = node
    stack = board[pos]
    top = stack[-1]
    if phase > MANA_PATH:
        return E_TURN_OVER, None
    if phase != START:
        return E_ONLY_ACTION, None
    if c < 1:
        return E_NO_CHIPS, None
    cells = list(board)
    if top in MANA:
        cells[pos] = stack[:-c]
        drop_chips(cells, q, stack[-c:])
        return FINAL, tuple(cells)
    lifted = lifted_after(node, c)
    if lifted > MAX_CHIPS:
        return E_LIFT_LIMIT, None
    first = len(stack) - 1 - c
    cells[pos] = stack[:first] + top
    drop_chips(cells, q, stack[first:-1])
    if top not in TOWERS:
        return FINAL, tuple(cells)
    return NODE, (tuple(cells), pos, 0, CHIPPED, "", -1, -1, -1, 0, lifted)


def own_letters(order: str, side: Side) -> str:
    """Shuffle orders are written D L S whoever moves; Red's chips are lower case."""
    return order if side.seat == 1 else order.lower().replace("s", SHIELD)


@lru_cache(maxsize=4096)
def arrangements(chips: str) -> tuple[str, ...]:
    """Every order a shuffle may leave `chips` in (upper case D L S): any order of the mana,
    all shields on top."""
    dark, light = chips.count("D"), chips.count("L")
    shields = SHIELD * chips.count(SHIELD)
    total = dark + light
    found = []
    for places in combinations(range(total), dark):
        letters = ["L"] * total
        for i in places:
            letters[i] = "D"
        found.append("".join(letters) + shields)
    return tuple(found)


# --- the search ------------------------------------------------------------------------------


@dataclass
class Finals:
    """Resulting positions of one side's turns, each with its best (shortest) notation."""

    best: dict[Board, tuple[int, str, tuple[str, ...]]] = field(default_factory=dict)

    def offer(self, board: Board, text: str, tokens: tuple[str, ...]) -> None:
        known = self.best.get(board)
        if known is None or (len(text), text) < known[:2]:
            self.best[board] = (len(text), text, tokens)


def start_node(board: Board, pos: int, side: Side) -> Node:
    """The default slice is the largest one the stack allows."""
    return (board, pos, liftable(board[pos], side), START, "", -1, -1, -1, 0, 0)


def origins(board: Board, side: Side) -> Iterator[int]:
    """The tiles a turn may start from: their top item is the mover's."""
    for pos, stack in enumerate(board):
        if stack and (stack[-1] in side.pawns or stack[-1] in side.mana):
            yield pos


def legal_turns(board: Board, side: Side) -> Finals:
    """Every position one turn can reach, keyed by the board, with its shortest notation."""
    finals = Finals()
    for pos in origins(board, side):
        for _, after, text, tokens in search(board, pos, side):
            finals.offer(after, text, tokens)
    finals.best.pop(board, None)  # a turn must change the position
    return finals


def first_turn(board: Board, side: Side) -> tuple[str, ...] | None:
    """The tokens of some legal turn, found as soon as one is: the pass check and examples
    need one turn, never the whole list."""
    for pos in origins(board, side):
        for _, after, _, tokens in search(board, pos, side):
            if after != board:
                return tokens
    return None


# One take: its tokens, the position it leaves, and the tiles it changed.
Take = tuple[tuple[str, ...], Board, tuple[int, ...]]
# The bit mask of every tile within one step of `pos` (two for a light pawn, which counts
# the tiles around its target): what a walk from there may look at.
AROUND = tuple(sum(1 << q for q in (p, *NEIGHBOUR_CELLS[p])) for p in range(len(NEIGHBOURS)))
WIDE_AROUND = tuple(
    reduce(or_, (AROUND[q] for q in NEIGHBOUR_CELLS[p]), AROUND[p]) for p in range(len(NEIGHBOURS))
)


class TakeFinder:
    """The turns of one side that take something (strike an enemy pawn or end on enemy
    mana), one for each origin, kind and tile taken: the search's threats.

    A take depends on where the slice goes, not on which chips it leaves on the way, so each
    pawn's walk remembers a node by its tile, that tile's stack, slice and road only: a queen
    on a field of mana with 20,000 turns has a few dozen takes, found ~70x faster than the
    whole list (a path that needs chips dropped on one tile and lifted again two visits later
    may be missed). Each walk also notes the tiles it looked at, so the takes of a position
    that differs from the finder's by a turn or two are walked again only from the pawns
    whose walks saw a changed tile; the others' takes are copied onto the new position."""

    def __init__(self, board: Board, side: Side) -> None:
        self.board = board
        self.side = side
        self.walks = {
            origin: _walk_takes(board, origin, side)
            for origin in origins(board, side)
            if board[origin][-1] in side.pawns
        }

    def takes(self, board: Board) -> list[tuple[tuple[str, ...], Board]]:
        """Each take in `board` as (tokens, the position it leaves)."""
        base = self.board
        changed = sum(1 << i for i, stack in enumerate(board) if stack != base[i])
        found: list[tuple[tuple[str, ...], Board]] = []
        for origin in origins(board, self.side):
            if board[origin][-1] not in self.side.pawns:
                continue
            known = self.walks.get(origin)
            if known is None or known[0] & changed:
                found.extend(
                    (tokens, after) for tokens, after, _ in _walk_takes(board, origin, self.side)[1]
                )
                continue
            for tokens, after, tiles in known[1]:
                cells = list(board)
                for tile in tiles:
                    cells[tile] = after[tile]
                found.append((tokens, tuple(cells)))
        return found


def _walk_takes(board: Board, origin: int, side: Side) -> tuple[int, list[Take]]:
    """The takes of the pawn on `origin`, and the mask of the tiles its walk looked at."""
    queen = board[origin][-1] in QUEENS
    near = WIDE_AROUND if board[origin][-1] in LIGHT_PAWNS else AROUND
    reads = 0
    found: dict[tuple[int, int], tuple[tuple[str, ...], Board]] = {}
    seen: set[tuple[Any, ...]] = set()
    start = start_node(board, origin, side)
    pending: deque[tuple[Node, tuple[str, ...]]] = deque([(start, (NAMES[origin],))])
    while pending:
        node, tokens = pending.popleft()
        now, pos, c, phase, colour, way, lo, _, _, lifted = node
        key = (pos, now[pos], c, phase, colour, way, lifted)
        if key in seen:
            continue
        seen.add(key)
        reads |= near[pos]
        if lo >= 0 and phase != START:
            found.setdefault((0, pos), (tokens, end_node(node)))
        if phase > MANA_PATH:
            continue
        stack = now[pos]
        most = liftable(stack, side)
        if phase != START:
            most = min(most, c + MAX_CHIPS - lifted)
        for size in range(most + 1):
            sized = tokens if size == c else (*tokens, f":{size}")
            for q, direction, diagonal in _step_candidates(node, stack, size):
                code, result = step(node, side, size, q, direction, diagonal)
                if code == NODE:
                    pending.append((result, (*sized, NAMES[q])))
                elif code == STRIKE and now[q][-1] != SHIELD:
                    found.setdefault((1, q), ((*sized, f"x{NAMES[q]}"), result))
                elif code == FINAL and len(result[q]) < len(now[q]) + size + 1:
                    found.setdefault((0, q), ((*sized, NAMES[q]), result))
        if queen:
            for written, code, result in _shuffles(node, side, most):
                if code == NODE:
                    pending.append((result, (*tokens, written)))
    takes = [
        (tokens, after, tuple(i for i, stack in enumerate(after) if stack != board[i]))
        for tokens, after in found.values()
    ]
    return reads, takes


def shortest_spelling(
    board: Board, pos: int, side: Side, target: Board, typed: tuple[str, ...], budget: int
) -> tuple[str, ...]:
    """The shortest notation of the turn from `pos` that leaves `target`, searching no text
    longer than the typed one and at most `budget` nodes; the typed tokens if that is not
    enough to find a shorter one."""
    best_text = join(typed)
    best = typed
    for popped, after, text, tokens in search(board, pos, side, len(best_text), budget):
        if (len(popped), popped) >= (len(best_text), best_text):
            break
        if after == target and (len(text), text) < (len(best_text), best_text):
            best_text, best = text, tokens
    return best


def search(
    board: Board, pos: int, side: Side, longest: int | None = None, budget: int | None = None
) -> Iterator[tuple[str, Board, str, tuple[str, ...]]]:
    """Dijkstra over the nodes of turns from `pos`, by notation (length, then text): yields
    (text of the node being expanded, a position a turn ends in, that turn's text and tokens).
    A node taken from the queue carries its shortest notation, and so does every position it
    ends in; `longest` skips longer texts, `budget` stops after trying that many actions."""
    origin = NAMES[pos]
    start = start_node(board, pos, side)
    best = {start: origin}
    queue: list[tuple[int, str, int, Node, tuple[str, ...]]] = [(len(origin), origin, 0, start, ())]
    pushed = 0
    tried = 0
    while queue:
        _, text, _, node, tokens = heapq.heappop(queue)
        if best[node] != text:
            continue
        if node[3] != START:
            yield text, end_node(node), text, (origin, *tokens)
        for written, code, result in actions(node, side):
            tried += 1
            if budget is not None and tried > budget:
                return
            after = text + written
            if longest is not None and len(after) > longest:
                continue
            if code != NODE:
                yield text, result, after, (origin, *tokens, *split_written(written))
                continue
            known = best.get(result)
            if known is None or (len(after), after) < (len(known), known):
                best[result] = after
                pushed += 1
                entry = (len(after), after, pushed, result, (*tokens, *split_written(written)))
                heapq.heappush(queue, entry)


def split_written(written: str) -> tuple[str, ...]:
    """'-e3' -> ('e3',); ':2xe4' -> (':2', 'xe4'): the written form of one action as tokens."""
    if written[0] == ":":
        cut = 1
        while written[cut].isdigit():
            cut += 1
        return (written[:cut], *split_written(written[cut:]))
    return (written[1:],) if written[0] == "-" else (written,)


def actions(node: Node, side: Side) -> Iterator[tuple[str, int, Any]]:
    """Every action possible from a node, as (written form, outcome code, node or board)."""
    board, pos, c, phase, _, _, _, _, _, lifted = node
    stack = board[pos]
    top = stack[-1]
    most = liftable(stack, side)
    if phase != START and top not in MANA:
        most = min(most, c + MAX_CHIPS - lifted)
    if top in MANA:
        for size in range(1, most + 1):
            written = "" if size == c else f":{size}"
            for q in NEIGHBOUR_CELLS[pos]:
                code, result = move_chips(node, side, size, q)
                yield f"{written}-{NAMES[q]}", code, result
        yield from _shuffles(node, side, most)
        return
    if phase <= MANA_PATH:
        for size in range(most + 1):
            written = "" if size == c else f":{size}"
            for q, way, diagonal in _step_candidates(node, stack, size):
                code, result = step(node, side, size, q, way, diagonal)
                if code >= 0:
                    mark = "x" if code == STRIKE else "-"
                    yield f"{written}{mark}{NAMES[q]}", code, result
        if top in QUEENS or phase == START:
            yield from _shuffles(node, side, most)
    if top in TOWERS:
        for size in range(1, most + 1):
            if stack.rfind(SHIELD, len(stack) - 1 - size, len(stack) - 1) < 0:
                continue
            written = "" if size == c else f":{size}"
            for q in NEIGHBOUR_CELLS[pos]:
                code, result = deploy(node, side, size, q)
                if code >= 0:
                    yield f"{written}+{NAMES[q]}", code, result
    if phase == START:
        for size in range(1, most + 1):
            written = "" if size == c else f":{size}"
            for q in NEIGHBOUR_CELLS[pos]:
                code, result = move_chips(node, side, size, q)
                yield f"{written}>{NAMES[q]}", code, result


def _step_candidates(node: Node, stack: str, size: int) -> tuple[tuple[int, int, bool], ...]:
    """The neighbours a step with `size` chips might reach: on a mana road only those the
    chip left behind allows (the search's hot spot; `step` still checks everything)."""
    pos, phase = node[1], node[3]
    if phase != MANA_PATH:
        return NEIGHBOURS[pos]
    rest = len(stack) - 1 - size
    left = stack[rest - 1] if rest else EMPTY
    if left in DARK:
        colour, lines = "d", ORTHOGONAL[pos]
    elif left in LIGHT:
        colour, lines = "l", DIAGONAL[pos]
    else:
        return ()
    if colour == node[4]:
        return tuple(line for line in lines if line[1] == node[5])
    return lines


def _shuffles(node: Node, side: Side, most: int) -> Iterator[tuple[str, int, Any]]:
    stack = node[0][node[1]]
    above = 0 if stack[-1] in MANA else 1
    for size in range(2, most + 1):
        written = stack[len(stack) - above - size : len(stack) - above].upper()
        for order in arrangements("".join(sorted(written))):
            if order != written:
                code, result = shuffle(node, side, order)
                yield f"={order}", code, result
