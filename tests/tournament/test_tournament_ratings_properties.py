"""Properties of NASPA rating (tessera.tournament.ratings) over random events: a player who
wins every game never loses rating, every change stays within the bounds the formulas allow,
and neither the order of the players nor of the games (nor which side a player is listed on)
changes any result."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.tournament.ratings import Bye, Game, PlayerRating, base_change, rate_event
from tessera.tournament.ratings.inputs import MIN_RATING
from tessera.tournament.ratings.naspa import (
    ACCELERATION_POINTS_PER_GAME,
    FEEDBACK_DIVISOR,
    MAX_MULTIPLIER,
    SEGMENT_ROUNDS,
)
from tessera.tournament.ratings.newcomers import SEARCH_HIGH

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)

Event = tuple[dict[str, PlayerRating], list[Game | Bye]]


@st.composite
def events(draw: st.DrawFn, champion_wins_all: bool = False) -> Event:
    """2 to 8 players (some unrated), 1 to 20 rounds of random pairings and scores; with
    ``champion_wins_all``, player P0 is rated and wins every game they play."""
    count = draw(st.integers(2, 8))
    rating = st.one_of(st.none(), st.integers(300, 2300))
    players = {f"P{i}": PlayerRating(draw(rating), draw(st.integers(0, 120))) for i in range(count)}
    if champion_wins_all:
        players["P0"] = PlayerRating(draw(st.integers(300, 2300)), draw(st.integers(0, 120)))
    seed = draw(st.integers(0, 2**32 - 1))
    rounds = draw(st.integers(1, 20))
    shuffler = random.Random(seed)
    games: list[Game | Bye] = []
    keys = list(players)
    for round_number in range(1, rounds + 1):
        shuffler.shuffle(keys)
        for a, b in zip(keys[0::2], keys[1::2], strict=False):
            score_a, score_b = shuffler.randint(250, 550), shuffler.randint(250, 550)
            if champion_wins_all and "P0" in (a, b):
                winner, loser = max(score_a, score_b) + 1, min(score_a, score_b)
                score_a, score_b = (winner, loser) if a == "P0" else (loser, winner)
            games.append(Game(round_number, a, b, score_a, score_b))
        if len(keys) % 2:
            games.append(Bye(round_number, keys[-1]))
    return players, games


@PROPERTY_SETTINGS
@given(events(champion_wins_all=True))
def test_a_player_who_wins_every_game_never_loses_rating(event: Event) -> None:
    players, games = event
    champion = rate_event(players, games)["P0"]
    assert champion.after.rating is not None and champion.before.rating is not None
    assert champion.after.rating >= champion.before.rating
    for segment in champion.segments:
        assert segment.rating_after is not None and segment.rating_before is not None
        assert segment.rating_after >= segment.rating_before


# One game's largest effect on a rating: base points at the highest multiplier; acceleration
# repeats the base points above 5 a game; feedback from a game against an opponent who
# accelerated by the most a segment allows (16 games at the highest multiplier).
MOST_LOST_PER_GAME = MAX_MULTIPLIER
MOST_FEEDBACK_PER_GAME = (
    (MAX_MULTIPLIER - ACCELERATION_POINTS_PER_GAME) * SEGMENT_ROUNDS / (FEEDBACK_DIVISOR)
)
MOST_GAINED_PER_GAME = 2 * MAX_MULTIPLIER - ACCELERATION_POINTS_PER_GAME + MOST_FEEDBACK_PER_GAME


@PROPERTY_SETTINGS
@given(events())
def test_ratings_change_within_the_documented_bounds(event: Event) -> None:
    players, games = event
    for change in rate_event(players, games).values():
        played = sum(s.games for s in change.segments)
        assert change.after.games == change.before.games + played
        for segment in change.segments:
            assert segment.games >= 1
            assert segment.rating_after is not None
            if segment.rating_before is None:  # a newcomer's initial rating: the cap applies
                assert MIN_RATING <= segment.rating_after <= SEARCH_HIGH  # after the floor
                continue
            assert abs(segment.base) <= MAX_MULTIPLIER * segment.games + 1e-9
            assert segment.acceleration >= 0 and segment.feedback >= 0
            moved = segment.rating_after - segment.rating_before
            assert moved >= -MOST_LOST_PER_GAME * segment.games - 0.5
            assert moved <= MOST_GAINED_PER_GAME * segment.games + 0.5


@PROPERTY_SETTINGS
@given(events(), st.randoms(use_true_random=False))
def test_the_order_of_players_and_games_does_not_matter(event: Event, rng: random.Random) -> None:
    players, games = event
    reordered_players = dict(rng.sample(list(players.items()), len(players)))
    reordered_games: list[Game | Bye] = []
    for game in rng.sample(games, len(games)):
        if isinstance(game, Game) and rng.random() < 0.5:
            game = Game(game.round, game.player_b, game.player_a, game.score_b, game.score_a)
        reordered_games.append(game)
    reordered_games.sort(key=lambda g: g.round)  # still in round order, shuffled within
    rounds = max(g.round for g in games)
    assert rate_event(reordered_players, reordered_games, rounds) == rate_event(
        players, games, rounds
    )


@PROPERTY_SETTINGS
@given(
    st.integers(300, 2500),
    st.floats(-16, 16, allow_nan=False),
    st.integers(0, 200),
)
def test_base_change_has_the_sign_of_the_excess_and_at_most_the_top_multiplier(
    rating: int, excess: float, games: int
) -> None:
    change = base_change(rating, excess, games)
    assert abs(change) <= MAX_MULTIPLIER * abs(excess) + 1e-9
    if excess > 1 / 20:  # beyond the 1800/1799 proration quirk's reach
        assert change > 0
    elif excess < -1 / 20:
        assert change < 0
