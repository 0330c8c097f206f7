"""The ABSP's rating system (tessera.tournament.ratings.absp): the published examples to their
printed precision, each named function on hand-checked values, events and lists across
events, and properties the method really has.

Sources: "ABSP Ratings System" (https://www.absp.org.uk/results/ratings_detail.shtml and
http://www.absp.org.uk/results/ratings_detail.shtml), John Grayson's notes
(http://absp.org.uk/results/JAGrn1.shtml, JAGrn4, JAGrn5) and "2011 Rating Changes"
(http://www.absp.org.uk/news/news300111.shtml). The page's own worked example of the weighted
calculation could not be read; the weighted examples here are worked by hand in each
docstring.
"""

from __future__ import annotations

import datetime
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.tournament.ratings import (
    WEIGHTING_1999,
    WEIGHTING_2011,
    AbspRatingsList,
    AbspStanding,
    Bye,
    Game,
    PlayerRating,
    RatedEvent,
    RatingInputError,
    TournamentPerformance,
    counted_opponent_rating,
    event_performances,
    game_rating_points,
    rate_event_absp,
    rate_events_absp,
    rolling_rating,
    rolling_value,
    round_half_up,
    ten_point_rule_resets,
    tournament_performance,
)
from tessera.tournament.ratings.absp import (
    LOWEST_RATING,
    newcomer_performances,
    newcomer_ratings,
    played_games,
    result_points,
    window,
)

PENZANCE_OPPONENTS = (161, 157, 154, 167, 155, 167, 160, 159, 154, 156, 155, 156)

# ---------------------------------------------------------------- published examples


def test_penzance_example_1901_plus_350_minus_250_is_2001_and_167_rounded() -> None:
    """ratings_detail.shtml, "Ratings Points": Player X's twelve opponents total 1901; 7 won
    and 5 lost give 1901 + 350 - 250 = 2001 tournament rating points, and 2001/12 = 167
    rounded. Which games were won cannot be read from the page (the marks are images) and
    "it does not matter which opponents you beat", so every choice of the 7 wins is checked.
    X's own rating is not printed; any rating within 40 of every opponent (127 to 194) leaves
    the opponents' ratings as they are, as the example's total shows."""
    assert sum(PENZANCE_OPPONENTS) == 1901
    for own in (127, 160, 194, None):
        for wins in itertools.combinations(range(12), 7):
            games = [(r, 1 if i in wins else 0) for i, r in enumerate(PENZANCE_OPPONENTS)]
            performance = tournament_performance(own, games)
            assert performance == TournamentPerformance(points=2001, games=12)
    assert performance is not None
    assert performance.value == Fraction(2001, 12)
    assert performance.rating == 167


def test_penzance_as_an_event_gives_x_the_same_2001_points() -> None:
    """The same example through :func:`rate_event_absp`: twelve rounds against twelve rated
    opponents (X rated 160, wins in rounds 1-7), byes in between are not rated (JAGrn4)."""
    players: dict[str, AbspStanding | PlayerRating] = {"X": PlayerRating(160, 200)}
    games: list[Game | Bye] = []
    for round_number, rating in enumerate(PENZANCE_OPPONENTS, 1):
        players[f"O{round_number}"] = PlayerRating(rating, 200)
        x_score = 400 if round_number <= 7 else 300
        games.append(Game(round_number, "X", f"O{round_number}", x_score, 350))
    change = rate_event_absp(players, games)["X"]
    assert change.performance == TournamentPerformance(2001, 12)
    assert change.performance.rating == 167


def test_forty_point_rule_example_rated_169_uses_129_for_anyone_rated_under_129() -> None:
    """ratings_detail.shtml, note under "Ratings Points": "if the player, who was rated 169,
    played someone rated under 129, then she would use 129 as her opponent's rating"."""
    assert counted_opponent_rating(169, 128) == 129
    assert counted_opponent_rating(169, 90) == 129
    assert counted_opponent_rating(169, 129) == 129
    assert counted_opponent_rating(169, 130) == 130
    assert counted_opponent_rating(169, 209) == 209
    assert counted_opponent_rating(169, 250) == 209
    assert counted_opponent_rating(None, 250) == 250


