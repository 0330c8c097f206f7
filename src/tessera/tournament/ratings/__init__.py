"""Federation ratings for tournament play: NASPA's rating system (the NSA's Elo-style system,
inherited by NASPA in 2009), pure functions of an event's results.

- :mod:`.naspa`: the formulas, one named function each (expected wins, multiplier, base points
  with boundary proration, acceleration and feedback points, rating segments, rounding), with
  the sources and every choice the sources leave open;
- :mod:`.newcomers`: unrated players' initial ratings from their performance;
- :mod:`.event`: :func:`rate_event`, every player's new rating and games after one event;
- :mod:`.ratings_list`: :class:`RatingsList` and :func:`rate_events`, across events by date;
- :mod:`.inputs`: the small input types the division model converts its results to.

Online play keeps its Glicko-2 ratings; these are for rated tournaments.
"""

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
from .ratings_list import RatingsList, rate_events

__all__ = [
    "Bye",
    "Game",
    "PlayerKey",
    "PlayerRating",
    "RatedEvent",
    "RatingChange",
    "RatingInputError",
    "RatingsList",
    "SegmentRating",
    "acceleration_points",
    "base_change",
    "expected_wins",
    "feedback_points",
    "initial_ratings",
    "multiplier",
    "performance_rating",
    "rate_event",
    "rate_events",
    "rating_difference_for_expectation",
    "rating_segments",
    "round_rating",
]
