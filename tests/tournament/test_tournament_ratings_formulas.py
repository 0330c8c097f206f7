"""NASPA's rating formulas (tessera.tournament.ratings.naspa and .newcomers): the published
examples to their printed precision, and each named function on hand-checked values."""

from __future__ import annotations

import math

import pytest

from tessera.tournament.ratings import (
    Game,
    PlayerRating,
    acceleration_points,
    base_change,
    expected_wins,
    feedback_points,
    initial_ratings,
    multiplier,
    performance_rating,
    rate_event,
    rating_difference_for_expectation,
    rating_segments,
    round_rating,
)
from tessera.tournament.ratings.newcomers import (
    NewcomerResult,
    adjusted_wins,
    bounded_initial_rating,
)


def test_published_example_1800_against_1700_expects_0_57903_wins() -> None:
    """http://www.scrabble-assoc.com/ratings/how.html, "How Your Rating Changes": "if you are
    rated 1800 and your opponent is rated 1700, delta=1800-1700=100, and you are expected to
    win 0.57903 games against this opponent"."""
    assert f"{expected_wins(1800, 1700):.5f}" == "0.57903"
    assert f"{expected_wins(1700, 1800):.5f}" == "0.42097"


@pytest.mark.parametrize(
    ("expectation", "difference"), [(0.6, 127), (0.7, 266), (0.8, 435), (0.9, 689)]
)
def test_published_differences_for_0_6_0_7_0_8_0_9_wins(
    expectation: float, difference: int
) -> None:
    """http://www.scrabble-assoc.com/ratings/how.html, "How Your Rating Changes": "Your
    expectation should be 0.6 wins at a difference of 127 ratings points, 0.7 at 266, 0.8 at
    435 and 0.9 at 689" (both ways round, to the printed precision)."""
    assert round(rating_difference_for_expectation(expectation)) == difference
    assert f"{expected_wins(1500 + difference, 1500):.1f}" == f"{expectation:.1f}"


def test_expected_wins_of_equal_players_is_a_half_and_two_sides_sum_to_one() -> None:
    assert expected_wins(1234, 1234) == 0.5
    assert expected_wins(1900, 1400) + expected_wins(1400, 1900) == pytest.approx(1.0)


def test_rating_difference_refuses_an_expectation_outside_0_to_1() -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        rating_difference_for_expectation(1.0)


@pytest.mark.parametrize(
    ("rating", "games", "expected"),
    [
        (1799, 49, 30),
        (1799, 50, 20),
        (1800, 49, 24),
        (1999, 50, 16),
        (2000, 0, 15),
        (2000, 50, 10),
        (600, 0, 30),
        (2300, 5000, 10),
    ],
)
def test_multiplier_table(rating: int, games: int, expected: int) -> None:
    """The table of http://www.scrabble-assoc.com/ratings/how.html: 30/24/15 for 1-49 games
    and 20/16/10 from 50, for ratings 1-1799, 1800-1999 and 2000+."""
    assert multiplier(rating, games) == expected


def test_base_change_within_one_band_is_excess_times_multiplier() -> None:
    assert base_change(1700, 2.0, 100) == 40.0
    assert base_change(2100, -1.5, 10) == -22.5


def test_base_change_prorates_a_rise_across_1800() -> None:
    """1790, newer player, one excess win: 10 points at 30 use 1/3 of it; the other 2/3 at 24
    is 16 more: +26 in all (not +30)."""
    assert base_change(1790, 1.0, 10) == pytest.approx(26.0)


def test_base_change_prorates_a_rise_across_both_boundaries() -> None:
    """1790, veteran, 20 excess wins: 10 points at 20 (0.5 win), 200 points at 16 (12.5 wins),
    the last 7 wins at 10: 10 + 200 + 70 = 280."""
    assert base_change(1790, 20.0, 50) == pytest.approx(280.0)


def test_base_change_prorates_a_fall_to_one_below_the_boundary() -> None:
    """1810, newer player, one excess loss: 11 points down to 1799 at 24 (11/24 of the loss),
    the other 13/24 at 30 (16.25 points): -27.25."""
    assert base_change(1810, -1.0, 10) == pytest.approx(-27.25)


def test_base_change_of_no_excess_is_zero() -> None:
    assert base_change(1800, 0.0, 10) == 0.0