def test_basic_system_example_150_against_90_is_worth_110_and_130() -> None:
    """JAGrn1, "Basic ratings system": "if you were rated 150 and your opponent 90, for that
    game your opponent's rating was worth 110 points to you, and your rating was worth 130
    points to your opponent"; a win adds 50, a loss takes 50, a draw neither."""
    assert counted_opponent_rating(150, 90) == 110
    assert counted_opponent_rating(90, 150) == 130
    assert game_rating_points(150, 90, 1) == 160
    assert game_rating_points(90, 150, 0) == 80
    assert game_rating_points(150, 90, 0.5) == 110


def test_published_weightings_225_to_76_and_150_to_51() -> None:
    """ratings_detail.shtml, introduction: since 2011, 150 games weighted 225 to 76; until
    2010, 100 games weighted 150 to 51."""
    assert [WEIGHTING_2011.weight(p) for p in (1, 2, 149, 150)] == [225, 224, 77, 76]
    assert [WEIGHTING_1999.weight(p) for p in (1, 100)] == [150, 51]
    assert WEIGHTING_2011.weights(range(1, 151)) == sum(range(76, 226)) == 22575
    with pytest.raises(ValueError, match="outside the window of 150"):
        WEIGHTING_2011.weight(151)
    with pytest.raises(ValueError, match="outside the window"):
        WEIGHTING_2011.weight(0)


def test_with_about_100_games_the_most_recent_still_weighs_225() -> None:
    """news300111.shtml: with 100 games in the calculation "the weight of the most recent game
    was 225", so a short history's weights count down from 225: one game at 60 then one at
    240 is (225 x 240 + 224 x 60) / 449 = 150.20 -> 150 (weights 77 and 76 would give
    150.59 -> 151)."""
    history = (TournamentPerformance(60, 1), TournamentPerformance(240, 1))
    assert rolling_value(history) == Fraction(225 * 240 + 224 * 60, 449)
    assert rolling_rating(history) == 150


# ---------------------------------------------------------------- named functions


def test_result_points_are_plus_50_minus_50_and_0_for_a_tie() -> None:
    """ratings_detail.shtml: "plus 50 points for each game won, less 50 for each game lost,
    no change for each game tied"."""
    assert [result_points(r) for r in (1, 0, 0.5)] == [50, -50, 0]
    assert game_rating_points(160, 150, 0.5) == 150
    with pytest.raises(ValueError, match=r"not 1, 0\.5 or 0"):
        result_points(0.25)


def test_round_half_up() -> None:
    assert round_half_up(Fraction(2001, 12)) == 167  # 166.75
    assert round_half_up(Fraction(333, 2)) == 167  # 166.5: halves go up
    assert round_half_up(Fraction(33299, 200)) == 166  # 166.495
    assert round_half_up(Fraction(-1, 2)) == 0


def test_tournament_performance_without_games_is_none() -> None:
    assert tournament_performance(150, []) is None


def test_weighted_rating_over_three_tournaments_worked_by_hand() -> None:
    """Fewer than 150 games, oldest first: 6 games worth 900, Penzance (12 games, 2001), 8
    games worth 1440. Weights from the most recent: 225..218 (sum 1772) at 180 a game,
    217..206 (2538) at 2001/12, 205..200 (1215) at 150; (1772 x 180 + 2538 x 166.75 + 1215 x
    150) / 5525 = 924421.5 / 5525 = 167.316 -> 167."""
    history = (
        TournamentPerformance(900, 6),
        TournamentPerformance(2001, 12),
        TournamentPerformance(1440, 8),
    )
    assert [p for _, p in window(history)] == [range(1, 9), range(9, 21), range(21, 27)]
    assert rolling_value(history) == Fraction(1848843, 11050)  # 924421.5 / 5525
    assert rolling_rating(history) == 167


