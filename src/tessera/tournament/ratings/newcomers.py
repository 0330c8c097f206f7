"""Newcomers' initial ratings: the rating a newcomer would have needed for their result at
their first event to leave it unchanged (their performance rating), bounded.

Source: NASPAWiki "Initial rating" (http://www.scrabbleplayers.org/w/Initial_rating, sections
"Summary" and "Pseudocode"), with the reference implementation it describes (tsh's
``Ratings::Elo``) for the numbers the summary leaves out:

- a newcomer's earned wins are their wins in rated games (byes and forfeits left out); no
  wins counts as 5% of their games and all wins as 95%, so that a rating exists;
- the performance rating is the whole rating, searched from 0 to 3000, at which the expected
  wins against the opponents reach those wins (:func:`performance_rating`);
- it is raised to 500 if lower, and lowered to the strongest rated opponent's rating plus 400
  times the newcomer's winning fraction if higher (with no rated opponent, the strongest
  newcomer opponent's current rating stands in);
- with several newcomers, each starts at the mean of their rated opponents' ratings (1500 if
  none), and all are recomputed together, each against the others' last ratings, until none
  changes; if that takes more than 50 rounds, the next 50 are averaged.

The search's exact stopping point is not published (the reference returns the last midpoint
of its bisection); here it is the smallest whole rating whose expectation reaches the wins,
which can differ from it by one point.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .inputs import PlayerKey
from .naspa import expected_wins

SEARCH_LOW = 0
SEARCH_HIGH = 3000
NEWCOMER_FLOOR = 500
CAP_POINTS_PER_WIN_FRACTION = 400
NO_OPPONENT_RATING = 1500.0
ALL_OR_NOTHING_SHARE = 0.05  # no wins count as 5% of the games, all wins as 95%
MAX_ITERATIONS = 50


@dataclass(frozen=True)
class NewcomerResult:
    """A newcomer's rated games in a segment: ``wins`` earned and one opponent key per game
    (an opponent met twice is listed twice)."""

    wins: float
    opponents: tuple[PlayerKey, ...]


def adjusted_wins(wins: float, games: int) -> float:
    """The wins a performance rating is searched for: all-or-nothing records become 95% or
    5% of the games, so that a finite rating exists."""
    if wins <= 0:
        return games * ALL_OR_NOTHING_SHARE
    if wins >= games:
        return games * (1.0 - ALL_OR_NOTHING_SHARE)
    return wins


def performance_rating(wins: float, opponent_ratings: Sequence[float]) -> int:
    """The smallest whole rating from 0 to 3000 at which the expected wins against
    ``opponent_ratings`` reach ``wins`` (3000 if none does)."""
    target = adjusted_wins(wins, len(opponent_ratings))

    def reaches(rating: int) -> bool:
        return math.fsum(expected_wins(rating, o) for o in opponent_ratings) >= target

    low, high = SEARCH_LOW, SEARCH_HIGH
    if reaches(low):
        return low
    while high - low > 1:  # invariant: not reaches(low); reaches(high) or high is the top
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle
    return high


def bounded_initial_rating(
    performance: float, wins: float, games: int, strongest_opponent: float | None
) -> float:
    """A performance rating held within the newcomer bounds: at least 500, at most the
    strongest opponent's rating plus 400 times the winning fraction."""
    rating = max(performance, NEWCOMER_FLOOR)
    if strongest_opponent:
        cap = strongest_opponent + CAP_POINTS_PER_WIN_FRACTION * wins / games
        rating = min(rating, cap)
    return rating


def initial_ratings(
    newcomers: Mapping[PlayerKey, NewcomerResult], rated: Mapping[PlayerKey, int]
) -> dict[PlayerKey, float]:
    """Every newcomer's initial rating (unrounded) from their results in one segment.

    ``rated`` holds the segment-initial rating of every rated player; each opponent of a
    newcomer is either in it or is another newcomer. Newcomers are recomputed together (each
    against the others' previous values), so the order they are given in does not matter.
    """
    current = {key: _starting_rating(result, rated) for key, result in newcomers.items()}
    for _ in range(MAX_ITERATIONS):
        following = _iterate(newcomers, rated, current)
        if following == current:
            return current
        current = following
    totals = dict.fromkeys(newcomers, 0.0)
    for _ in range(MAX_ITERATIONS):
        current = _iterate(newcomers, rated, current)
        for key, rating in current.items():
            totals[key] += rating
    return {key: total / MAX_ITERATIONS for key, total in totals.items()}


def _starting_rating(result: NewcomerResult, rated: Mapping[PlayerKey, int]) -> float:
    ratings = [rated[o] for o in result.opponents if o in rated]
    return math.fsum(ratings) / len(ratings) if ratings else NO_OPPONENT_RATING


def _iterate(
    newcomers: Mapping[PlayerKey, NewcomerResult],
    rated: Mapping[PlayerKey, int],
    current: Mapping[PlayerKey, float],
) -> dict[PlayerKey, float]:
    following = {}
    for key, result in newcomers.items():
        opponent_ratings = [rated[o] if o in rated else current[o] for o in result.opponents]
        strongest_rated = max((rated[o] for o in result.opponents if o in rated), default=0)
        strongest = strongest_rated or max(
            (current[o] for o in result.opponents if o not in rated), default=0.0
        )
        performance = performance_rating(result.wins, opponent_ratings)
        following[key] = bounded_initial_rating(
            performance, result.wins, len(result.opponents), strongest
        )
    return following
