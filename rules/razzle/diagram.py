"""Razzle Dazzle positions as text: `.` empty, `x` `X` player 1's pieces (`X` holds the
ball), `o` `O` player 2's, and the keys `to move`, `ineligible` and `last move`."""

from __future__ import annotations

from rules.diagrams import grid_rows, parse_seat, split_diagram
from rules.errors import InvalidDiagram, RulesError
from rules.notation import parse_square, square_name
from rules.outcomes import Outcome, Reason
from rules.razzle.board import (
    BALL,
    BOARD,
    EMPTY,
    GOAL_RANK,
    HEIGHT,
    NAMES,
    NEIGHBOURS,
    ORDINAL,
    PIECE,
    POINTS,
    WIDTH,
    ball_square,
    is_knight_step,
)
from rules.razzle.notation import broken_at, joined_path, read_segments
from rules.razzle.state import RazzleState, position_key
from rules.repetition import History
from rules.state import Highlight

SIDE_NAMES = {"x": 1, "o": 2}


def parse(text: str) -> RazzleState:
    lines = []
    for raw in text.splitlines():
        line = raw.split("←")[0].replace("|", " ")
        if line.strip() and not line.strip().strip("+-"):
            continue
        lines.append(line)
    rows, keys = split_diagram("\n".join(lines))
    unknown = set(keys) - {"to move", "ineligible", "last move"}
    if unknown:
        raise InvalidDiagram("rules.razzle.diagram.key", name=sorted(unknown)[0])
    board = _read_board(grid_rows(rows, WIDTH, HEIGHT))
    turn = parse_seat(keys.get("to move", "1"), 2, SIDE_NAMES)
    ineligible = frozenset(_read_ineligible(board, keys.get("ineligible", "")))
    last, forced = _read_last(board, turn, keys.get("last move", ""))
    result = None
    for seat in (1, 2):
        if ball_square(board, seat) // WIDTH == GOAL_RANK[seat]:
            result = Outcome((seat,), Reason.GOAL)
    return RazzleState(
        board=board,
        turn=turn,
        result=result,
        last=last,
        ineligible=ineligible,
        forced=forced,
        history=History.start(position_key(board, ineligible, forced, turn)),
    )


def _read_board(cells: list[list[str]]) -> str:
    board = [EMPTY] * (WIDTH * HEIGHT)
    for row_number, row in enumerate(cells):
        rank = HEIGHT - 1 - row_number
        for file, cell in enumerate(row):
            if cell not in (EMPTY, "x", "X", "o", "O"):
                raise InvalidDiagram(
                    "rules.razzle.diagram.cell", square=square_name((file, rank)), cell=cell
                )
            board[BOARD.index((file, rank))] = cell
    joined = "".join(board)
    for seat in (1, 2):
        if joined.count(BALL[seat]) != 1:
            raise InvalidDiagram(
                "rules.razzle.diagram.balls",
                seat=seat,
                ball=BALL[seat],
                found=joined.count(BALL[seat]),
            )
    return joined


def _read_ineligible(board: str, value: str) -> list[int]:
    squares = []
    for word in value.replace(",", " ").split():
        try:
            square = BOARD.index(parse_square(word, WIDTH, HEIGHT))
        except RulesError as error:
            raise InvalidDiagram("rules.razzle.diagram.ineligible", error=error) from error
        if board[square] == EMPTY:
            raise InvalidDiagram("rules.razzle.diagram.ineligible_empty", square=word)
        squares.append(square)
    return squares


def _read_last(board: str, turn: int, value: str) -> tuple[Highlight | None, bool]:
    """The opponent's last turn (for the picture) and whether it forces a throw now."""
    if not value.strip():
        return None, False
    mover = 3 - turn
    try:
        segments = read_segments(value)
        if segments == [["pass"]]:
            return Highlight(mover, "pass"), False
        path = tuple(BOARD.index(parse_square(s, WIDTH, HEIGHT)) for s in joined_path(segments))
    except RulesError as error:
        raise InvalidDiagram("rules.razzle.diagram.last", error=error) from error
    if broken_at(segments) is not None:
        raise InvalidDiagram("rules.razzle.diagram.last_broken")
    if len(path) < 2:
        raise InvalidDiagram("rules.razzle.diagram.last_short")
    notation = "-".join(map(NAMES.__getitem__, path))
    highlight = Highlight(mover, notation, tuple(map(POINTS.__getitem__, path)))
    if len(path) == 2 and is_knight_step(*path):
        if board[path[0]] != EMPTY or board[path[1]] != PIECE[mover]:
            raise InvalidDiagram(
                "rules.razzle.diagram.last_knight",
                move=notation,
                origin=NAMES[path[0]],
                target=NAMES[path[1]],
                piece=PIECE[mover],
                seat=mover,
            )
        return highlight, ball_square(board, turn) in NEIGHBOURS[path[1]]
    if board[path[-1]] != BALL[mover]:
        raise InvalidDiagram(
            "rules.razzle.diagram.last_throw",
            move=notation,
            ball=BALL[mover],
            seat=mover,
            square=NAMES[path[-1]],
        )
    return highlight, False


def format_text(state: RazzleState) -> str:
    lines = ["   " + " ".join("abcdefg")]
    for rank in range(HEIGHT - 1, -1, -1):
        row = " ".join(state.board[BOARD.index((file, rank))] for file in range(WIDTH))
        lines.append(f"{rank + 1}  {row}")
    lines.append(f"to move: {state.turn}")
    if state.ineligible:
        names = " ".join(NAMES[s] for s in sorted(state.ineligible, key=ORDINAL.__getitem__))
        lines.append(f"ineligible: {names}")
    if state.last is not None:
        lines.append(f"last move: {state.last.notation}")
    return "\n".join(lines)