def test_window_keeps_150_games_cutting_the_oldest_tournament() -> None:
    """13 tournaments of 12 games are 156 games: the oldest counts 6 (positions 145 to 150,
    weights 81 to 76, sum 471). Twelve at 150 a game and the oldest at 210: 150 + 60 x 471 /
    22575 = 151.25 -> 151 (dropping it whole would give 150); anything older changes
    nothing."""
    history = (TournamentPerformance(2520, 12), *[TournamentPerformance(1800, 12)] * 12)
    counted = window(history)
    assert counted[-1] == (history[0], range(145, 151))
    assert rolling_value(history) == 150 + Fraction(60 * 471, 22575)
    assert rolling_rating(history) == 151
    assert rolling_value((TournamentPerformance(4000, 10), *history)) == rolling_value(history)


def test_old_system_window_is_100_games() -> None:
    """Until 2010: 100 games weighted 150 to 51; a 101st game (oldest) is not counted."""
    history = (TournamentPerformance(400, 1), TournamentPerformance(15000, 100))
    assert rolling_value(history, WEIGHTING_1999) == 150
    assert rolling_value(history, WEIGHTING_2011) != 150


def test_lowest_possible_rating_is_50_and_no_games_is_unrated() -> None:
    """ratings_detail.shtml: "The lowest possible rating is 50"."""
    assert rolling_rating((TournamentPerformance(60, 2),)) == LOWEST_RATING == 50
    assert rolling_rating(()) is None


def test_a_win_can_lower_the_rating_when_a_stronger_old_game_leaves_the_window() -> None:
    """The rolling window, not a bug: 1 game worth 400 then 149 worth 190 rate 190 + 210 x 76
    / 22575 = 190.71 -> 191; a win over a player rated 160 (worth 210) pushes the 400 out:
    190 + 20 x 225 / 22575 = 190.20 -> 190."""
    standing = AbspStanding((TournamentPerformance(400, 1), TournamentPerformance(190 * 149, 149)),
                            games=150)
    assert standing.rating == 191
    after = standing.after(tournament_performance(191, [(160, 1)]))
    assert after.tournaments[0] == TournamentPerformance(190 * 149, 149)
    assert after.rating == 190 and after.games == 151


def test_standing_from_a_rating_and_games() -> None:
    """A player known by rating and games only: that many games (at most 150) at the rating;
    no count means a full window."""
    assert AbspStanding.from_rating(160, 12) == AbspStanding((TournamentPerformance(1920, 12),), 12)
    assert AbspStanding.from_rating(160, 0).tournaments == (TournamentPerformance(24000, 150),)
    assert AbspStanding.from_rating(160, 0).games == 150
    assert AbspStanding.from_rating(160, 500).tournaments == (TournamentPerformance(24000, 150),)
    assert AbspStanding.from_rating(160, 500).games == 500
    assert AbspStanding.from_rating(None, 5) == AbspStanding((), 5)
    assert AbspStanding.from_rating(160, 12).rating == 160
    with pytest.raises(RatingInputError, match="player 'P': rating 0 is not a whole number"):
        AbspStanding.from_rating(0, 3, player="P")


def test_standing_after_keeps_a_cut_tournament_and_drops_one_wholly_outside() -> None:
    standing = AbspStanding(
        (TournamentPerformance(1000, 10), TournamentPerformance(150 * 140, 140)), games=150
    )
    once = standing.after(TournamentPerformance(1500, 5))
    assert once.tournaments[0] == TournamentPerformance(1000, 10)  # 5 of its games still count
    twice = once.after(TournamentPerformance(1500, 5))
    assert twice.tournaments[0] == TournamentPerformance(150 * 140, 140)
    assert twice.games == 160
    assert standing.after(None) is standing