def test_acceleration_points_are_base_points_above_five_a_game() -> None:
    assert acceleration_points(50.0, 6) == 20.0
    assert acceleration_points(30.0, 6) == 0.0
    assert acceleration_points(-40.0, 2) == 0.0


def test_feedback_points_are_a_twentieth_of_the_opponents_acceleration() -> None:
    assert feedback_points(20.0) == 1.0
    assert feedback_points(0.0) == 0.0


def test_round_rating_rounds_halves_up() -> None:
    assert round_rating(1500.5) == 1501
    assert round_rating(1500.49) == 1500
    assert round_rating(1499.5) == 1500  # not to even, as Python's round() would


@pytest.mark.parametrize(
    ("rounds", "lengths"),
    [
        (1, [1]),
        (16, [16]),
        (17, [9, 8]),
        (32, [16, 16]),
        (33, [11, 11, 11]),
        (38, [13, 13, 12]),
        (49, [13, 12, 12, 12]),
    ],
)
def test_rating_segments_are_at_most_16_rounds_and_even(rounds: int, lengths: list[int]) -> None:
    segments = rating_segments(rounds)
    assert [len(s) for s in segments] == lengths
    assert [r for s in segments for r in s] == list(range(1, rounds + 1))


def test_adjusted_wins_turn_all_or_nothing_into_95_and_5_percent() -> None:
    assert adjusted_wins(0, 4) == pytest.approx(0.2)
    assert adjusted_wins(4, 4) == pytest.approx(3.8)
    assert adjusted_wins(2.5, 4) == 2.5


def test_performance_rating_of_an_even_record_is_the_opponents_mean() -> None:
    """One win, one loss against 1400 and 1600: the expectations at 1500 sum to exactly one,
    and at 1499 to less."""
    assert performance_rating(1.0, [1400, 1600]) == 1500


def test_performance_rating_of_a_win_against_one_player_is_689_plus_at_95_percent() -> None:
    """A single win counts as 0.95 wins: the difference for 0.95 is ln(19)/0.0031879 =
    923.6, so the first whole rating reaching it is 1500 + 924."""
    assert performance_rating(1.0, [1500]) == 2424


def test_newcomer_bounds_raise_to_500_and_cap_at_strongest_plus_400_times_win_fraction() -> None:
    """NASPAWiki "Initial rating", Summary: "if their initial rating would be less than 500, it
    is raised to 500, and if it would exceed the newcomer's strongest opponent's rating by more
    than 400 times the newcomer's winning percentage, it is decreased until it does not"."""
    assert bounded_initial_rating(420, 0, 3, 700) == 500
    assert bounded_initial_rating(2424, 1, 1, 1500) == 1900
    assert bounded_initial_rating(1650, 1, 2, 1700) == 1650
    assert bounded_initial_rating(420, 0, 3, 300) == 300  # the cap applies after the floor


def test_one_newcomer_gets_the_bounded_performance_rating() -> None:
    ratings = initial_ratings({"N": NewcomerResult(wins=1.0, opponents=("R",))}, {"R": 1500})
    assert ratings == {"N": 1900}


def test_two_newcomers_who_only_met_each_other_stay_at_1500() -> None:
    """With no rated opponent both start at 1500; one win each against the other keeps them
    there (their performance is each other's rating)."""
    results = {
        "N": NewcomerResult(wins=1.0, opponents=("M", "M")),
        "M": NewcomerResult(wins=1.0, opponents=("N", "N")),
    }
    assert initial_ratings(results, {}) == {"N": 1500, "M": 1500}


def test_newcomers_are_solved_together_against_each_others_ratings() -> None:
    """N beat rated R (1500) twice; M lost twice to N and beat R once, lost once. The
    iteration must settle where each rating is the performance against the other's: check
    that fixed point directly."""
    results = {
        "N": NewcomerResult(wins=3.0, opponents=("R", "R", "M", "M")),
        "M": NewcomerResult(wins=1.0, opponents=("N", "N", "R", "R")),
    }
    ratings = initial_ratings(results, {"R": 1500})
    n, m = ratings["N"], ratings["M"]
    assert n == bounded_initial_rating(performance_rating(3.0, [1500, 1500, m, m]), 3.0, 4, 1500)
    assert m == bounded_initial_rating(performance_rating(1.0, [n, n, 1500, 1500]), 1.0, 4, 1500)
    assert n > 1500 > m


