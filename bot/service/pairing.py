"""Tournament pairing and standings: who meets whom each round, and who leads. Pure, no I/O.

Players are plain ids given in seed order (the order they entered); results are the only
history. The bot stores results and asks again, so a restart or a second process computes
the same round. Round robin follows the circle (Berger) tables. Swiss pairs score groups from
the top with a search that backtracks, so a round is found whenever one exists; docs/commands.md
describes the method for players. We wrote the Swiss search ourselves after trying the
maintained Python packages (docs/tournaments.md says what they did and why we chose this).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

WIN = 1.0
DRAW = 0.5
LOSS = 0.0
BYE_POINTS = WIN
"""A bye is worth a win, as the issue asks and as most Swiss events count it."""

FIRST = 1
SECOND = 2
"""The two sides of a board: seat 1 moves first."""


class System(StrEnum):
    """How a tournament pairs its rounds."""

    ROUND_ROBIN = "round-robin"
    """Everyone meets everyone (twice, sides swapped, when double)."""
    SWISS = "swiss"
    """A fixed number of rounds; players meet others on the same score."""


class NoPairing(ValueError):
    """No round can be paired without a rematch: the field has run out of new opponents."""


@dataclass(frozen=True)
class Pairing:
    """One board: `first` takes seat 1; `second` None means `first` has the bye."""

    first: int
    second: int | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Result:
    """A finished board of round `round`: the points `first` scored (a bye counts as a win)."""

    round: int
    pairing: Pairing
    points: float

    def __post_init__(self) -> None:
        if self.points not in (WIN, DRAW, LOSS):
            raise ValueError(f"a board scores 1, 0.5 or 0, not {self.points}")
        if self.pairing.bye and self.points != BYE_POINTS:
            raise ValueError("a bye is worth a win")

    def points_of(self, player: int) -> float:
        """The points `player` took from this board."""
        return self.points if player == self.pairing.first else WIN - self.points

    def opponent(self, player: int) -> int | None:
        """Who `player` met here; None for a bye."""
        first, second = self.pairing.first, self.pairing.second
        return second if player == first else first


@dataclass(frozen=True)
class Standing:
    """One line of the table. `games` counts boards played, byes apart; `tiebreaks` follow
    `TIEBREAKS[system]`."""

    player: int
    rank: int
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreaks: tuple[float, ...]


TIEBREAKS: Mapping[System, tuple[str, ...]] = {
    System.SWISS: ("Buchholz", "Sonneborn-Berger", "head-to-head"),
    System.ROUND_ROBIN: ("Sonneborn-Berger", "head-to-head"),
}
"""The tie-breaks each system shows, in the order they separate players."""


def swiss_rounds(entrants: int) -> int:
    """The default length of a Swiss event: enough rounds to separate a winner, at least 3."""
    return max(3, math.ceil(math.log2(max(entrants, 2))))


def most_rounds(system: System, entrants: int, *, double: bool = False) -> int:
    """The most rounds a field can play without a rematch: a round robin's length."""
    single = entrants if entrants % 2 else entrants - 1
    return single * 2 if system is System.ROUND_ROBIN and double else single


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """Every round of a round robin over `players` (seed order) by the Berger tables.

    The last seat of the circle stays put (with an odd count it is empty: meeting it is the
    bye) and the others turn half a circle each round, so every player alternates sides and
    ends with as many firsts as seconds, give or take one. A double round robin plays the
    same rounds again with the sides swapped."""
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    size = len(seats)
    fixed, circle = seats[-1], seats[:-1]
    rounds: list[list[Pairing]] = []
    for number in range(size - 1):
        turn = number * size // 2 % (size - 1)
        order = circle[turn:] + circle[:turn]
        boards = [(fixed, order[0]) if number % 2 else (order[0], fixed)]
        boards += [(order[i], order[size - 1 - i]) for i in range(1, size // 2)]
        rounds.append([_board(first, second) for first, second in boards])
    if double:
        rounds += [[_swapped(pairing) for pairing in played] for played in rounds]
    return rounds


def _board(first: int | None, second: int | None) -> Pairing:
    """A board of the tables; the empty seat makes its partner's bye."""
    if first is None:
        assert second is not None
        return Pairing(second)
    return Pairing(first, second)


def _swapped(pairing: Pairing) -> Pairing:
    if pairing.second is None:
        return pairing
    return Pairing(pairing.second, pairing.first)


def points(history: Iterable[Result]) -> dict[int, float]:
    """Each player's score so far (players without a result are absent)."""
    totals: dict[int, float] = {}
    for result in history:
        for player in result.pairing.players:
            totals[player] = totals.get(player, 0.0) + result.points_of(player)
    return totals


Game = tuple[int, float]
"""A board a player actually played, from their side: (opponent, points taken)."""


def played(history: Iterable[Result]) -> dict[int, list[Game]]:
    """Each player's games in the order given; byes are not games."""
    games: dict[int, list[Game]] = {}
    for result in history:
        first, second = result.pairing.first, result.pairing.second
        if second is not None:
            games.setdefault(first, []).append((second, result.points))
            games.setdefault(second, []).append((first, WIN - result.points))
    return games


def buchholz(games: Iterable[Game], scores: Mapping[int, float]) -> float:
    """The sum of the scores of the opponents met (a bye brings nothing)."""
    return sum((scores.get(opponent, 0.0) for opponent, _ in games), 0.0)


def sonneborn_berger(games: Iterable[Game], scores: Mapping[int, float]) -> float:
    """The scores of the opponents beaten, plus half of those drawn with."""
    return sum((scores.get(opponent, 0.0) * taken for opponent, taken in games), 0.0)


def head_to_head(games: Iterable[Game], others: Iterable[int]) -> float:
    """The points taken from games against `others` (the players level with this one)."""
    group = set(others)
    return sum((taken for opponent, taken in games if opponent in group), 0.0)


SCORED_TIEBREAKS: Mapping[
    System, tuple[Callable[[Iterable[Game], Mapping[int, float]], float], ...]
]
SCORED_TIEBREAKS = {
    System.SWISS: (buchholz, sonneborn_berger),
    System.ROUND_ROBIN: (sonneborn_berger,),
}
"""The tie-breaks of TIEBREAKS computed from scores; head-to-head, always last, from the
group still level."""


def standings(players: Sequence[int], history: Sequence[Result], system: System) -> list[Standing]:
    """The table: points, then the system's tie-breaks in order (head-to-head last), then seed
    order. Players level on everything share a rank."""
    scores = points(history)
    games = played(history)
    byes = Counter(r.pairing.first for r in history if r.pairing.bye)
    seed = {player: index for index, player in enumerate(players)}
    breaks = SCORED_TIEBREAKS[system]
    values = {p: tuple(each(games.get(p, []), scores) for each in breaks) for p in players}
    level: dict[tuple[float, ...], list[int]] = {}
    for p in players:
        level.setdefault((scores.get(p, 0.0), *values[p]), []).append(p)
    direct: dict[int, float] = {}
    place: dict[int, int] = {}
    for group in level.values():
        for index, part in enumerate(_direct_order(group, games)):
            for p in part:
                direct[p] = head_to_head(games.get(p, []), group)
                place[p] = index

    def key(player: int) -> tuple[float, ...]:
        return (-scores.get(player, 0.0), *(-v for v in values[player]), place[player])

    table: list[Standing] = []
    ordered = sorted(players, key=lambda p: (key(p), seed[p]))
    for index, player in enumerate(ordered):
        rank = table[-1].rank if table and key(table[-1].player) == key(player) else index + 1
        taken = [t for _, t in games.get(player, [])]
        table.append(
            Standing(
                player=player,
                rank=rank,
                points=scores.get(player, 0.0),
                games=len(taken),
                wins=taken.count(WIN),
                draws=taken.count(DRAW),
                losses=taken.count(LOSS),
                byes=byes[player],
                tiebreaks=(*values[player], direct[player]),
            )
        )
    return table


def _direct_order(group: list[int], games: Mapping[int, list[Game]]) -> list[list[int]]:
    """Players level on points and tie-breaks, split by the points they took from each other,
    best first; a part still level is split again among itself. As in FIDE's rules, only a
    group whose players have all met each other is split (a win over one of them says
    nothing of a third never met)."""
    met = {p: {opponent for opponent, _ in games.get(p, [])} for p in group}
    if len(group) < 2 or any(q not in met[p] for p in group for q in group if p != q):
        return [group]
    taken = {p: head_to_head(games.get(p, []), group) for p in group}
    ranks = sorted(set(taken.values()), reverse=True)
    parts = [[p for p in group if taken[p] == value] for value in ranks]
    if len(parts) == 1:
        return parts
    return [smaller for part in parts for smaller in _direct_order(part, games)]


@dataclass(frozen=True)
class _Sides:
    """The sides one player has had, oldest first, and what they call for next."""

    seats: tuple[int, ...]

    @property
    def balance(self) -> int:
        """Firsts minus seconds."""
        return self.seats.count(FIRST) - self.seats.count(SECOND)

    @property
    def forced(self) -> int | None:
        """The side this player must have: the other one after two alike, or the scarcer one
        two games behind."""
        if len(self.seats) >= 2 and self.seats[-1] == self.seats[-2]:
            return _other(self.seats[-1])
        if abs(self.balance) >= 2:
            return SECOND if self.balance > 0 else FIRST
        return None

    @property
    def wish(self) -> int | None:
        """The side this player would rather have: the scarcer one, else a change of side."""
        if self.forced is not None:
            return self.forced
        if self.balance:
            return SECOND if self.balance > 0 else FIRST
        return _other(self.seats[-1]) if self.seats else None


def _other(side: int) -> int:
    return SECOND if side == FIRST else FIRST


def pair_swiss(players: Sequence[int], history: Sequence[Result]) -> list[Pairing]:
    """The next Swiss round for `players` (seed order; withdrawn players left out).

    Players are ranked by points, then seed. With an odd count the bye goes to the
    lowest-ranked player who has had the fewest byes and whose absence lets the rest be
    paired. Then, from the top, each player meets the best partner left for whom the rest can
    still be paired: never someone met before; on the same score if possible, else the
    nearest; someone wanting the other side; and, within a score group, the one half a group
    below (the top half meets the bottom half). Nobody gets the same side three times running,
    nor two games more of one side than the other, unless no round exists otherwise.
    Raises NoPairing when every way of pairing the round repeats a game."""
    scores = points(history)
    seed = {player: index for index, player in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-scores.get(p, 0.0), seed[p]))
    met = {frozenset(r.pairing.players) for r in history if not r.pairing.bye}
    sides = _sides_of(ranked, history)
    byes = {p: sum(1 for r in history if r.pairing.first == p and r.pairing.bye) for p in players}
    lowest_first: list[int] = sorted(reversed(ranked), key=lambda p: byes[p])
    resting: Sequence[int | None] = lowest_first if len(ranked) % 2 else [None]
    for bye in resting:
        playing = [p for p in ranked if p != bye]
        for strict in (True, False):
            found = _search(playing, scores, sides, met, strict)
            if found is not None:
                boards = [_seated(a, b, sides, board) for board, (a, b) in enumerate(found)]
                return boards + ([] if bye is None else [Pairing(bye)])
    raise NoPairing("every way of pairing this round repeats a game")


def _sides_of(players: Iterable[int], history: Sequence[Result]) -> dict[int, _Sides]:
    seats: dict[int, list[int]] = {p: [] for p in players}
    for result in sorted(history, key=lambda r: r.round):
        pairing = result.pairing
        if pairing.second is None:
            continue
        if pairing.first in seats:
            seats[pairing.first].append(FIRST)
        if pairing.second in seats:
            seats[pairing.second].append(SECOND)
    return {p: _Sides(tuple(s)) for p, s in seats.items()}


def _search(
    ranked: list[int],
    scores: Mapping[int, float],
    sides: Mapping[int, _Sides],
    met: set[frozenset[int]],
    strict: bool,
) -> list[tuple[int, int]] | None:
    """Pairs for `ranked` (best first), or None. Depth-first from the top, trying each
    player's partners best first; a set of players once found unpairable is remembered, so
    the search visits each set at most once."""
    dead: set[frozenset[int]] = set()

    def allowed(a: int, b: int) -> bool:
        if frozenset((a, b)) in met:
            return False
        if strict:
            forced = sides[a].forced
            return forced is None or forced != sides[b].forced
        return True

    def search(left: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not left:
            return []
        key = frozenset(left)
        if key in dead:
            return None
        top, rest = left[0], left[1:]
        for partner in _preferred(top, rest, scores, sides, allowed):
            found = search(tuple(p for p in rest if p != partner))
            if found is not None:
                return [(top, partner), *found]
        dead.add(key)
        return None

    return search(tuple(ranked))


def _preferred(
    top: int,
    rest: tuple[int, ...],
    scores: Mapping[int, float],
    sides: Mapping[int, _Sides],
    allowed: Callable[[int, int], bool],
) -> list[int]:
    """The partners `top` may meet, best first: nearest score, then a wish for the other
    side, then closeness to half a score group down (the group `top` would join)."""
    groups: dict[float, list[int]] = {}
    for player in rest:
        groups.setdefault(scores.get(player, 0.0), []).append(player)
    wish = sides[top].wish

    def rank(partner: int) -> tuple[float, bool, int, int]:
        group = groups[scores.get(partner, 0.0)]
        place = group.index(partner)
        half = (len(group) + 1) // 2 - 1
        clash = wish is not None and sides[partner].wish == wish
        return (
            abs(scores.get(top, 0.0) - scores.get(partner, 0.0)),
            clash,
            abs(place - half),
            place,
        )

    return sorted((p for p in rest if allowed(top, p)), key=rank)


def _seated(a: int, b: int, sides: Mapping[int, _Sides], board: int) -> Pairing:
    """Seat a board whose higher-ranked player is `a`: each gets the side they wish for when
    the wishes differ; when they agree, the stronger claim (forced, then further behind,
    then higher ranked) wins; with no wishes the sides alternate down the boards."""
    wish_a, wish_b = sides[a].wish, sides[b].wish
    if wish_a is not None and wish_a != wish_b:
        side_a = wish_a
    elif wish_b is not None and wish_b != wish_a:
        side_a = _other(wish_b)
    elif wish_a is not None:
        claim_a = (sides[a].forced is not None, abs(sides[a].balance))
        claim_b = (sides[b].forced is not None, abs(sides[b].balance))
        side_a = wish_a if claim_a >= claim_b else _other(wish_a)
    else:
        side_a = FIRST if board % 2 == 0 else SECOND
    return Pairing(a, b) if side_a == FIRST else Pairing(b, a)