# ---------------------------------------------------------------- events

SMALL_EVENT: list[Game | Bye] = [
    Game(1, "A", "B", 420, 380),
    Game(1, "C", "D", 400, 300),
    Game(2, "A", "C", 410, 390),
    Game(2, "B", "D", 450, 350),
    Game(3, "D", "A", 300, 500),
    Game(3, "B", "C", 380, 380),
]


def small_event_players() -> dict[str, AbspStanding | PlayerRating]:
    return {
        "A": PlayerRating(160, 100),
        "B": PlayerRating(150, 100),
        "C": PlayerRating(120, 100),
        "D": PlayerRating(None, 0),
    }


def test_event_worked_by_hand() -> None:
    """A 160, B 150, C 120 (100 games each), D new. D lost to C, B and A: (70 + 100 + 110) / 3
    = 93.3 -> 93, D's first rating. A beat B (200), C (120 is exactly 40 below: 170) and D
    (93 + 50 = 143, no cap for a newcomer): 513/3. B lost to A (110), beat D (143), tied C
    (120): 373/3. C beat D (143), lost to A (110), tied B (150): 403/3. With 100 games at the
    old rating (weights 222..123, 17250) after 3 new ones (225..223, 672): A (672 x 171 +
    17250 x 160) / 17922 = 160.41 -> 160; B (672 x 124.33 + 17250 x 150) / 17922 = 149.04 ->
    149; C (672 x 134.33 + 17250 x 120) / 17922 = 120.54 -> 121."""
    changes = rate_event_absp(small_event_players(), SMALL_EVENT)
    performances = {k: c.performance for k, c in changes.items()}
    assert performances == {
        "A": TournamentPerformance(513, 3),
        "B": TournamentPerformance(373, 3),
        "C": TournamentPerformance(403, 3),
        "D": TournamentPerformance(280, 3),
    }
    assert {k: c.after.rating for k, c in changes.items()} == {
        "A": 160, "B": 149, "C": 121, "D": 93,
    }
    assert {k: c.change for k, c in changes.items()} == {"A": 0, "B": -1, "C": 1, "D": None}
    assert changes["D"].after.games == 3 and changes["A"].after.games == 103
    assert not any(c.ten_point_rule for c in changes.values())


def test_newcomers_are_estimated_from_rated_opponents_then_from_each_other() -> None:
    """N1, N2 and N3 are new; R is rated 150. N1 lost to R and N2; N3 lost to N2 and R; N2
    played only newcomers. Pass 1, against R only: N1 100, N3 100, N2 nothing. Pass 2 adds
    games against pass-1 estimates: N2 beat N1 and N3 (100 each): 150 + 150; N1 and N3 stay
    at 100 on one game (N2 had no pass-1 estimate). R beat N1 and N3, counting their new
    ratings (no cap: they have no rating of their own): 150 + 150."""
    start = {"R": 150, "N1": None, "N2": None, "N3": None}
    played = played_games([
        Game(1, "R", "N1", 400, 300), Game(2, "N2", "N1", 400, 300),
        Game(1, "N2", "N3", 400, 300), Game(2, "R", "N3", 400, 300),
    ])
    assert newcomer_performances(start, played, 1) == {
        "N1": TournamentPerformance(100, 1), "N3": TournamentPerformance(100, 1),
    }
    assert newcomer_performances(start, played, 2) == {
        "N1": TournamentPerformance(100, 1),
        "N2": TournamentPerformance(150 + 150, 2),
        "N3": TournamentPerformance(100, 1),
    }
    performances = event_performances(start, played)
    assert performances == {**newcomer_performances(start, played, 2),
                            "R": TournamentPerformance(150 + 150, 2)}
    assert newcomer_ratings({"N": TournamentPerformance(20, 1)}) == {"N": LOWEST_RATING}


