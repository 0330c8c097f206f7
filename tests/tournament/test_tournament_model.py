"""The division model: pairing, results, corrections, late entries, withdrawals, and the
history the pairing systems take. Standings here are worked out by hand in each test."""

from __future__ import annotations

import pytest

from tessera.tournament import (
    Division,
    Event,
    GameKind,
    Pairing,
    ScoringSettings,
    TournamentError,
)


def four_player_round_robin() -> Division:
    """Ann 1900, Bob 1800, Cy 1700, Di 1600; three rounds, every result entered.

    R1: Ann 400-300 Di, Bob 350-380 Cy.  R2: Ann 390-410 Cy, Di 420-420 Bob.
    R3: Ann 450-350 Bob, Cy 300-402 Di.
    By hand: Ann 2 wins +180, Cy 2 wins -52, Di 1.5 wins +2, Bob 0.5 wins -130.
    """
    d = Division("A", 3)
    for name, rating in (("Ann", 1900), ("Bob", 1800), ("Cy", 1700), ("Di", 1600)):
        d.add_player(name, rating)
    d.pair_round([Pairing(1, 4, 1), Pairing(2, 3, 2)])
    d.record_result(1, 1, 400, 4, 300)
    d.record_result(1, 3, 380, 2, 350)  # either order
    d.pair_round([Pairing(1, 3, 1), Pairing(4, 2, 2)])
    d.record_result(2, 1, 390, 3, 410)
    d.record_result(2, 4, 420, 2, 420)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    d.record_result(3, 1, 450, 2, 350)
    d.record_result(3, 3, 300, 4, 402)
    return d


def summary(d: Division, through: int | None = None) -> list[tuple[str, float, int]]:
    return [(s.entrant.name, s.points, s.spread) for s in d.standings(through)]


def test_standings_by_wins_then_spread_worked_by_hand() -> None:
    d = four_player_round_robin()
    assert summary(d) == [("Ann", 2.0, 180), ("Cy", 2.0, -52), ("Di", 1.5, 2), ("Bob", 0.5, -130)]
    ann, cy, di, bob = d.standings()
    assert (ann.won, ann.lost, ann.tied, ann.cumulative_score) == (2, 1, 0, 1240)
    assert (ann.high_game, cy.high_game, cy.opponents_points) == (450, 410, 4.0)
    assert (bob.won, bob.lost, bob.tied, bob.cumulative_score) == (0, 2, 1, 1120)
    assert (di.won, di.lost, di.tied, di.cumulative_score, di.high_game) == (1, 1, 1, 1122, 420)
    assert (ann.firsts, ann.seconds, bob.firsts, bob.seconds) == (3, 0, 1, 2)
    assert [s.rank for s in d.standings()] == [1, 2, 3, 4]
    assert summary(d, through=1) == [("Ann", 1.0, 100), ("Cy", 1.0, 30), ("Bob", 0.0, -30),
                                     ("Di", 0.0, -100)]


def test_a_player_record_round_by_round() -> None:
    d = four_player_round_robin()
    rounds = d.player_rounds(2)
    assert [(r.round, r.opponent, r.went_first, r.score, r.opponent_score, r.result)
            for r in rounds] == [
        (1, 3, True, 350, 380, "L"),
        (2, 4, False, 420, 420, "T"),
        (3, 1, False, 350, 450, "L"),
    ]


def test_correction_recomputes_everything_after_and_keeps_pairings() -> None:
    d = four_player_round_robin()
    pairings_before = [[(g.first, g.second, g.board) for g in games] for games in d.rounds]
    d.correct_result(1, 2, 450, 3, 380)  # Bob really beat Cy in round 1
    assert summary(d) == [("Ann", 2.0, 180), ("Di", 1.5, 2), ("Bob", 1.5, -30), ("Cy", 1.0, -152)]
    assert summary(d, through=1)[:2] == [("Ann", 1.0, 100), ("Bob", 1.0, 70)]
    assert [[(g.first, g.second, g.board) for g in games] for games in d.rounds] == pairings_before


def test_undo_a_result_then_enter_it_again() -> None:
    d = four_player_round_robin()
    d.clear_result(3, 4)
    assert d.rounds_complete == 2
    assert d.history().rounds_played == 2
    assert summary(d)[:2] == [("Ann", 2.0, 180), ("Cy", 2.0, 50)]
    d.record_result(3, 4, 402, 3, 300)
    assert summary(d) == summary(four_player_round_robin())


