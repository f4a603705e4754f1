"""What a move's post says it did (`describe_move`), game by game, and the players' names in
the rules' error messages, worded in English by the bot's catalogue. Names are given as typed
("ivy", "Bob") and must keep their case."""

from collections.abc import Sequence

import pytest

from bot.texts import say, t
from rules import GAMES, PASS, IllegalMove, get_game
from rules.phrases import clauses, listed, owned, phrase

NAMES = ("ivy", "Bob", "carol")


def described(game_name: str, diagram: str, move: str, names: Sequence[str] | None) -> str:
    game = get_game(game_name)
    state = game.parse_diagram(diagram)
    return say(game.describe_move(state, game.parse_move(state, move), names))


def refusal(game_name: str, diagram: str, move: str, names: Sequence[str] | None) -> str:
    game = get_game(game_name)
    with pytest.raises(IllegalMove) as caught:
        game.parse_move(game.parse_diagram(diagram), move, names=names)
    return say(caught.value)


# --- the shared wording -------------------------------------------------------------------


def test_lists_read_as_a_sentence_names_them() -> None:
    assert say(listed(["a3"])) == "a3"
    assert say(listed(["a3", "b4"])) == "a3 and b4"
    assert say(listed(["a3", "b4", "c5"])) == "a3, b4 and c5"
    turning = phrase("rules.quorum.turning", squares="c5")
    taking = phrase("rules.quorum.turning", squares=listed(["a3", "b4"]))
    assert say(clauses([phrase("rules.quorum.turning", squares="a3"), turning])) == (
        "turning a3 and turning c5"
    )
    assert say(clauses([taking, turning])) == "turning a3 and b4, and turning c5"
    assert say(clauses([taking, turning, turning])) == (
        "turning a3 and b4, turning c5, and turning c5"
    )
    assert say(owned("rules.owned.stones", "ivy", ["a3"])) == "ivy's stone on a3"
    assert say(owned("rules.owned.pawns", "ivy", ["a3", "b4"])) == "ivy's pawns on a3 and b4"


@pytest.mark.parametrize("name", GAMES)
def test_a_pass_says_the_player_had_no_move(name: str) -> None:
    game = get_game(name)
    assert say(game.describe_move(game.new(), PASS, NAMES[:2])) == "pass, having no legal move"


@pytest.mark.parametrize("name", GAMES)
def test_every_opening_move_is_described_starting_with_its_notation(name: str) -> None:
    game = get_game(name)
    state = game.new()
    for move in game.legal_moves(state):
        text = say(game.describe_move(state, move))
        assert text.startswith(game.format_move(state, move))
        assert say(game.describe_move(state, move)) == text  # describing changes nothing


# --- Quorum -------------------------------------------------------------------------------

Q_START = get_game("quorum").format_diagram(get_game("quorum").new())
# a1 jumps over b2 to c3: b4, c4 and d4 are smothered, c2 and d3 turn white.
Q_MANY = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  ○ ○ ○ ● ● · · ·
4  ○ ● ● ● ● · · ·
3  ○ ○ · ● ○ · · ·
2  · ○ ● ● · · · ·
1  ○ · ○ · · · · ·
"""
# a1c3 smothers d4 only; then the same jump turning d3 only.
Q_TAKE = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · ● ● ● · · ·
4  · · ● ● ● ○ · ·
3  · · · ● ● ○ · ·
2  · ○ · ● · · · ·
1  ○ · · · · · · ·
"""
Q_TURN = """
8  · · · · · · · ·
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · · · · · ·
4  · · · · · · · ·
3  · · · ● ○ · · ·
2  · ○ · · · · · ·
1  ○ · · · · · · ·
"""
Q_HOMES = """
8  · · · · ● ● ● ●
7  · · · · · ● ● ·
6  · · · · · · ● ●
5  · · · · · · · ●
4  ○ · · · · · · ·
3  ○ ○ · · · · · ·
2  · ○ ○ · · · · ·
1  · ○ ○ ○ · · · ·
"""
# Q_TAKE with the colours swapped: Black smothers White's d4.
Q_BLACK_TAKES = Q_TAKE.translate(str.maketrans("○●", "●○")) + "to move: black"