def test_a_game_between_newcomers_without_estimates_is_not_rated() -> None:
    changes = rate_event_absp({"N1": PlayerRating(), "N2": PlayerRating()},
                              [Game(1, "N1", "N2", 400, 300)])
    assert changes["N1"].performance is None and changes["N1"].after.rating is None


def test_byes_and_forfeits_are_not_rated() -> None:
    """JAGrn4: "Byes are always ignored for ratings purposes"; a forfeit is not a game
    played over the board either."""
    games = [*SMALL_EVENT, Bye(4, "A"), Game(4, "B", "C", result=1.0, forfeit=True)]
    with_extras = rate_event_absp(small_event_players(), games)
    plain = rate_event_absp(small_event_players(), SMALL_EVENT)
    assert with_extras == plain


def test_ten_point_rule_resets_the_start_rating_once_and_rerates_the_division() -> None:
    """JAGrn5. E is rated 100 on 12 games; F 150 on 100. E beats F twice: F counts 140 (cap),
    190 a game; E's first new rating (449 x 190 + 2610 x 100) / 3059 = 113.2 -> 113, 13 above
    100. E's start rating becomes 113, F now counts 150 (37 away): 200 a game and (449 x 200
    + 261000) / 3059 = 114.7 -> 115. F's losses now count E at 113: 63 a game, not 60."""
    players: dict[str, AbspStanding | PlayerRating] = {
        "E": AbspStanding((TournamentPerformance(1200, 12),), 12),
        "F": PlayerRating(150, 100),
    }
    games: list[Game | Bye] = [Game(1, "E", "F", 400, 300), Game(2, "F", "E", 300, 400)]
    changes = rate_event_absp(players, games)
    assert changes["E"].ten_point_rule and changes["E"].start_rating == 113
    assert changes["E"].performance == TournamentPerformance(400, 2)
    assert changes["E"].after.rating == 115
    assert not changes["F"].ten_point_rule and changes["F"].start_rating == 150
    assert changes["F"].performance == TournamentPerformance(126, 2)
    without = rate_event_absp(players, games, ten_point_rule=False)
    assert without["E"].after.rating == 113 and without["E"].performance.points == 380


def test_ten_point_rule_needs_fewer_than_30_games_and_a_10_point_move() -> None:
    standing = AbspStanding((TournamentPerformance(3000, 30),), 30)
    assert ten_point_rule_resets({"P": standing}, {"P": 120}) == {}
    young = AbspStanding((TournamentPerformance(2900, 29),), 29)
    assert ten_point_rule_resets({"P": young}, {"P": 109}) == {}
    assert ten_point_rule_resets({"P": young}, {"P": 110}) == {"P": 110}
    assert ten_point_rule_resets({"P": young}, {"P": 90}) == {"P": 90}
    assert ten_point_rule_resets({"P": AbspStanding()}, {"P": 150}) == {}


def test_event_input_errors_name_the_player_or_game() -> None:
    with pytest.raises(RatingInputError, match="player 'A', tournament 1: games 0"):
        rate_event_absp({"A": AbspStanding((TournamentPerformance(0, 0),), 0)}, [Bye(1, "A")])
    with pytest.raises(RatingInputError, match="player 'A': career games 3 is not"):
        rate_event_absp({"A": AbspStanding((TournamentPerformance(500, 5),), 3)}, [Bye(1, "A")])
    with pytest.raises(RatingInputError, match="points 99999 is not"):
        rate_event_absp({"A": AbspStanding((TournamentPerformance(99999, 5),), 5)},
                        [Bye(1, "A")])
    with pytest.raises(RatingInputError, match="player 'Z' is not among"):
        rate_event_absp(small_event_players(), [Game(1, "A", "Z", 400, 300)])
    with pytest.raises(RatingInputError, match="neither an AbspStanding nor a PlayerRating"):
        rate_event_absp({"A": 150}, [Bye(1, "A")])  # type: ignore[dict-item]


# ---------------------------------------------------------------- ratings list


