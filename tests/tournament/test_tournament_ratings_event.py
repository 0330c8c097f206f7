"""Rating whole events and keeping a ratings list (tessera.tournament.ratings.event and
.ratings_list), on small events worked out by hand in each docstring."""

from __future__ import annotations

import datetime

import pytest

from tessera.tournament.ratings import (
    Bye,
    Game,
    PlayerRating,
    RatedEvent,
    RatingInputError,
    RatingsList,
    expected_wins,
    rate_event,
    rate_events,
)


def test_two_veterans_winner_accelerates_and_loser_gets_feedback() -> None:
    """A and B, both 1500 with 100 games, play twice; A wins both. Expected 1 win each, so A's
    excess is +1: base +20 (multiplier 20), acceleration 20 - 5*2 = 10, A ends on 1530. B:
    base -20, feedback 10/20 a game for 2 games = +1, B ends on 1481."""
    players = {"A": PlayerRating(1500, 100), "B": PlayerRating(1500, 100)}
    games = [Game(1, "A", "B", 420, 380), Game(2, "B", "A", 350, 400)]
    result = rate_event(players, games)
    assert result["A"].after == PlayerRating(1530, 102)
    assert result["B"].after == PlayerRating(1481, 102)
    (a,) = result["A"].segments
    assert (a.earned_wins, a.expected_wins, a.base, a.acceleration, a.feedback) == (
        2.0,
        1.0,
        20.0,
        10.0,
        0.0,
    )
    assert result["B"].segments[0].feedback == 1.0
    assert result["A"].change == 30 and result["B"].change == -19


def test_a_rise_across_1800_is_prorated_in_an_event() -> None:
    """A and B, both 1790 with 10 games; A wins their one game. A's excess +0.5: 10 points at
    30 (1/3 win), 1/6 win at 24 = 4: base +14, acceleration 14 - 5 = 9: 1813. B: -0.5 at 30 =
    -15, feedback 9/20 = 0.45: 1775.45, rounded 1775."""
    players = {"A": PlayerRating(1790, 10), "B": PlayerRating(1790, 10)}
    result = rate_event(players, [Game(1, "A", "B", result=1)])
    assert result["A"].after.rating == 1813
    assert result["B"].after.rating == 1775
    assert result["A"].segments[0].base == pytest.approx(14.0)


def test_a_newcomer_is_rated_and_rated_players_expect_against_the_new_rating() -> None:
    """N (unrated) beats R (1500) in round 1 and loses to S (1700) in round 2; R and S have a
    bye in the other round. N's record, one of two against 1500 and 1700, is a performance of
    exactly 1600 (under the cap 1700 + 400/2). R then expected 0.42097 wins against N: base
    -0.42097*20 = -8.42, 1491.58, rounded 1492. S expected 0.57903: base +8.42, acceleration
    8.42 - 5 = 3.42, 1711.84, rounded 1712; S's only opponent is a newcomer: no feedback."""
    players = {
        "N": PlayerRating(None),
        "R": PlayerRating(1500, 100),
        "S": PlayerRating(1700, 100),
    }
    games = [Game(1, "N", "R", 400, 350), Bye(1, "S"), Game(2, "S", "N", 410, 380), Bye(2, "R")]
    result = rate_event(players, games)
    assert result["N"].after == PlayerRating(1600, 2)
    assert result["N"].change is None
    assert result["R"].after == PlayerRating(1492, 101)
    assert result["S"].after == PlayerRating(1712, 101)
    assert result["S"].segments[0].acceleration == pytest.approx(20 * 0.42097 - 5, abs=1e-4)


def test_a_17_round_event_is_rated_in_two_segments_the_second_from_the_first() -> None:
    """A and B, both 1500 with 100 games, 17 games, A wins all. Segment 1 (rounds 1-9):
    excess 4.5, base +90, acceleration 45: A 1635; B -90 + 45/20*9 = -69.75: 1430.25, 1430.
    Segment 2 (rounds 10-17) starts from 1635 and 1430."""
    players = {"A": PlayerRating(1500, 100), "B": PlayerRating(1500, 100)}
    games = [Game(r, "A", "B", 400, 300) for r in range(1, 18)]
    result = rate_event(players, games)
    first, second = result["A"].segments
    assert (first.rounds, first.rating_after) == (range(1, 10), 1635)
    assert result["B"].segments[0].rating_after == 1430
    assert (second.rounds, second.rating_before) == (range(10, 18), 1635)
    excess = 8 * (1 - expected_wins(1635, 1430))
    assert second.base == pytest.approx(20 * excess)
    assert result["A"].after.games == 117


def test_byes_and_forfeits_are_not_rated() -> None:
    players = {"A": PlayerRating(1500, 100), "B": PlayerRating(1600, 100), "C": PlayerRating()}
    games = [Game(1, "A", "B", 400, 300), Bye(1, "C")]
    plain = rate_event(players, games)
    with_extras = rate_event(players, [*games, Game(2, "A", "C", 50, 0, forfeit=True), Bye(2, "B")])
    assert {k: c.after for k, c in plain.items()} == {k: c.after for k, c in with_extras.items()}
    assert with_extras["C"].after == PlayerRating(None, 0)