def test_expected_wins_is_the_published_logistic_curve() -> None:
    for delta in (-700, -127, 0, 55, 400):
        assert expected_wins(1500 + delta, 1500) == pytest.approx(
            1 - 1 / (1 + math.exp(0.0031879 * delta))
        )


# "How the NSA Rating System Works" ends "How Your Rating Changes" with a worked example; the
# stored copies of both versions stop short of its end (see the docstrings below)
HOW_PAGE_FIELD = (1702, 1702, 1778, 1922, 1922, 1998, 1998)


def test_how_page_example_what_still_applies_to_the_current_system() -> None:
    """Both the current page (http://www.scrabble-assoc.com/ratings/how.html) and the obsolete
    pre-2009 one (http://www.math.utoronto.ca/~jjchew/scrabble/ratings/how.html) continue the
    multiplier table with "So if you're rated 1850 going into a tournament, and play 7 games
    against opponents rated ...". The current page's opponents and the rest of both examples
    could not be read: the stored copies stop at "rated 15" and at "you're expected to win
    0.7+0.7+0". The obsolete field is 1702, 1702, 1778, 1922, 1922, 1998, 1998; its terms come
    from the pre-2009 normal curve, which that page gives as 0.6 wins at 72 points and 0.7 at
    148 (0.7+0.7+0.6+0.4+0.4+0.3+0.3 = 3.4), and which the current system replaced.

    What still applies, checked here: the expectation is one term a game, summed; the player's
    multiplier is the 1800-1999 row, 24 before 50 career games and 16 from 50. On the current
    curve the same field is worth 0.6158 twice, 0.5571, 0.4429 twice and 0.3842 twice: 3.4429
    (1702 with 1998, and 1778 with 1922, sum to exactly one, so 3 plus the lone 1922's 0.4429).
    """
    assert (multiplier(1850, 49), multiplier(1850, 50)) == (24, 16)
    terms = [expected_wins(1850, opponent) for opponent in HOW_PAGE_FIELD]
    assert [f"{t:.4f}" for t in terms] == [
        "0.6158", "0.6158", "0.5571", "0.4429", "0.4429", "0.3842", "0.3842"]
    assert f"{sum(terms):.4f}" == "3.4429"
    assert sum(terms) == pytest.approx(3 + expected_wins(1850, 1922))


def test_how_page_field_rated_as_an_event_worked_by_hand() -> None:
    """Not the page's ending (unread): the 1850 player, 10 career games, beats the 1702s, the
    1778 and the 1922s and loses to both 1998s (seven opponents, 100 games each). Expected
    3.4429, excess 5 - 3.4429 = 1.5571, multiplier 24: base 37.37 (to 1887.4, inside the band);
    acceleration 37.37 - 5 x 7 = 2.37; no feedback, as no opponent accelerates: each 1998 won
    0.3842 above expectation, which at 16 crosses 2000 after 2 points (0.125 of a win), the
    other 0.2592 win at 10 adding 2.59: base 4.59, under 5 for its one game. New rating 1850 +
    37.37 + 2.37 = 1889.74, rounded 1890. Each 1998 ends on 1998 + 4.59 + 2.37/20 = 2002.71:
    2003."""
    players = {"X": PlayerRating(1850, 10)}
    games = []
    for n, rating in enumerate(HOW_PAGE_FIELD, 1):
        players[f"O{n}"] = PlayerRating(rating, 100)
        games.append(Game(n, "X", f"O{n}", result=0 if rating == 1998 else 1))
    result = rate_event(players, games)
    (x,) = result["X"].segments
    assert (x.games, x.earned_wins, f"{x.expected_wins:.4f}") == (7, 5.0, "3.4429")
    assert (f"{x.base:.2f}", f"{x.acceleration:.2f}", x.feedback) == ("37.37", "2.37", 0.0)
    assert result["X"].after == PlayerRating(1890, 17)
    (winner,) = result["O6"].segments
    assert (f"{winner.base:.2f}", winner.acceleration) == ("4.59", 0.0)
    assert f"{winner.feedback:.4f}" == f"{x.acceleration / 20:.4f}"
    assert result["O6"].after.rating == 2003