def test_list_rates_events_in_date_order_each_from_the_one_before() -> None:
    """JAGrn4: associated events are rated separately, the first's new ratings used for the
    second. X is rated 200 on 30 games, Y 150. Day 1, X beats Y, who counts 160 (40 below):
    210, and X rates (225 x 210 + 6285 x 200) / 6510 = 200.35 -> 200. Day 2, X loses: 110,
    (225 x 110 + 224 x 210 + 6255 x 200) / 6704 = 197.32 -> 197. With the dates swapped X
    loses first (110, 196.89 -> 197) and the win then counts Y at 157: 207."""
    x = AbspStanding((TournamentPerformance(6000, 30),), 30)
    start = AbspRatingsList({"X": x, "Y": AbspStanding.from_rating(150, 150)})
    day1 = RatedEvent("Vectis", datetime.date(2026, 5, 1), (Game(1, "X", "Y", 400, 300),))
    day2 = RatedEvent("Isle of Wight", datetime.date(2026, 5, 2), (Game(1, "X", "Y", 300, 400),))
    ratings = rate_events_absp([day2, day1], start)
    assert ratings["X"].tournaments == (x.tournaments[0], TournamentPerformance(210, 1),
                                        TournamentPerformance(110, 1))
    assert ratings["X"].rating == 197 and ratings["X"].games == 32
    assert [k for k, _ in ratings.rated()] == ["X", "Y"]
    assert rate_events_absp([day1, day2], start) == ratings
    swapped = rate_events_absp([replace_date(day2, day1.date), replace_date(day1, day2.date)],
                               start)
    assert swapped["X"].tournaments[1:] == (TournamentPerformance(110, 1),
                                            TournamentPerformance(207, 1))
    assert start["X"] is x  # the list before is unchanged


def replace_date(event: RatedEvent, date: datetime.date) -> RatedEvent:
    return RatedEvent(event.name, date, event.games, event.rounds)


def test_list_reports_the_event_of_an_input_error_and_unknown_players_are_unrated() -> None:
    ratings = AbspRatingsList()
    assert ratings["nobody"].rating is None and len(ratings) == 0
    bad = RatedEvent("Bad", datetime.date(2026, 1, 1), (Game(1, "A", "A", 400, 300),))
    with pytest.raises(RatingInputError, match=r"event 'Bad' \(2026-01-01\): .*themself"):
        ratings.after(bad)
    with pytest.raises(RatingInputError, match="is not an AbspStanding"):
        AbspRatingsList({"A": PlayerRating(150, 10)})  # type: ignore[dict-item]


def test_list_with_the_1999_weighting_keeps_100_games() -> None:
    start = AbspRatingsList({"Y": AbspStanding.from_rating(150, 0, WEIGHTING_1999)},
                            WEIGHTING_1999)
    event = RatedEvent("E", datetime.date(2010, 6, 1), (Game(1, "X", "Y", 400, 300),))
    after = start.after(event)
    assert after["Y"].tournaments[0] == TournamentPerformance(15000, 100)
    # Y: 99 of the 100 old games remain, weights 149..51; the loss (worth 150) weighs 150.
    assert after["Y"].rating == 150 and after.weighting is WEIGHTING_1999


# ---------------------------------------------------------------- properties

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)

ratings_strategy = st.integers(60, 260)
results_strategy = st.sampled_from([0.0, 0.5, 1.0])
tournaments_strategy = st.lists(
    st.builds(
        lambda games, value: TournamentPerformance(games * value, games),
        st.integers(1, 40),
        st.integers(10, 300),
    ),
    min_size=1,
    max_size=12,
)


@PROPERTY_SETTINGS
@given(ratings_strategy, ratings_strategy, results_strategy)
def test_within_40_points_a_game_shares_the_two_ratings(a: int, b: int, result: float) -> None:
    """Uncapped, the two players' points for a game sum to their two ratings; a loss turned
    into a win is worth exactly 100 more, a tie half way."""
    if abs(a - b) <= 40:
        assert game_rating_points(a, b, result) + game_rating_points(b, a, 1 - result) == a + b
    assert game_rating_points(a, b, 1) - game_rating_points(a, b, 0) == 100
    assert 2 * game_rating_points(a, b, 0.5) == game_rating_points(a, b, 1) + game_rating_points(
        a, b, 0
    )


