"""Glicko-2 against Glickman's worked example, and the properties a rating system must have."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tessera.server.glicko2 import Rating, Result, expected_score, rate_game, update


def test_the_worked_example_of_the_paper() -> None:
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1.0),
        Result(Rating(1550, 100), 0.0),
        Result(Rating(1700, 300), 0.0),
    ]
    after = update(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.deviation > 100


ratings = st.builds(
    Rating,
    st.floats(800, 2400),
    st.floats(40, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_raises_a_loss_lowers_and_a_tie_moves_toward_the_opponent(
    a: Rating, b: Rating
) -> None:
    won, lost = rate_game(a, b, 1.0)
    assert won.rating > a.rating and lost.rating < b.rating
    lost_a, won_b = rate_game(a, b, 0.0)
    assert lost_a.rating < a.rating and won_b.rating > b.rating
    tied, _ = rate_game(a, b, 0.5)
    if expected_score(a, b) > 0.5 + 1e-9:
        assert tied.rating < a.rating  # the favourite who only ties loses points
    elif expected_score(a, b) < 0.5 - 1e-9:
        assert tied.rating > a.rating
    for r in (won, lost_a, tied):
        # a game tells something: the deviation ends below its pre-period inflation
        assert 30 <= r.deviation <= max(30.0, (a.deviation**2 + (173.7178 * 0.1) ** 2) ** 0.5)


@given(ratings, ratings)
def test_an_upset_moves_ratings_more_than_an_expected_result(a: Rating, b: Rating) -> None:
    """Beating a stronger player gains more than beating a weaker one of the same deviation."""
    stronger = Rating(a.rating + 200, b.deviation, b.volatility)
    weaker = Rating(a.rating - 200, b.deviation, b.volatility)
    up, _ = rate_game(a, stronger, 1.0)
    down, _ = rate_game(a, weaker, 1.0)
    assert up.rating - a.rating > down.rating - a.rating > 0
