"""Quorum positions as text: `○` (or `w`) White, `●` (or `b`) Black, `·` `.` `+` empty,
and a `to move` line."""

from __future__ import annotations

from rules.diagrams import grid_rows, parse_seat, split_diagram
from rules.errors import InvalidDiagram
from rules.notation import square_name
from rules.quorum.board import BLACK, BOARD, EMPTY, OBJECTIVES, SIZE, WHITE
from rules.quorum.state import QuorumState
from rules.repetition import History

SIDE_NAMES = {"white": 1, "w": 1, "○": 1, "black": 2, "b": 2, "●": 2}
WRITTEN_SIDES = ("white", "black")  # how the `to move` line names each seat


def parse(text: str) -> QuorumState:
    rows, keys = split_diagram(text)
    cells = grid_rows(rows, SIZE, SIZE)
    board = [EMPTY] * (SIZE * SIZE)
    symbols = {
        "○": WHITE,
        "w": WHITE,
        "●": BLACK,
        "b": BLACK,
        "·": EMPTY,
        ".": EMPTY,
        "+": EMPTY,
    }
    for row_number, row in enumerate(cells):
        rank = SIZE - 1 - row_number
        for file, cell in enumerate(row):
            symbol = symbols.get(cell.lower() if cell.isascii() else cell)
            if symbol is None:
                raise InvalidDiagram(
                    "rules.quorum.diagram.cell", square=square_name((file, rank)), cell=cell
                )
            board[BOARD.index((file, rank))] = symbol
    turn = parse_seat(keys.get("to move", "white"), 2, SIDE_NAMES)
    unknown = set(keys) - {"to move"}
    if unknown:
        raise InvalidDiagram("rules.quorum.diagram.key", name=sorted(unknown)[0])
    joined = "".join(board)
    return QuorumState(board=joined, turn=turn, history=History.start(f"{joined}{turn}"))


def format_text(state: QuorumState) -> str:
    lines = ["   " + " ".join("abcdefgh")]
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for file in range(SIZE):
            index = BOARD.index((file, rank))
            stone = state.board[index]
            if stone == WHITE:
                cells.append("○")
            elif stone == BLACK:
                cells.append("●")
            else:
                cells.append("+" if index in OBJECTIVES else "·")
        lines.append(f"{rank + 1}  " + " ".join(cells))
    lines.append(f"to move: {WRITTEN_SIDES[state.turn - 1]}")
    return "\n".join(lines)