def test_a_tie_is_half_a_win() -> None:
    players = {"A": PlayerRating(1600, 100), "B": PlayerRating(1400, 100)}
    result = rate_event(players, [Game(1, "A", "B", 400, 400)])
    assert result["A"].segments[0].earned_wins == 0.5
    assert result["A"].after.rating == round(1600 + 20 * (0.5 - expected_wins(1600, 1400)))


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        ({"A": PlayerRating(1500)}, [Game(1, "A", "Z", 1, 0)], "player 'Z' is not among"),
        ({"A": PlayerRating(1500)}, [Game(1, "A", "A", 1, 0)], "cannot play themself"),
        (
            {"A": PlayerRating(1500), "B": PlayerRating(1500), "C": PlayerRating(1500)},
            [Game(1, "A", "B", 1, 0), Game(1, "C", "A", 1, 0)],
            "game 2 \\(round 1\\): player 'A' already has a game",
        ),
        ({"A": PlayerRating(0), "B": PlayerRating()}, [Game(1, "A", "B", 1, 0)], "rating 0"),
        ({"A": PlayerRating(1500, -1)}, [Bye(1, "A")], "games played -1"),
        ({"A": PlayerRating(), "B": PlayerRating()}, [Game(1, "A", "B", 1, None)], "give both"),
        ({"A": PlayerRating(), "B": PlayerRating()}, [Game(1, "A", "B", result=2)], "result 2"),
        ({"A": PlayerRating(), "B": PlayerRating()}, [Game(0, "A", "B", 1, 0)], "round 0"),
        ({"A": PlayerRating()}, [], "no games"),
    ],
)
def test_bad_input_is_refused_with_a_precise_error(
    players: dict[str, PlayerRating], games: list[Game | Bye], message: str
) -> None:
    with pytest.raises(RatingInputError, match=message):
        rate_event(players, games)


def test_a_game_beyond_the_events_rounds_is_refused() -> None:
    players = {"A": PlayerRating(1500), "B": PlayerRating(1500)}
    with pytest.raises(RatingInputError, match=r"game 1 \(round 3\).*from 1 to 2"):
        rate_event(players, [Game(3, "A", "B", 1, 0)], rounds=2)


def _event(name: str, day: int, games: list[Game | Bye]) -> RatedEvent:
    return RatedEvent(name, datetime.date(2026, 1, day), tuple(games))


def test_ratings_list_applies_events_in_date_order_whatever_order_they_are_given() -> None:
    """The same two events give different ratings in the two orders (multipliers and
    expectations depend on the rating each starts from), so applying them by date is seen."""
    early = _event("early", 3, [Game(1, "Ann", "Bob", 400, 300)])
    late = _event("late", 10, [Game(1, "Bob", "Cy", 400, 300), Game(2, "Ann", "Cy", 300, 400)])
    start = RatingsList(
        {"Ann": PlayerRating(1795, 10), "Bob": PlayerRating(1700, 10), "Cy": PlayerRating(1600, 80)}
    )
    by_date = rate_events([late, early], start)
    assert by_date.players == start.after(early).after(late).players
    assert by_date.players != start.after(late).after(early).players


def test_ratings_list_adds_newcomers_and_counts_games_by_id() -> None:
    """Players may be keyed by id: player 7 is new, beats 1 (1500) and 2 (1500) -> capped at
    1500 + 400 * 1 = 1900 (the performance for two wins at 95% is higher)."""
    start = RatingsList({1: PlayerRating(1500, 60), 2: PlayerRating(1500, 60)})
    event = _event("club", 5, [Game(1, 7, 1, 400, 300), Bye(1, 2), Game(2, 2, 7, 300, 400)])
    after = start.after(event)
    assert after[7] == PlayerRating(1900, 2)
    assert after[1].games == 61 and after[2].games == 61
    assert after[99] == PlayerRating(None, 0)
    assert [key for key, _ in after.rated()] == [7, 1, 2]  # 1 and 2 tie: the list's order


def test_ratings_list_names_the_event_in_an_error_and_stays_unchanged() -> None:
    start = RatingsList({"Ann": PlayerRating(1500, 10)})
    bad = _event("bad", 1, [Game(1, "Ann", "Ann", 1, 0)])
    with pytest.raises(RatingInputError, match="event 'bad' \\(2026-01-01\\): game 1"):
        start.after(bad)
    assert start.players == {"Ann": PlayerRating(1500, 10)}


def test_ratings_list_refuses_a_bad_standing() -> None:
    with pytest.raises(RatingInputError, match="player 'Ann': rating 99999"):
        RatingsList({"Ann": PlayerRating(99999)})


def test_a_rating_never_falls_below_1_before_feedback() -> None:
    """A and B, both 20 with 100 games; B wins all three. A: expected 1.5, base -30, so 1
    (the floor), plus feedback from B's acceleration (30 - 15 = 15) of 15/20 a game for 3
    games: 3.25, rounded 3. B: 20 + 30 + 15 = 65."""
    players = {"A": PlayerRating(20, 100), "B": PlayerRating(20, 100)}
    result = rate_event(players, [Game(r, "B", "A", 400, 300) for r in (1, 2, 3)])
    assert result["A"].after.rating == 3
    assert result["B"].after.rating == 65
