"""The director's simulator (tessera.tournament.simulate): seeded events through the division
model, counted on cases traced by hand."""

from __future__ import annotations

import random

import pytest

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.model import TournamentError
from tessera.tournament.pairing.gibson import clinched_first
from tessera.tournament.ratings.naspa import expected_wins
from tessera.tournament.simulate import (
    ResultModel,
    SimulationConfig,
    play_event,
    simulate,
    uneven_byes,
)

# every game a tie on equal scores: the standings never move from seed order
ALL_TIES = ResultModel(spread_sd=0, score_sd=0)


def test_a_run_reproduces_exactly_for_its_seed() -> None:
    config = SimulationConfig("swiss", players=9, rounds=5)
    first, again = simulate(config, 4, seed=7), simulate(config, 4, seed=7)
    assert first.outcomes == again.outcomes
    one = play_event(config, 7, 2)
    assert [r.pairings for r in one.rounds] == [r.pairings for r in play_event(config, 7, 2).rounds]
    assert one.division.standings() == play_event(config, 7, 2).division.standings()
    other = play_event(config, 8, 2)
    assert [p.rating for p in one.division.players] != [p.rating for p in other.division.players]


def test_events_are_played_through_the_division_model() -> None:
    event = play_event(SimulationConfig("swiss", players=6, rounds=3), 1)
    division = event.division
    assert division.rounds_complete == 3 and len(event.rounds) == 3
    for r, played in enumerate(event.rounds, 1):
        assert played.history.rounds_played == r - 1
        assert [(g.first, g.second, g.board) for g in division.round_games(r)] == [
            (p.first, p.second, p.board) for p in played.pairings]
        for game in division.round_games(r):
            assert game.scores is not None and all(0 <= s <= 1500 for s in game.scores)


def test_king_of_the_hill_repeats_where_swiss_and_round_robin_do_not() -> None:
    """Four players, three rounds, every game a tie: the standings stay in seed order 1-4.
    King of the Hill pairs 1v2 and 3v4 every round: 2 repeats in each of rounds 2 and 3, 4 in
    all. Swiss avoids them (1-2 3-4, then 1-3 2-4, then 1-4 2-3), as does the round robin."""
    def outcome(system: str):
        config = SimulationConfig(system, players=4, rounds=3, result_model=ALL_TIES,
                                  ratings=(1800, 1700, 1600, 1500))
        return simulate(config, 1).outcomes[0]

    assert outcome("koth").repeats == 4
    assert outcome("swiss").repeats == 0
    assert outcome("round_robin").repeats == 0
    report = simulate(SimulationConfig("koth", 4, 3, result_model=ALL_TIES), 2)
    assert report.repeats == 8 and report.events_with_repeats == 2
    assert "repeat pairings: 8 (4.00 an event; 2 events had any)" in report.lines()


def test_two_players_repeat_every_round_after_the_first_and_alternate_firsts() -> None:
    outcome = simulate(SimulationConfig("swiss", players=2, rounds=4), 1).outcomes[0]
    assert outcome.repeats == 3 and outcome.max_byes == 0
    assert outcome.max_firsts_imbalance == 0  # the one with fewer firsts goes first


def test_byes_rotate_and_are_counted() -> None:
    """Three players: a round robin gives each one bye; a fourth Swiss round gives a second
    bye, but only when everyone has had one, so none is uneven."""
    robin = simulate(SimulationConfig("round_robin", players=3, rounds=3), 1).outcomes[0]
    assert (robin.max_byes, robin.uneven_byes) == (1, 0)
    swiss = simulate(SimulationConfig("swiss", players=3, rounds=4), 1).outcomes[0]
    assert (swiss.max_byes, swiss.uneven_byes) == (2, 0)


def test_a_bye_to_a_player_who_had_one_while_another_had_none_is_uneven() -> None:
    players = (PlayerRecord(1, "A", 1500, 1, 1, 50, (None,), byes=1),
               PlayerRecord(2, "B", 1500, 2, 0, 0, (3,)),
               PlayerRecord(3, "C", 1500, 3, 1, 0, (2,)))
    history = DivisionHistory(players, 1, 3)
    assert uneven_byes(history, [Pairing(2, 3, 1), Pairing(1, None, 2)]) == 1
    assert uneven_byes(history, [Pairing(1, 3, 1), Pairing(2, None, 2)]) == 0


