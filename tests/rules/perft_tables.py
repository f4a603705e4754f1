"""Perft tables: how many move sequences each position allows at depths 1..N, kept as data.

A table is tests/rules/perft/<game>.json, a list of positions, each either a new game
(`players`, `variant`, optionally `seed`) or, without those, the named position of
fixtures/positions/<game>.json its `name` gives, with its `counts`.
The counts cover the whole tree of legal moves, so any change to move generation or to
`apply` that alters what can be played shows up, whatever line a random test would follow.

Regenerate a table after a deliberate rules change (or fill in a new one whose entries
give `depth` instead of `counts`):

    python -m tests.rules.perft_tables tests/rules/perft/quorum.json [--depth N]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from fixtures.positions import diagram
from rules import get_game
from rules.game import Game

TABLES = Path(__file__).parent / "perft"


def perft(game: Game[Any, Any], state: Any, depth: int) -> list[int]:
    """Leaves of the legal-move tree at each depth 1..`depth`.

    Moves are applied through the trusted path; the last level is counted from `legal_moves`
    without applying (bulk counting), which gives the same numbers for a fraction of the work.
    A finished game has no legal moves, so its branch stops counting.
    """
    counts = [0] * depth

    def walk(position: Any, level: int) -> None:
        moves = game.legal_moves(position)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk(game.apply(position, move, check=False), level + 1)

    if depth > 0:
        walk(state, 0)
    return counts


def position(game: Game[Any, Any], entry: dict[str, Any]) -> Any:
    """The position a table entry names: a new game, or the named position of that name."""
    if "players" not in entry:
        return game.parse_diagram(diagram(game.name, entry["name"]))
    return game.new(
        players=entry.get("players"), variant=entry.get("variant"), seed=entry.get("seed", 0)
    )


def tables() -> list[Path]:
    """Every table present, one per game."""
    return sorted(TABLES.glob("*.json"))


def regenerate(path: Path, depth: int | None = None) -> None:
    """Recount every entry of a table, to `depth` or to its present depth."""
    game = get_game(path.stem)
    entries = json.loads(path.read_text(encoding="utf-8"))
    for entry in entries:
        wanted = depth or entry.pop("depth", None) or len(entry["counts"])
        entry["counts"] = perft(game, position(game, entry), wanted)
    text = json.dumps(entries, indent=2, ensure_ascii=False)
    one_line = re.sub(r"\[\s+([\d,\s]+?)\s+\]", lambda m: f"[{' '.join(m[1].split())}]", text)
    path.write_text(one_line + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tables", nargs="+", type=Path, help="tests/rules/perft/<game>.json")
    parser.add_argument("--depth", type=int, help="recount to this depth (default: as now)")
    args = parser.parse_args()
    for path in args.tables:
        regenerate(path, args.depth)
        print(f"{path}: recounted")


if __name__ == "__main__":
    main()
