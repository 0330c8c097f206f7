"""Gibsonization and prize contention (tessera.tournament.pairing.gibson and swiss)."""

from __future__ import annotations

import random
from dataclasses import replace

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import PairingSettings, pair_round
from tessera.tournament.pairing.gibson import clinched_first, contenders


def record(number: int, wins: float, spread: int, opponents=()) -> PlayerRecord:
    return PlayerRecord(number, f"P{number}", 1800, number, wins, spread, tuple(opponents))


def standings(rows, rounds_played: int, total: int, prizes: int = 1, max_spread: int = 300):
    return DivisionHistory(tuple(record(*r) for r in rows), rounds_played, total, prizes,
                           max_spread)


# after 8 of 10 rounds: the leader on 8 wins, the next on 5, then 4s and below
ROWS = [(1, 8, 900), (2, 5, 300), (3, 5, 100), (4, 4, 50), (5, 4, -20), (6, 3, -600),
        (7, 2, -400), (8, 1, -630)]


def test_a_lead_of_more_than_the_rounds_left_is_clinched() -> None:
    assert clinched_first(standings(ROWS, 8, 10)).number == 1


def test_not_one_round_earlier() -> None:
    """The same standings with three rounds left: 5 + 3 = 8 ties the leader's 8 on wins, and
    300 + 3 x 300 spread could beat 900 - 3 x 300: not clinched, on wins or on spread."""
    assert clinched_first(standings(ROWS, 7, 10), on_spread=True) is None
    assert clinched_first(standings(ROWS, 7, 10), on_spread=False) is None


def test_clinched_on_spread_only_when_the_setting_allows() -> None:
    """Two rounds left, second place can reach 8 wins (a tie on wins) but cannot make up
    spread: 300 + 2 x 100 < 900 - 2 x 100."""
    rows = [(1, 8, 900), (2, 6, 300), (3, 5, 0), (4, 1, -1200)]
    history = standings(rows, 8, 10, max_spread=100)
    assert clinched_first(history, on_spread=True).number == 1
    assert clinched_first(history, on_spread=False) is None
    wider = standings(rows, 8, 10, max_spread=200)  # 300 + 400 >= 900 - 400: catchable
    assert clinched_first(wider, on_spread=True) is None


def test_contenders_are_those_who_can_still_reach_a_prize() -> None:
    history = standings(ROWS, 8, 10, prizes=3)
    # third place has 5 wins; 4 + 2 = 6 > 5; 3 + 2 = 5 ties, but -600 + 2 x 300 < 100: out
    assert contenders(history) == {1, 2, 3, 4, 5}
    assert contenders(standings(ROWS, 8, 10, prizes=1)) == {1}


def test_gibsonized_leader_plays_the_highest_non_contender() -> None:
    history = standings(ROWS, 8, 10, prizes=3)
    rows = pair_round("swiss", history, PairingSettings(), random.Random(1))
    leader_game = next(p for p in rows if 1 in (p.first, p.second))
    assert {leader_game.first, leader_game.second} == {1, 6}
    assert leader_game.board == 1
    # the contenders play among themselves: 2-3 and 4-5
    games = {frozenset((p.first, p.second)) for p in rows}
    assert {frozenset({2, 3}), frozenset({4, 5}), frozenset({7, 8})} <= games


def test_one_round_earlier_the_leader_is_paired_normally() -> None:
    history = standings(ROWS, 7, 10, prizes=3)
    rows = pair_round("swiss", history, PairingSettings(), random.Random(1))
    games = {frozenset((p.first, p.second)) for p in rows}
    assert frozenset({1, 2}) in games


def test_gibson_bye_setting_gives_the_leader_the_bye_when_one_is_due() -> None:
    history = standings(ROWS[:7], 8, 10, prizes=3)  # seven players: a bye is due
    rows = pair_round("swiss", history, PairingSettings(gibson="bye"), random.Random(1))
    assert [p.first for p in rows if p.second is None] == [1]
    normal = pair_round("swiss", history, PairingSettings(), random.Random(1))
    assert [p.first for p in normal if p.second is None] == [7]


def test_gibson_off_pairs_the_leader_like_anyone() -> None:
    history = standings(ROWS, 8, 10, prizes=3)
    rows = pair_round("swiss", history, PairingSettings(gibson="off"), random.Random(1))
    games = {frozenset((p.first, p.second)) for p in rows}
    assert frozenset({1, 2}) in games


def test_the_bye_rotates_before_the_gibsonized_leader_chooses_an_opponent() -> None:
    """Seven players, 7 has had a bye: the bye is 6's turn, though 6 is also the highest
    non-contender; 6 sits out and the leader plays the next non-contender, 7."""
    history = standings(ROWS[:7], 8, 10, prizes=3)
    players = tuple(replace(p, byes=1) if p.number == 7 else p for p in history.players)
    history = replace(history, players=players)
    rows = pair_round("swiss", history, PairingSettings(), random.Random(1))
    assert [p.first for p in rows if p.second is None] == [6]
    leader_game = next(p for p in rows if 1 in (p.first, p.second))
    assert {leader_game.first, leader_game.second} == {1, 7}


def test_last_round_king_of_the_hill_among_prize_contenders() -> None:
    """Last round, two prizes: 1, 2, 3 and 4 can still reach second place and play 1v2, 3v4
    although 1 and 2 have met; 5 and 6 are matched as usual."""
    rows = [(1, 6, 300, (2, 3)), (2, 5, 200, (1, 4)), (3, 5, 100, (4, 1)),
            (4, 5, 50, (3, 2)), (5, 3, -200, (6,)), (6, 1, -450, (5,))]
    history = standings(rows, 8, 9, prizes=2)
    assert contenders(history) == {1, 2, 3, 4}
    koth = pair_round("swiss", history, PairingSettings(last_round_koth=True, gibson="off"))
    assert pairs_of(koth) == {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}
    plain = pair_round("swiss", history, PairingSettings(gibson="off"))
    assert frozenset({1, 2}) not in pairs_of(plain)


def pairs_of(rows) -> set[frozenset[int | None]]:
    return {frozenset((p.first, p.second)) for p in rows}
