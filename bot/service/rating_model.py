"""Ratings: what a finished match does to its players' standings. Pure functions, no I/O.

openskill's Plackett-Luce model rates 2 to 4 players and draws alike (Elo and Glicko rate
pairs). A rating is a belief (mu, sigma), stored as openskill keeps it; players see one number
on the scale chess players know, converted here and nowhere else (docs/ratings.md):

    points = 1500 + (mu - 25) * SCALE,  SCALE = 200 / beta = 48

A newcomer (mu 25) shows 1500. openskill predicts a win between two players as
Phi(d / sqrt(2 beta^2 + sigma1^2 + sigma2^2)) for a difference d in mu (`predict_win`): with
settled ratings a difference of beta gives Phi(1 / sqrt 2) = 76%, exactly what Elo gives
200 points (1 / (1 + 10^-0.5)). So beta is 200 points: a clear class, as in chess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from bot.store import RatingChange, RatingRow
from bot.texts import say, t
from bot.texts.numbers import Number
from rules import Outcome

MODEL = PlackettLuce()

NEWCOMER_POINTS = 1500
SCALE = 200 / MODEL.beta
"""Points per unit of mu: openskill's beta (a 76% favourite) is Elo's 200 points."""

PROVISIONAL_GAMES = 5
"""A rating is shown with `?` until this many rated games in its game and server: FIDE
publishes a first rating after five games, and openskill's first results move mu the most."""


@dataclass(frozen=True)
class Shown:
    """A rating as a player reads it: points on the familiar scale, `?` while provisional."""

    points: int
    provisional: bool


@dataclass(frozen=True)
class ShownChange:
    """What one rated match did to one player's shown rating."""

    user_id: int
    after: Shown
    change: int


def points(mu: float) -> int:
    """The one conversion from openskill's mu to the familiar scale."""
    return round(NEWCOMER_POINTS + (mu - MODEL.mu) * SCALE)


def rating(standing: RatingRow) -> Shown:
    return Shown(points(standing.mu), standing.games < PROVISIONAL_GAMES)


def changed(change: RatingChange) -> ShownChange:
    """A stored change as shown: the new rating, and its difference from the one shown before
    (a newcomer's before is the model's prior)."""
    before = MODEL.mu if change.mu_before is None else change.mu_before
    after = Shown(points(change.mu), change.games < PROVISIONAL_GAMES)
    return ShownChange(change.user_id, after, after.points - points(before))


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


def shown(standing: RatingRow | Shown, locale: str | None = None) -> str:
    """The one number a player sees: `1,523`, or `1,523?` while provisional (`1.523` in
    German)."""
    seen = standing if isinstance(standing, Shown) else rating(standing)
    if seen.provisional:
        return say(t("lifecycle.rating.provisional", points=Number(seen.points)), locale)
    return say(t("lifecycle.rating.points", points=Number(seen.points)), locale)


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
