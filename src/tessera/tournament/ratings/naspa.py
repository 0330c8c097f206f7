"""NASPA's rating formulas, one small named function each.

The system is the NSA's Elo-style system as NASPA inherited it in 2009 (the NWL ratings of
open rated tournaments). Sources, read for the facts only:

- the NSA's "How the NSA Rating System Works" (http://www.scrabble-assoc.com/ratings/how.html,
  section "How Your Rating Changes"): the expectation ``1 - 1/(1+exp(0.0031879*delta))`` and
  the multiplier table by pre-tournament rating and games played;
- Marc Levesque's "Ratings Calculation" (http://www.calgary374.org/CalculateRatingPage.php,
  also at wordgameplayers.org): a rating change has three parts (base points, acceleration
  points, feedback points), base points are prorated when the rating crosses a multiplier
  boundary, and tournaments are rated in segments of at most 16 rounds;
- NASPAWiki "Initial rating" (http://www.scrabbleplayers.org/w/Initial_rating): newcomers'
  ratings (see :mod:`.newcomers`);
- where those pages stop short of a number, the reference implementation they name, the Perl
  module ``Ratings::Elo`` of John Chew's tsh (its ``nsa2008`` settings): the acceleration
  threshold of 5 points a game, feedback of 1/20 of an opponent's acceleration per game, the
  proration boundaries, the rating floor of 1 and the rounding.

What no description fixes, and the choice made here: Levesque computes to 8 decimal places
and notes that NASPA's own precision and rounding are unknown; here every intermediate value
keeps full float precision and only a segment's final rating is rounded, half up
(:func:`round_rating`), as the reference implementation does.
"""

from __future__ import annotations

import math

LOGISTIC_SCALE = 0.0031879
"""The expectation's scale: a 127-point lead expects 0.6 wins a game, 689 points 0.9."""

VETERAN_GAMES = 50
"""From this many career games on, a player's multiplier drops to the lower column."""

MULTIPLIER_BANDS: tuple[tuple[float, int, int], ...] = (
    (1800, 30, 20),  # below 1800: fewer than 50 games, 50 or more
    (2000, 24, 16),  # 1800 to 1999
    (math.inf, 15, 10),  # 2000 and up
)
"""The multiplier table: (ratings below, multiplier under 50 games, from 50 games)."""

MAX_MULTIPLIER = max(newer for _, newer, _ in MULTIPLIER_BANDS)

ACCELERATION_POINTS_PER_GAME = 5
"""Base points above this many per rated game are doubled by acceleration points."""

FEEDBACK_DIVISOR = 20
"""Each game against an accelerated player earns 1/20 of that player's acceleration."""

SEGMENT_ROUNDS = 16
"""A tournament is rated in segments of at most this many rounds."""

RATING_FLOOR = 1
"""A rated player's rating never falls below this (before feedback is added)."""


def expected_wins(rating: float, opponent: float) -> float:
    """The wins a player rated ``rating`` is expected to score in one game against a player
    rated ``opponent``: ``1 - 1/(1 + exp(0.0031879 * (rating - opponent)))``.

    >>> round(expected_wins(1800, 1700), 5)
    0.57903
    """
    return 1.0 - 1.0 / (1.0 + math.exp(LOGISTIC_SCALE * (rating - opponent)))


def rating_difference_for_expectation(expectation: float) -> float:
    """The rating lead at which a player expects ``expectation`` wins a game (0 < it < 1):
    the inverse of :func:`expected_wins`.

    >>> round(rating_difference_for_expectation(0.6))
    127
    """
    if not 0.0 < expectation < 1.0:
        raise ValueError(f"an expectation must lie strictly between 0 and 1, not {expectation}")
    return math.log(expectation / (1.0 - expectation)) / LOGISTIC_SCALE


def multiplier(rating: float, games_played: int) -> int:
    """Rating points per excess win for a player rated ``rating`` with ``games_played``
    career games before the tournament: 30/24/15 below 50 games, 20/16/10 from 50, for
    ratings below 1800, 1800 to 1999 and 2000 up."""
    for below, newer, veteran in MULTIPLIER_BANDS:
        if rating < below:
            return newer if games_played < VETERAN_GAMES else veteran
    raise ValueError(f"rating {rating} is not a number")  # NaN compares false with every band


def _boundary_crossed(rating: float, rising: bool) -> float:
    """Where a rating leaves its multiplier band: rising, at the next band's floor (1800 or
    2000); falling, one point below the band's floor (1999 or 1799), as the reference
    implementation prorates (the point from 1800 to 1799 still costs the higher band's
    multiplier)."""
    if rising:
        return 1800.0 if rating < 1800 else 2000.0
    return 1999.0 if rating >= 2000 else 1799.0


def base_change(rating: float, excess: float, games_played: int) -> float:
    """Base rating points for ``excess`` wins above expectation (negative below it), prorated
    across multiplier boundaries: each stretch of the change is charged at the multiplier of
    the band it lies in, the excess used up stretch by stretch.

    >>> base_change(1700, 2.0, 100)  # 2 excess wins at 20 a win
    40.0
    >>> round(base_change(1790, 1.0, 10), 6)  # 10 points at 30 (1/3 win), 2/3 win at 24
    26.0
    """
    current = float(rating)
    remaining = excess
    while remaining:
        rate = multiplier(current, games_played)
        target = current + rate * remaining
        if multiplier(target, games_played) == rate:
            return target - rating
        boundary = _boundary_crossed(current, rising=remaining > 0)
        remaining -= (boundary - current) / rate
        current = boundary
    return current - rating


def acceleration_points(base: float, games: int) -> float:
    """Acceleration points for a segment: base points above 5 a rated game are earned again,
    so a fast-improving player's rating catches up sooner. Never negative.

    >>> acceleration_points(50.0, 6)
    20.0
    """
    return max(0.0, base - ACCELERATION_POINTS_PER_GAME * games)


def feedback_points(opponent_acceleration: float) -> float:
    """Feedback points for one game against an opponent who earned ``opponent_acceleration``
    acceleration points: an accelerated player was underrated, so their opponents' losses to
    them are partly given back.

    >>> feedback_points(30.0)
    1.5
    """
    return opponent_acceleration / FEEDBACK_DIVISOR


def round_rating(rating: float) -> int:
    """A segment's final rating as a whole number, halves rounded up."""
    return math.floor(rating + 0.5)


def rating_segments(rounds: int) -> tuple[range, ...]:
    """The rounds (numbered from 1) of each rating segment of a ``rounds``-round tournament:
    as few segments of at most 16 rounds as will do, as even as can be, the earlier ones a
    round longer when they cannot all be equal.

    This matches the reference implementation for every length up to 32 rounds and from 36
    to 48; for 33 to 35 rounds that implementation makes two segments of 17 or 18 rounds and
    beyond 48 never more than three, where the descriptions' limit of 16 rounds is kept here.

    >>> [len(s) for s in rating_segments(17)]
    [9, 8]
    """
    if rounds < 1:
        raise ValueError(f"a tournament has at least one round, not {rounds}")
    count = -(-rounds // SEGMENT_ROUNDS)
    short, longer = divmod(rounds, count)
    segments = []
    first = 1
    for index in range(count):
        length = short + (1 if index < longer else 0)
        segments.append(range(first, first + length))
        first += length
    return tuple(segments)