QUORUM = [
    (Q_START, "a1e3", NAMES, "a1e3"),
    (Q_TAKE, "a1c3", NAMES, "a1c3, taking Bob's stone on d4"),
    (Q_TAKE, "a1c3", None, "a1c3, taking Black's stone on d4"),
    (Q_TURN, "a1c3", NAMES, "a1c3, turning d3"),
    (Q_MANY, "a1c3", NAMES, "a1c3, taking Bob's stones on b4, c4 and d4, and turning c2 and d3"),
    (Q_BLACK_TAKES, "a1c3", NAMES, "a1c3, taking ivy's stone on d4"),
    (Q_HOMES, "place", NAMES, "place, adding stones on a1 and a2"),
    (Q_HOMES + "to move: black", "place", NAMES, "place, adding a stone on h7"),
    (Q_HOMES + "to move: black", "h8f6", ("ivy", "Bob"), "h8f6"),
]


@pytest.mark.parametrize(("diagram", "move", "names", "expected"), QUORUM)
def test_quorum_moves_in_words(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert described("quorum", diagram, move, names) == expected


Q_CENTER = """
8  · · · · · · · ●
7  · · · · · · · ·
6  · · · · · · · ·
5  · · · · · · · ·
4  · · · · · · · ·
3  · · · · · · · ·
2  · ● · · · · · ·
1  ○ · · · · · · ·
"""


@pytest.mark.parametrize(
    ("diagram", "move", "names", "expected"),
    [
        (Q_START, "h8f6", NAMES, "h8 holds Bob's stone, not yours (you play White)"),
        (Q_START, "h8f6", None, "h8 holds Black's stone, not yours (you play White)"),
        (Q_CENTER, "a1c3", ("ivy", "bob"), "the center stone on b2 is bob's: jump over one of"),
        (Q_CENTER + "to move: black", "b2d4", NAMES, "there is no stone on c3 to jump over"),
    ],
)
def test_quorum_errors_name_the_players(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert expected in refusal("quorum", diagram, move, names)


# --- Boost --------------------------------------------------------------------------------


def boost(pieces: str, players: int = 2) -> str:
    """A 9x9 diagram from 'point:token' pairs (tokens like P1, K2, T3, D); player 1 to move.
    Every seat gets a tower or four pawns, so that nobody is out before the move."""
    grid = [["."] * 9 for _ in range(9)]
    base = "a1:T1 b1:P1 i9:T2 h9:P2 " + ("a9:P3 a7:P3 a5:P3 " if players == 3 else "")
    for item in (base + pieces).split():
        point, token = item.split(":")
        grid[9 - int(point[1:])][ord(point[0]) - ord("a")] = token
    return "\n".join(" ".join(row) for row in grid) + f"\nplayers: {players}\nto move: 1"


BOOST = [
    (boost("c5:P1"), "c5c4", NAMES[:2], "c5c4"),
    (boost("c5:P1 c7:P2 c8:P1"), "c5c6", NAMES[:2], "c5c6, taking Bob's pawn on c7"),
    (boost("c5:P1 c7:P2 c8:P1"), "c5c6", None, "c5c6, taking Red's pawn on c7"),
    (
        boost("c5:P1 b6:P2 a6:P1 d6:P2 e6:P1 c7:K2 c8:P1"),
        "c5c6",
        NAMES[:2],
        "c5c6, taking Bob's pawns on b6 and d6, and Bob's knight on c7",
    ),
    (boost("c4:K1 c3:P1 c6:T2"), "c4c6", NAMES[:2], "c4c6, taking Bob's tower on c6"),
    (boost("e5:D e4:P1"), "e5e7", NAMES[:2], "e5e7, moving a dragon"),
    (
        boost("e5:D e4:P1 e8:P2 e9:D"),
        "e5e7",
        NAMES[:2],
        "e5e7, moving a dragon and taking Bob's pawn on e8",
    ),
    (boost("d5:P1 e4:P1 f5:P1 e6:P1"), "e5", NAMES[:2], "e5, building a tower"),
    (boost("b3:P1 b2:T1"), "b3", NAMES[:2], "b3, promoting a pawn to a knight"),
    (
        boost("c5:P1 c7:P3 c8:P1", players=3),
        "c5c6",
        NAMES,
        "c5c6, taking carol's pawn on c7 and knocking carol out of the game",
    ),
    (
        boost("c5:P1 b6:P2 a6:P1 c7:K3 c8:P1", players=3),
        "c5c6",
        NAMES,
        "c5c6, taking Bob's pawn on b6 and carol's knight on c7, and knocking carol out of "
        "the game",
    ),
]


@pytest.mark.parametrize(("diagram", "move", "names", "expected"), BOOST)
def test_boost_moves_in_words(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert described("boost", diagram, move, names) == expected


def test_boost_a_decisive_capture_leaves_the_result_to_the_game_over_line() -> None:
    # Bob's last pawn goes and Bob is beaten: the outcome says so, the move text does not.
    diagram = boost("c5:P1 c7:P2 c8:P1 i9:. g9:P2 f9:P2")
    assert described("boost", diagram, "c5c6", NAMES[:2]) == "c5c6, taking Bob's pawn on c7"


@pytest.mark.parametrize(
    ("diagram", "move", "names", "expected"),
    [
        (boost(""), "h9h8", NAMES[:2], "h9 holds Bob's pawn, not yours"),
        (boost(""), "h9h8", None, "h9 holds Red's pawn, not yours"),
        (boost("", players=3), "a9", NAMES, "a9 holds carol's pawn: a single point builds"),
        (
            boost("d5:P1 e4:P1 f5:P1 e6:P2"),
            "e5",
            NAMES[:2],
            "all four neighbours must be your pieces, but e6 holds Bob's pawn",
        ),
    ],
)
def test_boost_errors_name_the_players(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert expected in refusal("boost", diagram, move, names)


# --- Boku ---------------------------------------------------------------------------------

# Dark to move: d3 captures b3 or c3; d7 is a plain placement.
K_POSITION = "1: A3 E1 E2 E3 E4 E8 J10\n2: A1 B3 C3 E6 E7\nto move: 1"
K_LIGHT = "1: A1 B3 C3 E6 E7\n2: A3 E1 E2 E3 E4 E8 J10\nto move: 2"


@pytest.mark.parametrize(
    ("diagram", "move", "names", "expected"),
    [
        (K_POSITION, "d7", NAMES[:2], "d7"),
        (K_POSITION, "d3xb3", NAMES[:2], "d3xb3, taking Bob's marble on b3"),
        (K_POSITION, "D3 x C3", NAMES[:2], "d3xc3, taking Bob's marble on c3"),
        (K_POSITION, "d3xb3", None, "d3xb3, taking Light's marble on b3"),
        (K_LIGHT, "d3xc3", NAMES[:2], "d3xc3, taking ivy's marble on c3"),
    ],
)
def test_boku_moves_in_words(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert described("boku", diagram, move, names) == expected


@pytest.mark.parametrize(
    ("move", "names", "expected"),
    [
        ("a1", NAMES[:2], "a1 already holds Bob's marble; pick an empty cell"),
        ("a1", None, "a1 already holds Light's marble; pick an empty cell"),
        ("d3", NAMES[:2], "d3 encloses Bob's marbles, so you must also remove one of them"),
        ("d7xe7", NAMES[:2], "d7 encloses no pair of Bob's marbles, so nothing can be removed"),
    ],
)
def test_boku_errors_name_the_players(
    move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert expected in refusal("boku", K_POSITION, move, names)


# --- Razzle Dazzle ------------------------------------------------------------------------

R_START = get_game("razzle").format_diagram(get_game("razzle").new())
# c6-e7 lands next to Bob's ball on d8.
R_NEAR_BALL = """
8  . o o O o o .
7  . . . . . . .
6  . . x . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . . . . . .
1  . x . X x x .
"""
# The same, but Bob has no piece to throw to: the landing forces nothing.
R_NO_THROW = R_NEAR_BALL + "ineligible: c8 e8\n"
R_GOAL = """
8  x . o O o . .
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  X . . . . . .
3  . . . . . . .
2  . . . . . . .
1  . x . . x . .
"""

# d1 throws to e1, e1 up the file to e5, e5 along the diagonal to c3.
R_THREE = """
8  . o o O o o .
7  . . . . . . .
6  . . . . . . .
5  . . . . x . .
4  . . . . . . .
3  . . x . . . .
2  . . . . . . .
1  . . . X x . .
"""

RAZZLE = [
    (R_START, "b1-c3", NAMES[:2], "b1-c3"),
    (R_START, "d1-e1", NAMES[:2], "d1-e1, throwing the ball to e1"),
    (R_START, "d1-c1-b1", NAMES[:2], "d1-c1-b1, throwing the ball to c1 and then b1"),
    (
        R_NEAR_BALL,
        "c6-e7",
        NAMES[:2],
        "c6-e7, landing next to Bob's ball, so they must throw",
    ),
    (
        R_NEAR_BALL,
        "c6-e7",
        None,
        "c6-e7, landing next to Black's ball, so they must throw",
    ),
    (R_NO_THROW, "c6-e7", NAMES[:2], "c6-e7, landing next to Bob's ball"),
    (R_NEAR_BALL, "c6-b4", NAMES[:2], "c6-b4"),
    (R_THREE, "d1-e1-e5-c3", NAMES[:2], "d1-e1-e5-c3, throwing the ball to e1, e5 and then c3"),
    (R_GOAL, "a4-a8", NAMES[:2], "a4-a8, throwing the ball to a8"),
]


@pytest.mark.parametrize(("diagram", "move", "names", "expected"), RAZZLE)
def test_razzle_moves_in_words(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert described("razzle", diagram, move, names) == expected


@pytest.mark.parametrize(
    ("diagram", "move", "names", "expected"),
    [
        (R_START, "b8-c6", NAMES[:2], "the piece on b8 is Bob's, not yours"),
        (R_START, "d1-d8", NAMES[:2], "d8 holds Bob's piece: throw to your own pieces"),
        (R_START, "d1-d8", None, "d8 holds Black's piece: throw to your own pieces"),
        (
            R_GOAL,
            "a4-a8-c8",
            NAMES[:2],
            "the ball reached Bob's back row on a8 and won the game; the chain ends there",
        ),
        (
            R_NEAR_BALL.replace(". . x", ". . .").replace("7  . . . . . . .", "7  . . . . x . .")
            + "to move: 2\nlast move: c6-e7",
            "b8-a6",
            ("ivy", "Bob"),
            "this turn you must throw the ball, because ivy's last knight move landed next to "
            "it (for example d8-c8)",
        ),
    ],
)
def test_razzle_errors_name_the_players(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert expected in refusal("razzle", diagram, move, names)


def test_razzle_texts_keep_pass_for_a_skipped_turn_only() -> None:
    """The ball is thrown; 'pass' is only the move of a player with no legal turn."""
    game = get_game("razzle")
    texts = " ".join(say(t(f"help.razzle.{topic}")) for topic in game.help_topics).lower()
    assert "forced-throw" in game.help_topics and "throwing" in game.help_topics
    for word in ("a pass ", "passes", "passing", "passed", "pass the", "pass chain"):
        assert word not in texts, word
    assert "'pass' is only for a player who has no legal turn at all" in texts


# --- Kyo ----------------------------------------------------------------------------------


def kyo(pieces: str, to_move: str = "gold") -> str:
    """A 10x10 diagram from 'square:stack' pairs (stacks bottom to top); each side has its
    king on mana in a corner."""
    grid = [["."] * 10 for _ in range(10)]
    for item in ("a1:DK j10:dk " + pieces).split():
        square, stack = item.split(":")
        grid[10 - int(square[1:])][ord(square[0]) - ord("a")] = stack
    return "\n".join(" ".join(row) for row in grid) + f"\nto move: {to_move}"


K_START = get_game("kyo").format_diagram(get_game("kyo").new())

KYO = [
    (K_START, "a4-a5", NAMES[:2], "a4-a5, moving their light pawn"),
    (K_START, "a4-a5", None, "a4-a5, moving their light pawn"),
    (
        kyo("d4:DH e5:ddh"),
        "d4xe5",
        None,
        "d4xe5, striking Red's heavy pawn on e5 and destroying 2 mana chips",
    ),
    (
        kyo("d5:dh d4:DH", "red"),
        "d5xd4",
        NAMES[:2],
        "d5xd4, striking ivy's heavy pawn on d4 and destroying a mana chip",
    ),
    (
        kyo("d4:DH d5:D d6:h"),
        "d4:0-d5xd6",
        NAMES[:2],
        "d4:0-d5xd6, striking Bob's heavy pawn on d6",
    ),
    (kyo("d4:H d5:S"), "d4xd5", NAMES[:2], "d4xd5, striking a shield on d5"),
    (
        kyo("d4:H d5:dl"),
        "d4-d5",
        NAMES[:2],
        "d4-d5, moving their heavy pawn and destroying 2 mana chips",
    ),
    (K_START, "e2-e3+f4", None, "e2-e3+f4, moving their tower and deploying a shield to f4"),
    (K_START, "e2+d2+d3", NAMES[:2], "e2+d2+d3, deploying a shield to d2 and a shield to d3"),
    (
        K_START,
        "e2-d2+c2+c2",
        NAMES[:2],
        "e2-d2+c2+c2, moving their tower and deploying 2 shields to c2",
    ),
    (K_START, "b1>a1", NAMES[:2], "b1>a1, moving 2 dark mana chips and a light mana chip to a1"),
    (K_START, "e1:1>d1", NAMES[:2], "e1:1>d1, moving a shield to d1"),
    (
        K_START,
        "b1:2-b2:1-b3:0-a2",
        NAMES[:2],
        "b1:2-b2:1-b3:0-a2, moving their heavy pawn, and leaving 2 chips on b2 and b3",
    ),
    (
        kyo("e2:T f3:S"),
        "e2-f3:1+f4",
        NAMES[:2],
        "e2-f3:1+f4, moving their tower, picking up a chip on f3 and deploying a shield to f4",
    ),
    (K_START, "b1=LD", NAMES[:2], "b1=LD, shuffling the chips under their heavy pawn"),
    (K_START, "f1=LDS-g2", NAMES[:2], "f1=LDS-g2, moving their queen and shuffling its chips"),
    (
        kyo("d4:LDQ f6:h e5:D e6:L"),
        "d4:1-e5-e6=DL:1-e7:0xf6",
        NAMES[:2],
        "d4:1-e5-e6=DL:1-e7:0xf6, shuffling the chips under their queen, leaving 2 chips on e6 "
        "and e7, and striking Bob's heavy pawn on f6",
    ),
]


@pytest.mark.parametrize(("diagram", "move", "names", "expected"), KYO)
def test_kyo_moves_in_words(
    diagram: str, move: str, names: Sequence[str] | None, expected: str
) -> None:
    assert described("kyo", diagram, move, names) == expected