def test_gibson_cases_are_the_rounds_paired_with_first_clinched() -> None:
    """A 4000-rated player among three rated 500 wins every game (the expectation leaves one
    loss in about 300,000): over ten rounds they clinch first well before the end."""
    config = SimulationConfig("swiss", players=4, rounds=10, ratings=(4000, 500, 500, 500))
    event = play_event(config, 3)
    clinched = [r for r in event.rounds if clinched_first(r.history) is not None]
    assert event.outcome.gibson_rounds == len(clinched) >= 1
    assert all(clinched_first(r.history).number == 1 for r in clinched)
    assert event.rounds[-1] in clinched and event.rounds[0] not in clinched
    assert event.outcome.top_seed_won


def test_the_top_seed_is_the_highest_rated_not_player_one() -> None:
    config = SimulationConfig("swiss", players=2, rounds=1, ratings=(0, 4000))
    event = play_event(config, 0)
    assert event.division.standings()[0].number == 2 and event.outcome.top_seed_won
    losing = SimulationConfig("swiss", players=2, rounds=1, ratings=(4000, 0),
                              result_model=ALL_TIES)
    # a tie, broken by seed: the top seed (player 1) is first
    assert play_event(losing, 0).outcome.top_seed_won


def test_withdrawn_players_are_not_paired_after_they_leave() -> None:
    config = SimulationConfig("swiss", players=6, rounds=3, withdrawals=((2, 4),))
    event = play_event(config, 5)
    assert any(4 in (p.first, p.second) for p in event.rounds[0].pairings)
    for played in event.rounds[1:]:
        assert all(4 not in (p.first, p.second) for p in played.pairings)


def test_fontes_hands_over_to_the_next_system_after_its_rounds() -> None:
    config = SimulationConfig("fontes", players=8, rounds=5)
    assert [config.system_for_round(r) for r in range(1, 6)] == ["fontes"] * 3 + ["swiss"] * 2
    assert play_event(config, 0).division.rounds_complete == 5
    assert "paired fontes then swiss" in simulate(config, 1).lines()[0]


def test_progress_is_called_after_each_event() -> None:
    calls: list[tuple[int, int]] = []
    simulate(SimulationConfig("random", 4, 2), 3, progress=lambda done, n: calls.append((done, n)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_the_result_model_follows_naspas_expectation() -> None:
    """Over many games the player rated 200 above wins as often as NASPA's expectation says
    (ties, a spread within half a point of 0, take about 0.4%); scores stay in range."""
    model, rng = ResultModel(), random.Random(1)
    games = [model.scores(1700, 1500, 1500, 500, rng) for _ in range(20_000)]
    wins = sum(a > b for a, b in games) / len(games)
    ties = sum(a == b for a, b in games) / len(games)
    assert abs(wins + ties / 2 - expected_wins(1700, 1500)) < 0.012
    assert 0.001 < ties < 0.01
    assert all(0 <= a <= 1500 and 0 <= b <= 1500 and abs(a - b) <= 500 for a, b in games)
    assert max(abs(a - b) for a, b in games) > 250  # spreads vary, the 500 limit binds rarely


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"system": "manual"}, "cannot simulate pairing system 'manual'"),
    ({"system": "nope"}, "cannot simulate pairing system 'nope'"),
    ({"players": 1}, "simulate 2 to"),
    ({"rounds": 0}, "simulate 1 to 200 rounds"),
    ({"players": 3, "ratings": (1500, 1500)}, "2 ratings given for 3 players"),
    ({"withdrawals": ((13, 1),)}, "withdrawal of player 1 before round 13"),
])
def test_impossible_simulations_are_refused_in_one_line(kwargs, message) -> None:
    with pytest.raises(TournamentError, match=message):
        SimulationConfig(**kwargs)


def test_an_event_count_out_of_range_is_refused() -> None:
    with pytest.raises(TournamentError, match="simulate 1 to 1,000,000 events, not 0"):
        simulate(SimulationConfig(), 0)