def test_bye_and_forfeit_use_the_settings() -> None:
    settings = ScoringSettings(bye_spread=75, forfeit_win_spread=30, forfeit_loss_spread=-40)
    d = Division("B", 2, settings)
    for name in ("Ann", "Bob", "Cy"):
        d.add_player(name, 1500)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d.record_forfeit(1, 2)
    got = {s.entrant.name: (s.points, s.spread, s.won, s.lost, s.byes) for s in d.standings()}
    assert got == {"Ann": (1.0, 30, 1, 0, 0), "Bob": (0.0, -40, 0, 1, 0),
                   "Cy": (1.0, 75, 1, 0, 1)}
    d.correct_result(1, 2, 400, 1, 300)  # the forfeit was entered in error
    assert {s.entrant.name: s.spread for s in d.standings()} == {"Ann": -100, "Bob": 100,
                                                                "Cy": 75}


def test_default_conventions() -> None:
    s = ScoringSettings()
    assert (s.win, s.tie, s.bye_points, s.bye_spread, s.forfeit_loss_points,
            s.forfeit_loss_spread, s.forfeit_win_spread) == (1, 0.5, 1, 50, 0, -50, 50)
    with pytest.raises(TournamentError, match="loss < tie < win"):
        ScoringSettings(tie=1.0)
    with pytest.raises(TournamentError, match="unknown tie-break 'coin_toss'"):
        ScoringSettings(tie_breaks=("coin_toss",))


def started_division() -> Division:
    d = Division("C", 3)
    d.add_player("Ann", 1800)
    d.add_player("Bob", 1700)
    d.pair_round([Pairing(1, 2, 1)])
    d.record_result(1, 1, 400, 2, 350)
    return d


def test_late_entry_with_forfeit_losses() -> None:
    d = started_division()
    cy = d.add_player("Cy", 1600, missed="forfeit")
    assert cy.joined_round == 2
    (missed,) = d.player_rounds(3)
    assert (missed.kind, missed.points, missed.spread, missed.result, missed.opponent) == (
        "missed", 0.0, -50, "L", None)
    d.pair_round([Pairing(3, 1, 1), Pairing(2, None, 0)])
    assert [r.opponent for r in d.player_rounds(3)] == [None]  # round 2 not played yet
    d.record_result(2, 3, 420, 1, 400)
    assert [(r.opponent, r.result) for r in d.player_rounds(3)] == [(None, "L"), (1, "W")]


def test_late_entry_with_byes() -> None:
    d = started_division()
    d.add_player("Cy", 1600, missed="bye")
    cy = next(s for s in d.standings() if s.entrant.name == "Cy")
    assert (cy.points, cy.spread, cy.byes, cy.won) == (1.0, 50, 1, 1)
    assert d.history().player(3).byes == 1


def test_history_is_standings_order_of_complete_rounds() -> None:
    d = four_player_round_robin()
    h = d.history()
    assert [p.name for p in h.players] == ["Ann", "Cy", "Di", "Bob"]
    assert (h.rounds_played, h.total_rounds, h.rounds_left) == (3, 3, 0)
    ann = h.player(1)
    assert (ann.wins, ann.spread, ann.opponents, ann.firsts, ann.seconds, ann.seed) == (
        2.0, 180, (4, 3, 2), 3, 0, 1)
    d2 = started_division()
    d2.add_player("Cy", 1600, missed="bye")
    d2.withdraw(2)
    h2 = d2.history()
    assert [(p.number, p.active, p.opponents) for p in h2.players] == [
        (1, True, (2,)), (3, True, (None,)), (2, False, (1,))]


def test_history_counts_only_complete_rounds() -> None:
    d = started_division()
    d.pair_round([Pairing(2, 1, 1)])
    h = d.history()
    assert h.rounds_played == 1
    assert h.player(1).opponents == (2,)


def test_withdrawn_player_is_left_out_of_later_rounds() -> None:
    d = started_division()
    d.add_player("Cy", 1600, missed="bye")
    d.withdraw(3)
    d.pair_round([Pairing(2, 1, 1)])  # Cy need not (and may not) be paired
    assert d.players[2].withdrawn_from == 2


