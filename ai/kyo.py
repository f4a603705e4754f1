"""Kyo's search: every turn scored, the exchanges it allows played out, then forks.

A Kyo position has hundreds to tens of thousands of turns (a queen on a field of mana: one
measured position has 33,022, 2.9 s just to list), so a full two-ply search is out of reach.
But almost all of a position's value moves when something is taken, and the turns that take
(strike a pawn, end on enemy mana) are few, dozens at most, and found ~70x faster than the
whole list (`rules.kyo.turns.TakeFinder`). So: every root turn listed in time, and every
take, is scored by the evaluation; then each, best first, is answered by the opponent's
takes, those by the mover's retakes, and so on (a quiescence search: either side may
instead stop taking and keep the position as it is), one more exchange each iteration while
the time lasts. A turn that leaves a piece to be taken is seen at the first iteration; a
take that loses the striker to a retake at the second. Time left after that goes to the
turns that threaten takes: each is answered by every reply, so a fork the opponent cannot
parry is told from a threat one reply meets.

Turns that differ only in where the mover's own mana is left count as one (`Alike`): the
evaluation cannot tell them apart, and of each kind the turn with the fewest tokens is the
one searched and played, so the computer does not post a route round a loop when a short
one does as much.
"""

from __future__ import annotations

import heapq
import itertools
import operator
import random
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from ai.base import WIN, Budget, Choice, Evaluator, Limit, OutOfBudget, seat_chances, value_chance
from ai.heuristics import kyo_score
from ai.reference import forced, listed_moves
from rules.game import Game
from rules.kyo import Turn, winner
from rules.kyo.board import BY_NAME, SIDES, Side, position_key
from rules.kyo.notation import FILES
from rules.kyo.turns import (
    NODE,
    START,
    Board,
    Node,
    TakeFinder,
    actions,
    end_node,
    split_written,
    start_node,
)

# Exchanges looked at, at most (a take and its retake are two): every position has fewer
# takes in a row than this in the games measured, so deeper iterations find nothing new.
MOST_EXCHANGES = 8
# A turn worth checking for a fork scores at most this far below the best turn found...
FORK_MARGIN = 1.5
# ...and would gain at least this much more if the opponent let it take next turn.
FORK_GAIN = 0.5
# Of the time left, what listing the opponent's replies to one threatening turn may take.
REPLY_SHARE = 0.25
# The search for the shortest way to play a take the listing did not reach may take this
# share of the move's time (so that the move takes about as long), or this many nodes when
# the move is searched by nodes: on the looping takes of seeded games, 10% of level 3's
# time found a shorter way for 4 of the 6 that had one, level 2's for 2, level 1's for 1.
SPELLING_SHARE = 0.1
SPELLING_NODES = 10_000


def outcome_value(board: Board, mover: int, seat: int) -> float | None:
    """WIN or -WIN for `seat` if the turn `mover` just played ended the game."""
    outcome = winner(board, mover)
    if outcome is None:
        return None
    return WIN if seat in outcome.winners else -WIN


