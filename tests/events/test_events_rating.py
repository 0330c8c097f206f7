"""tessera.events.rating: a division's results as the rating system's input."""

from __future__ import annotations

from tessera.events.rating import rate_division, rating_inputs
from tessera.tournament import Division, Pairing
from tessera.tournament.ratings import Bye, Game, PlayerRating


def division() -> Division:
    d = Division("A", 3)
    d.add_player("Ann", 1800)
    d.add_player("Bob", 1600)
    d.add_player("Cy", 0)  # unrated
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d.record_result(1, 1, 400, 2, 300)
    d.add_player("Di", 1500, missed="forfeit")
    d.pair_round([Pairing(3, 1, 1), Pairing(2, 4, 2)])
    d.record_result(2, 3, 350, 1, 360)
    d.record_forfeit(2, 4)
    d.pair_round([Pairing(4, 3, 1), Pairing(1, 2, 2)])  # round 3 not played yet
    return d


def test_games_byes_and_forfeits_become_rating_inputs() -> None:
    players, games = rating_inputs(division(), career_games=60)
    assert players == {
        1: PlayerRating(1800, 60), 2: PlayerRating(1600, 60), 3: PlayerRating(None, 0),
        4: PlayerRating(1500, 60),
    }
    assert games == [
        Game(1, 1, 2, 400, 300),
        Bye(1, 3),  # player 4's missed round 1 is no game and no bye
        Game(2, 3, 1, 350, 360),
        Game(2, 2, 4, result=1.0, forfeit=True),
    ]  # round 3 has no results: nothing of it


def test_a_newcomer_gets_a_rating_and_the_winner_gains() -> None:
    changes = rate_division(division(), career_games=60)
    assert changes[3].before.rating is None and changes[3].after.rating is not None
    assert changes[1].change is not None and changes[1].change > 0
    assert changes[2].change is not None and changes[2].change < 0
    assert changes[1].after.games == 62 and changes[4].after.games == 60  # forfeits unrated


def test_each_players_own_rated_games_and_the_default_for_the_rest() -> None:
    d = Division("A", 1)
    d.add_player("Ann", 1800, rated_games=10)
    d.add_player("Bob", 1600)  # not known: the default
    d.add_player("Cy", 0, rated_games=30)  # unrated: a newcomer whatever the count
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d.record_result(1, 1, 400, 2, 300)
    players, _ = rating_inputs(d, career_games=200)
    assert players == {1: PlayerRating(1800, 10), 2: PlayerRating(1600, 200),
                       3: PlayerRating(None, 0)}
    # NASPA's multiplier is higher below 50 games: Ann's 10 games move her further than
    # the same win would with 200
    few = rate_division(d, career_games=200)[1].change
    d2 = Division("A", 1)
    d2.add_player("Ann", 1800, rated_games=200)
    d2.add_player("Bob", 1600)
    d2.add_player("Cy", 0)
    d2.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d2.record_result(1, 1, 400, 2, 300)
    many = rate_division(d2, career_games=200)[1].change
    assert few is not None and many is not None and few > many > 0
