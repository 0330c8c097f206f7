"""Federation ratings for tournament play: NASPA's rating system (the NSA's Elo-style system,
inherited by NASPA in 2009) and the ABSP's weighted rolling system, pure functions of an
event's results.

- :mod:`.naspa`: the formulas, one named function each (expected wins, multiplier, base points
  with boundary proration, acceleration and feedback points, rating segments, rounding), with
  the sources and every choice the sources leave open;
- :mod:`.newcomers`: unrated players' initial ratings from their performance;
- :mod:`.event`: :func:`rate_event`, every player's new rating and games after one event;
- :mod:`.absp`: the ABSP's system (game and tournament rating points, the weighted rolling
  rating over the most recent 150 games, the 10-point rule) and :func:`rate_event_absp`;
- :mod:`.ratings_list`: :class:`RatingsList` and :func:`rate_events` (NASPA),
  :class:`AbspRatingsList` and :func:`rate_events_absp`, across events by date;
- :mod:`.inputs`: the small input types the division model converts its results to.

Online play keeps its Glicko-2 ratings; these are for rated tournaments.
"""

from .absp import (
    WEIGHTING_1999,
    WEIGHTING_2011,
    AbspRatingChange,
    AbspStanding,
    TournamentPerformance,
    Weighting,
    counted_opponent_rating,
    event_performances,
    game_rating_points,
    rate_event_absp,
    rolling_rating,
    rolling_value,
    round_half_up,
    ten_point_rule_resets,
    tournament_performance,
)
from .event import RatingChange, SegmentRating, rate_event
from .inputs import (
    Bye,
    Game,
    PlayerKey,
    PlayerRating,
    RatedEvent,
    RatingInputError,
)
from .naspa import (
    acceleration_points,
    base_change,
    expected_wins,
    feedback_points,
    multiplier,
    rating_difference_for_expectation,
    rating_segments,
    round_rating,
)
from .newcomers import initial_ratings, performance_rating
from .ratings_list import AbspRatingsList, RatingsList, rate_events, rate_events_absp

__all__ = [
    "WEIGHTING_1999",
    "WEIGHTING_2011",
    "AbspRatingChange",
    "AbspRatingsList",
    "AbspStanding",
    "Bye",
    "Game",
    "PlayerKey",
    "PlayerRating",
    "RatedEvent",
    "RatingChange",
    "RatingInputError",
    "RatingsList",
    "SegmentRating",
    "TournamentPerformance",
    "Weighting",
    "acceleration_points",
    "base_change",
    "counted_opponent_rating",
    "event_performances",
    "expected_wins",
    "feedback_points",
    "game_rating_points",
    "initial_ratings",
    "multiplier",
    "performance_rating",
    "rate_event",
    "rate_event_absp",
    "rate_events",
    "rate_events_absp",
    "rating_difference_for_expectation",
    "rating_segments",
    "rolling_rating",
    "rolling_value",
    "round_half_up",
    "round_rating",
    "ten_point_rule_resets",
    "tournament_performance",
]