class KyoSearch:
    """The Bot for Kyo (see the module docstring)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit, rng: random.Random) -> Choice:
        budget = Budget(limit)
        seat = state.turn
        alike = Alike(state.board, SIDES[seat])
        kinds = alike.shortest(listed_moves(game, state, budget))
        finders = {mover: TakeFinder(state.board, SIDES[mover]) for mover in (seat, 3 - seat)}
        taken = [
            kinds.get(alike.key(b), Turn(tokens, b))
            for tokens, b in finders[seat].takes(state.board)
        ]
        first = {move.board for move in taken}
        listed = [m for m in kinds.values() if not (isinstance(m, Turn) and m.board in first)]
        rng.shuffle(listed)  # ties go to a random turn, not to the first generated
        moves = [*taken, *listed]
        if not moves or not isinstance(moves[0], Turn):  # nothing listed in time, or a pass
            return forced(game, state, moves, self.evaluator, rng)
        ranked = _first_look(state, moves, budget)
        value, move, _ = ranked[0]
        urgent = first | _escapes(state, moves, finders[3 - seat])
        ranked.sort(key=lambda entry: entry[1].board not in urgent)  # stable: by value next
        plies = 1
        search = _Exchanges(budget, finders)
        while value < WIN / 2 and plies <= MOST_EXCHANGES:
            try:
                ranked = search.iterate(ranked, seat, plies)
            except OutOfBudget:
                break
            finally:
                if search.answered:
                    value, move, _ = max(search.answered, key=lambda entry: entry[0])
            plies += 1
            if not search.deeper:
                break
        if value < WIN / 2 and not search.deeper:
            forked = _Forks(game, state, search).best(ranked, value)
            if forked is not None:
                value, move, plies = *forked, 3
        chances = seat_chances(seat, value_chance(value, self.evaluator.scale), 2)
        info = {"nodes": budget.nodes, "depth": plies, "value": value, "chances": chances}
        spelling = None if limit.seconds is None else limit.seconds * SPELLING_SHARE
        return Choice(alike.spelled(move, kinds, spelling), info)


# (value for the mover, turn, whether the game ends with it), best first.
Ranked = list[tuple[float, Any, bool]]


def _first_look(state: Any, moves: list[Any], budget: Budget) -> Ranked:
    """As many turns as the budget allows (one at least) scored by the evaluation; a turn
    that repeats a position seen twice is a draw (value 0)."""
    seat = state.turn
    total = len("".join(state.board))
    ranked: Ranked = []
    for move in moves:
        if ranked and budget.exhausted():
            break
        budget.spend()
        board = move.board
        value = outcome_value(board, seat, seat)
        over = value is not None
        if value is None:
            over = len("".join(board)) == total and (
                state.history.count(position_key(board, 3 - seat)) >= 2
            )
            value = 0.0 if over else kyo_score(board, seat)
        ranked.append((value, move, over))
        if value >= WIN / 2:
            break
    ranked.sort(key=lambda entry: -entry[0])
    return ranked


def _escapes(state: Any, moves: list[Any], opponent: TakeFinder) -> set[Board]:
    """The positions left by turns of pieces the opponent could take now: with the takes,
    the turns to answer first, since while none is answered every turn looks lost."""
    seat = state.turn
    board = state.board
    mine = SIDES[seat].pawns + SIDES[seat].mana
    threatened = {
        tile
        for _, after in opponent.takes(board)
        for tile, stack in enumerate(after)
        if sum(stack.count(item) for item in mine) < sum(board[tile].count(item) for item in mine)
    }
    return {
        move.board
        for move in moves
        if isinstance(move, Turn) and BY_NAME[move.tokens[0]] in threatened
    }


class Alike:
    """Turns that leave the same position but for where the mover's own mana lies are one
    move to the search: the evaluation counts mana, not where it stands, so such turns score
    alike, and a search over all of them picked one at random, often a route that drops and
    lifts chips round a loop. Of each kind the turn with the fewest tokens is played (issue
    41: no route that revisits a tile when a shorter one does as much)."""

    def __init__(self, board: Board, side: Side) -> None:
        self.board = board
        self.side = side
        self.without = str.maketrans("", "", side.mana)
        self.before = tuple(stack.translate(self.without) for stack in board)

    def key(self, board: Board) -> tuple[tuple[int, str], ...]:
        """What tells two kinds apart: each tile whose stack, the mover's mana taken out,
        is not as it was before the turn, with that stack. Only the stacks a turn replaced
        are looked at (a turn's board shares the others with the position it left)."""
        changed = itertools.compress(range(len(board)), map(operator.is_not, board, self.board))
        key = []
        for tile in changed:
            stack = board[tile].translate(self.without)
            if stack != self.before[tile]:
                key.append((tile, stack))
        return tuple(key)

    def shortest(self, listed: list[Any]) -> dict[Any, Any]:
        """The first turn of each kind in `listed` (the lazy move tree's moves, the fewest
        tokens first), by kind; a pass stands for itself."""
        kinds: dict[Any, Any] = {}
        for move in listed:
            kinds.setdefault(self.key(move.board) if isinstance(move, Turn) else move, move)
        return kinds

    def spelled(self, move: Any, kinds: dict[Any, Any], seconds: float | None = None) -> Any:
        """The turn to play for the search's choice: itself if it came from the listing (the
        first of its kind), else (a take the listing did not reach in time, spelled as the
        takes' walk found it, depth first) the shortest turn of its kind (`respelled`)."""
        if not isinstance(move, Turn) or kinds.get(self.key(move.board)) is move:
            return move
        return self.respelled(move, seconds)

    def respelled(self, move: Turn, seconds: float | None = None) -> Turn:
        """The turn of `move`'s kind from the same stack with the fewest tokens (ties: the
        first found), or `move` if none is shorter or none is found within `SPELLING_NODES`
        nodes and `seconds` of CPU time. Searched first as the takes' walk searches (a node
        known by its tile, that tile's stack, the slice and the road, not by the rest of the
        board: fast, but blind to a route that needs a chip it left on another tile); then,
        for a route that comes back to a tile, node by whole node."""
        budget = Budget(Limit(nodes=SPELLING_NODES, seconds=seconds))
        found = self._fewest_tokens(move, budget, _where)
        if found is None and _revisits(move.tokens):
            found = self._fewest_tokens(move, budget, _whole)
        return move if found is None else found

    def _fewest_tokens(
        self, move: Turn, budget: Budget, known: Callable[[Node], Hashable]
    ) -> Turn | None:
        """A turn of `move`'s kind with fewer tokens, fewest first, nodes that are `known`
        alike searched once; None if there is none or the budget runs out."""
        wanted = self.key(move.board)
        start = start_node(self.board, BY_NAME[move.tokens[0]], self.side)
        order = itertools.count()  # ties: the first found
        # (tokens, order, the node to go on from or None once the turn is over, the board
        # then, the tokens so far)
        queue: list[tuple[int, int, Node | None, Board, tuple[str, ...]]] = []
        heapq.heappush(queue, (1, next(order), start, self.board, move.tokens[:1]))
        seen: set[Hashable] = set()
        while queue and not budget.exhausted():
            count, _, node, board, tokens = heapq.heappop(queue)
            if count >= len(move.tokens):
                break
            if node is None or node[3] != START:  # a turn may end here
                ended = board if node is None else end_node(node)
                if self.key(ended) == wanted:
                    return Turn(tokens, ended)
            if node is None or known(node) in seen:
                continue
            seen.add(known(node))
            budget.spend()
            for written, code, result in actions(node, self.side):
                if code >= 0:
                    more = (*tokens, *split_written(written))
                    node_or_end = (result, board) if code == NODE else (None, result)
                    heapq.heappush(queue, (len(more), next(order), *node_or_end, more))
        return None


def _where(node: Node) -> Hashable:
    """A node as the takes' walk knows it: its tile, that tile's stack, slice and road."""
    now, pos, c, phase, colour, way, _, _, shielded, lifted = node
    return pos, now[pos], c, phase, colour, way, shielded, lifted


def _whole(node: Node) -> Hashable:
    return node


def _revisits(tokens: tuple[str, ...]) -> bool:
    """Whether a turn's slice comes back to a tile it stood on (steps and strikes move it;
    chip moves, deploys, shuffles and slice sizes do not)."""
    stood = [tokens[0], *(token.lstrip("x") for token in tokens[1:] if token[0] in FILES + "x")]
    return len(set(stood)) < len(stood)


class _Exchanges:
    """One choice's quiescence search; positions' takes are found once and kept."""

    def __init__(self, budget: Budget, finders: dict[int, TakeFinder]) -> None:
        self.budget = budget
        self.finders = finders
        self.replies: dict[tuple[Board, int], list[Board]] = {}
        self.answered: Ranked = []
        self.deeper = False  # whether a line stopped at the depth limit with takes left

    def iterate(self, ranked: Ranked, seat: int, exchanges: int) -> Ranked:
        """Every root turn, best first, valued after up to `exchanges` takes; returns them
        best first. A turn refuted below the best so far keeps that bound as its value."""
        self.answered = []
        self.deeper = False
        best = -WIN * 2
        for first, move, over in ranked:
            value = first
            if not over:
                value = -self.resolve(move.board, 3 - seat, -WIN * 2, -best, exchanges)
            self.answered.append((value, move, over))
            best = max(best, value)
        return sorted(self.answered, key=lambda entry: -entry[0])

    def resolve(self, board: Board, mover: int, alpha: float, beta: float, left: int) -> float:
        """The value of `board` for `mover` (to move) when each side in turn either takes or
        stops, negamax with alpha-beta, at most `left` takes deep."""
        stand = kyo_score(board, mover)
        if stand >= beta:
            return stand
        replies = self._takes(board, mover)
        if not replies:
            return stand
        if left == 0:
            self.deeper = True
            return stand
        alpha = max(alpha, stand)
        for after in replies:
            if self.budget.exhausted():
                raise OutOfBudget
            self.budget.spend()
            value = outcome_value(after, mover, mover)
            if value is None:
                value = -self.resolve(after, 3 - mover, -beta, -alpha, left - 1)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha

    def _takes(self, board: Board, mover: int) -> list[Board]:
        """The positions `mover`'s takes leave, the best for `mover` first."""
        key = (board, mover)
        found = self.replies.get(key)
        if found is None:
            boards = [after for _, after in self.finders[mover].takes(board)]
            found = sorted(boards, key=lambda after: -kyo_score(after, mover))
            self.replies[key] = found
        return found


class _Forks:
    """With time left after the exchanges: turns that threaten takes the opponent cannot all
    parry. A turn whose takes next turn (were the opponent to let them happen) would gain
    more than its exchanges show is answered by every reply the opponent has, each valued
    by the exchanges that follow; its worst reply is its value."""

    def __init__(self, game: Game[Any, Any], state: Any, search: _Exchanges) -> None:
        self.game = game
        self.state = state
        self.search = search

    def best(self, ranked: Ranked, best: float) -> tuple[float, Any] | None:
        """A threatening turn worth more than `best` at the opponent's every reply, if the
        time finds one."""
        seat = self.state.turn
        found = None
        try:
            threats = []
            for value, move, over in ranked:
                if value < best - FORK_MARGIN:
                    break
                if over:
                    continue
                if self.search.budget.exhausted():
                    raise OutOfBudget
                hoped = self.search.resolve(move.board, seat, best, WIN * 2, MOST_EXCHANGES)
                if hoped > max(value, best) + FORK_GAIN:
                    threats.append((hoped, move))
            threats.sort(key=lambda entry: -entry[0])
            for hoped, move in threats:
                if hoped <= best:
                    break
                answered = self._worst_reply(move, best)
                if answered is not None and answered > best:
                    best, found = answered, (answered, move)
        except OutOfBudget:
            pass
        return found

    def _worst_reply(self, move: Any, floor: float) -> float | None:
        """The value of `move` at the opponent's best reply, or any value at or below `floor`
        once a reply shows it is no better; None if the replies could not all be listed."""
        seat = self.state.turn
        after = replace(self.state, board=move.board, turn=3 - seat)
        budget = self.search.budget
        left = budget.seconds_left()
        stop = None if left is None else left * (1 - REPLY_SHARE)
        replies = []
        for reply in self.game.move_tree(after).moves(breadth_first=True):
            if stop is not None and (budget.seconds_left() or 0.0) <= stop:
                return None
            replies.append(reply)
        replies.sort(key=lambda reply: "x" not in str(reply))  # strikes first
        worst = WIN * 2
        for reply in replies:
            if budget.exhausted():
                raise OutOfBudget
            budget.spend()
            board = reply.board if isinstance(reply, Turn) else move.board  # or a pass
            ended = outcome_value(board, 3 - seat, seat)
            if ended is None:
                ended = self.search.resolve(board, seat, floor, WIN * 2, MOST_EXCHANGES)
            worst = min(worst, ended)
            if worst <= floor:
                break
        return worst