def test_unpair_last_round() -> None:
    d = started_division()
    d.pair_round([Pairing(2, 1, 1)])
    assert d.unpair_last_round() == 2
    assert len(d.rounds) == 1
    d.pair_round([Pairing(1, 2, 1)])
    assert d.rounds[1][0].first == 1


def test_seeds_by_rating_unless_the_director_sets_them() -> None:
    d = Division("D", 2)
    d.add_player("Low", 1000)
    d.add_player("High", 2000)
    chosen = d.add_player("Chosen", 1500, seed=1, account="chosen@club", player_class="B")
    assert d.seeds() == {3: 1, 2: 2, 1: 3}
    assert (chosen.number, chosen.account, chosen.player_class) == (3, "chosen@club", "B")


def test_event_holds_divisions_by_name() -> None:
    event = Event("Club night")
    a = event.add_division(Division("A", 3))
    assert event.division("A") is a
    with pytest.raises(TournamentError, match="already has a division A"):
        event.add_division(Division("A", 5))
    with pytest.raises(TournamentError, match=r"no division 'B' \(divisions: A\)"):
        event.division("B")


# -- impossible requests: one clear line, nothing changed -------------------------------


def snapshot(d: Division) -> tuple[object, ...]:
    return (d.players, d.rounds, d.standings())


def paired_division() -> Division:
    d = Division("E", 2)
    for name in ("Ann", "Bob", "Cy", "Di"):
        d.add_player(name, 1500)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    d.record_result(1, 1, 400, 2, 300)
    return d


IMPOSSIBLE = [
    (lambda d: d.pair_round([Pairing(1, 3, 1), Pairing(2, 4, 2)]),
     r"cannot pair round 2: round 1 is not complete \(no result for 3 v 4\)"),
    (lambda d: d.record_result(1, 3, -5, 4, 300), "negative score -5 for player 3"),
    (lambda d: d.record_result(1, 3, 400, 1, 300),
     r"players 3 and 1 were not paired in round 1 \(round 1: 3 v 4\)"),
    (lambda d: d.record_result(1, 3, 400, 9, 300), "division E has no player 9"),
    (lambda d: d.record_result(2, 3, 400, 4, 300), "round 2 of division E is not paired"),
    (lambda d: d.record_result(1, 1, 400, 2, 300), "already has a result .400-300.; correct"),
    (lambda d: d.correct_result(1, 3, 400, 4, 300), "3 v 4 has no result to correct"),
    (lambda d: d.record_result(1, 3, 2000, 4, 300), "score 2000 for player 3 is above"),
    (lambda d: d.record_result(1, 3, 400.5, 4, 300), "not a whole number"),
    (lambda d: d.add_player("Eve", 1500), "joins late, at round 2"),
    (lambda d: d.add_player("", 1500), "needs a name"),
    (lambda d: d.add_player("Eve", -3, missed="bye"), "rating -3 for Eve"),
    (lambda d: d.add_player("Eve", 1500, account="", missed="bye"), "account for Eve"),
    (lambda d: d.add_player("Eve", 1500, missed="bye", rated_games=-1),
     "rated games -1 for Eve: must be 0 to 1000000"),
    (lambda d: d.add_player("Eve", 1500, missed="bye", rated_games=True), "rated games True"),
    (lambda d: d.record_forfeit(1, 1), "already has a result .400-300.; correct it instead"),
    (lambda d: d.record_forfeit(1, 3, 1),
     r"players 3 and 1 were not paired in round 1 \(round 1: 3 v 4\)"),
    (lambda d: d.record_forfeit(1, 3, 4, correcting=True), "3 v 4 has no result to correct"),
    (lambda d: d.clear_result(1, 3), "has no result to clear"),
    (lambda d: d.unpair_last_round(), r"round 1 has results \(1 v 2\)"),
]


@pytest.mark.parametrize(("action", "message"), IMPOSSIBLE)
def test_impossible_request_is_refused_and_changes_nothing(action, message) -> None:
    d = paired_division()
    before = snapshot(d)
    with pytest.raises(TournamentError, match=message) as caught:
        action(d)
    assert "\n" not in str(caught.value)
    assert snapshot(d) == before