@PROPERTY_SETTINGS
@given(tournaments_strategy)
def test_rolling_value_is_a_weighted_mean_of_the_windows_games(history: list) -> None:
    counted = [t.value for t, _ in window(history)]
    value = rolling_value(history)
    assert value is not None and min(counted) <= value <= max(counted)
    assert sum(len(p) for _, p in window(history)) == min(150, sum(t.games for t in history))
    rating = rolling_rating(history)
    assert rating is not None and rating >= LOWEST_RATING


@PROPERTY_SETTINGS
@given(tournaments_strategy, tournaments_strategy)
def test_only_the_most_recent_150_games_count(older: list, recent: list) -> None:
    recent = recent * (150 // sum(t.games for t in recent) + 1)
    assert rolling_value([*older, *recent]) == rolling_value(recent)


@st.composite
def events(draw: st.DrawFn, all_rated: bool = False) -> tuple[dict, list[Game | Bye]]:
    """2 to 8 players (some new unless ``all_rated``), 1 to 12 rounds of random pairings."""
    count = draw(st.integers(2, 8))
    rating = ratings_strategy if all_rated else st.one_of(st.none(), ratings_strategy)
    players = {f"P{i}": PlayerRating(draw(rating), draw(st.integers(0, 200)))
               for i in range(count)}
    shuffler = random.Random(draw(st.integers(0, 2**32 - 1)))
    games: list[Game | Bye] = []
    keys = list(players)
    for round_number in range(1, draw(st.integers(1, 12)) + 1):
        shuffler.shuffle(keys)
        for a, b in zip(keys[0::2], keys[1::2], strict=False):
            games.append(Game(round_number, a, b, shuffler.randint(300, 420),
                              shuffler.randint(300, 420)))
        if len(keys) % 2:
            games.append(Bye(round_number, keys[-1]))
    return players, games


@PROPERTY_SETTINGS
@given(events(all_rated=True))
def test_winning_every_game_is_worth_at_least_10_above_the_start_rating(event: tuple) -> None:
    """Against rated players every win is worth at least start - 40 + 50 and every loss at
    most start + 40 - 50, so a clean sweep's tournament rating is at least 10 above the
    rating the event was rated with, a whitewash at least 10 below."""
    players, games = event
    changes = rate_event_absp(players, games)
    for key, change in changes.items():
        results = {r for _, r in played_games(games).get(key, [])}
        if change.performance is None or change.start_rating is None:
            continue
        if results == {1.0}:
            assert change.performance.value >= change.start_rating + 10
        if results == {0.0}:
            assert change.performance.value <= change.start_rating - 10


@PROPERTY_SETTINGS
@given(events())
def test_order_of_games_and_sides_changes_nothing(event: tuple) -> None:
    players, games = event
    flipped = [
        Game(g.round, g.player_b, g.player_a, g.score_b, g.score_a) if isinstance(g, Game) else g
        for g in reversed(games)
    ]
    assert rate_event_absp(players, flipped) == rate_event_absp(players, games)
    reordered = dict(reversed(list(players.items())))
    assert rate_event_absp(reordered, games) == rate_event_absp(players, games)


@PROPERTY_SETTINGS
@given(events())
def test_everyone_who_played_a_rated_game_is_rated_at_least_50(event: tuple) -> None:
    players, games = event
    changes = rate_event_absp(players, games)
    for change in changes.values():
        if change.performance is not None:
            assert change.after.rating is not None and change.after.rating >= LOWEST_RATING
            assert change.after.games == change.before.games + change.performance.games
        else:
            assert change.after == change.before
