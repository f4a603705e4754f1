"""Ratings: what a finished match does to its players' standings. Pure functions, no I/O.

openskill's Plackett-Luce model rates 2 to 4 players and draws alike (Elo and Glicko rate
pairs). A rating is a belief (mu, sigma); players see one conservative number, the ordinal
mu - 3 sigma, which starts at 0 and rises as the bot grows sure a player is strong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from openskill.models import PlackettLuce

from bot.store import RatingRow
from bot.texts import say, t
from rules import Outcome

MODEL = PlackettLuce()


def newcomer(game: str, user_id: int) -> RatingRow:
    """The standing of a player's first rated match in a game: the model's prior, no games."""
    return RatingRow(game, user_id, MODEL.mu, MODEL.sigma)


def ranks(outcome: Outcome, seats: int) -> list[int]:
    """Each seat's place (1 = best): the winners share first place, everyone else second; a
    draw puts every seat first."""
    return [1 if seat in outcome.winners or outcome.is_draw else 2 for seat in range(1, seats + 1)]


def after_match(
    game: str, user_ids: Sequence[int], outcome: Outcome, current: Mapping[int, RatingRow]
) -> list[RatingRow]:
    """The standings of the players seated in order `user_ids` once `outcome` is counted;
    players absent from `current` start as newcomers."""
    before = [current.get(user, newcomer(game, user)) for user in user_ids]
    places = ranks(outcome, len(user_ids))
    teams = [[MODEL.create_rating([standing.mu, standing.sigma])] for standing in before]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        _counted(standing, team[0].mu, team[0].sigma, place, outcome.is_draw)
        for standing, team, place in zip(before, rated, places, strict=True)
    ]


def _counted(standing: RatingRow, mu: float, sigma: float, place: int, draw: bool) -> RatingRow:
    """The standing with its new rating, one more game, and the streak carried on or reset."""
    won = place == 1 and not draw
    lost = place > 1
    if won:
        streak = max(standing.streak, 0) + 1
    elif lost:
        streak = min(standing.streak, 0) - 1
    else:
        streak = 0
    return replace(
        standing,
        mu=mu,
        sigma=sigma,
        games=standing.games + 1,
        wins=standing.wins + won,
        draws=standing.draws + draw,
        losses=standing.losses + lost,
        streak=streak,
    )


def shown(standing: RatingRow) -> str:
    """The one number a player sees: the ordinal, to one decimal."""
    return f"{standing.ordinal:.1f}"


def record(standing: RatingRow) -> str:
    """`3W 1D 2L`."""
    return say(
        t("service.rating.record", wins=standing.wins, draws=standing.draws, losses=standing.losses)
    )


def streak(standing: RatingRow) -> str:
    """`3 wins in a row`, `1 loss`, or `none`."""
    count = abs(standing.streak)
    if standing.streak > 0:
        return say(t("service.rating.wins", count=count))
    if standing.streak < 0:
        return say(t("service.rating.losses", count=count))
    return say(t("service.rating.no_streak"))