PAIRING_ERRORS = [
    ([Pairing(1, 9, 1), Pairing(3, 4, 2)], "division E has no player 9"),
    ([Pairing(1, 3, 1), Pairing(3, 4, 2)], "player 3 is paired twice in round 2"),
    ([Pairing(1, 3, 1)], r"round 2 leaves out player\(s\) 2, 4"),
    ([Pairing(1, 3, 1), Pairing(2, 4, 1)], "board 1 is used twice in round 2"),
    ([Pairing(1, 3, 0), Pairing(2, 4, 1)], "boards start at 1"),
    ([Pairing(1, 3, 1), Pairing(2, 4, 2), Pairing(5, None, 0)], "withdrew and cannot be paired"),
    ([], "round 2 of division E has no games"),
]


@pytest.mark.parametrize(("pairings", "message"), PAIRING_ERRORS)
def test_bad_pairings_are_refused_and_change_nothing(pairings, message) -> None:
    d = paired_division()
    d.record_result(1, 3, 350, 4, 360)
    d.add_player("Eve", 1400, missed="forfeit")
    d.withdraw(5)
    before = snapshot(d)
    with pytest.raises(TournamentError, match=message):
        d.pair_round(pairings)
    assert snapshot(d) == before


def test_no_round_past_the_last() -> None:
    d = paired_division()
    d.record_result(1, 3, 350, 4, 360)
    d.pair_round([Pairing(1, 3, 1), Pairing(2, 4, 2)])
    d.record_result(2, 1, 350, 3, 360)
    d.record_result(2, 2, 350, 4, 360)
    before = snapshot(d)
    with pytest.raises(TournamentError, match="plays 2 rounds; all are paired"):
        d.pair_round([Pairing(1, 4, 1), Pairing(2, 3, 2)])
    with pytest.raises(TournamentError, match="already paired"):
        d.add_player("Eve", 1500, missed="bye")
    assert snapshot(d) == before


def test_withdraw_twice_and_forfeit_a_bye_are_refused() -> None:
    d = started_division()
    d.add_player("Cy", 1500, missed="bye")
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    with pytest.raises(TournamentError, match="no opponent in round 2 to forfeit to"):
        d.record_forfeit(2, 3)
    d.withdraw(3)
    before = snapshot(d)
    with pytest.raises(TournamentError, match=r"already withdrew from round 3"):
        d.withdraw(3)
    assert snapshot(d) == before


def test_restore_checks_the_whole_record() -> None:
    d = four_player_round_robin()
    again = Division.restore("A", 3, d.players, d.rounds)
    assert again.standings() == d.standings()
    twice = [d.rounds[0], (*d.rounds[1][:1], d.rounds[1][0])]
    with pytest.raises(TournamentError, match="player 1 is in round 2 twice"):
        Division.restore("A", 3, d.players, twice)
    bye_with_opponent = [(d.rounds[0][0].__class__(1, 2, 1, GameKind.BYE),)]
    with pytest.raises(TournamentError, match="a bye with these players"):
        Division.restore("A", 3, d.players, bye_with_opponent)


def test_a_player_keeps_their_rated_games_and_restore_checks_them() -> None:
    from dataclasses import replace

    d = Division("G", 2)
    ann = d.add_player("Ann", 1800, rated_games=120)
    bob = d.add_player("Bob", 1700)
    assert (ann.rated_games, bob.rated_games) == (120, None)
    assert Division.restore("G", 2, d.players, ()).players == d.players
    bad = [d.players[0], replace(d.players[1], rated_games=-4)]
    with pytest.raises(TournamentError, match="rated games -4 for player 2"):
        Division.restore("G", 2, bad, ())


def test_a_forfeit_names_both_players_and_can_replace_a_result() -> None:
    d = paired_division()  # round 1: Ann 400-300 Bob, Cy v Di unplayed
    d.record_forfeit(1, 4, 3)  # Di forfeits to Cy
    game = d.record_forfeit(1, 2, 1, correcting=True)  # Bob did not play after all
    assert (game.kind, game.forfeited_by, game.scores) == (GameKind.FORFEIT, 2, None)
    assert summary(d) == [("Ann", 1.0, 50), ("Cy", 1.0, 50), ("Bob", 0.0, -50),
                          ("Di", 0.0, -50)]
