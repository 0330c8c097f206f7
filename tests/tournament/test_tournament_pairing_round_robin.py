"""Round robin on the Berger tables (tessera.tournament.pairing.round_robin)."""

from __future__ import annotations

import itertools
import random

import pytest

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import PairingError, PairingSettings, pair_round
from tessera.tournament.pairing.round_robin import berger_round, schedule_round


def division(n: int, rounds_played: int = 0, total: int = 30, withdrawn=()) -> DivisionHistory:
    players = tuple(
        PlayerRecord(i, f"P{i}", 2000 - i, i, 0, 0, (None,) * rounds_played,
                     active=i not in withdrawn)
        for i in range(1, n + 1)
    )
    return DivisionHistory(players, rounds_played, total)


def test_six_player_schedule_is_fides_berger_table() -> None:
    """FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", the table for
    5 or 6 players (https://handbook.fide.com/chapter/C05Annex1), white listed first:
    Rd 1: 1-6 2-5 3-4; Rd 2: 6-4 5-3 1-2; Rd 3: 2-6 3-1 4-5; Rd 4: 6-5 1-4 2-3;
    Rd 5: 3-6 4-2 5-1."""
    table = {
        1: {(1, 6), (2, 5), (3, 4)},
        2: {(6, 4), (5, 3), (1, 2)},
        3: {(2, 6), (3, 1), (4, 5)},
        4: {(6, 5), (1, 4), (2, 3)},
        5: {(3, 6), (4, 2), (5, 1)},
    }
    for r, games in table.items():
        assert set(berger_round(6, r)) == games


def test_four_player_schedule_is_fides_berger_table() -> None:
    """The same FIDE table for 3 or 4 players: Rd 1: 1-4 2-3; Rd 2: 4-3 1-2; Rd 3: 2-4 3-1."""
    assert set(berger_round(4, 1)) == {(1, 4), (2, 3)}
    assert set(berger_round(4, 2)) == {(4, 3), (1, 2)}
    assert set(berger_round(4, 3)) == {(2, 4), (3, 1)}


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_once_and_firsts_balance(n: int) -> None:
    history = division(n)
    met: list[frozenset[int]] = []
    firsts = dict.fromkeys(range(1, n + 1), 0)
    seconds = dict.fromkeys(range(1, n + 1), 0)
    rounds = n - 1 + n % 2
    for r in range(1, rounds + 1):
        games, byes = schedule_round(history, r, 1)
        assert len(byes) == n % 2
        seen = [p for g in games for p in g] + byes
        assert sorted(seen) == list(range(1, n + 1))
        met += [frozenset(g) for g in games]
        for a, b in games:
            firsts[a] += 1
            seconds[b] += 1
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(set, itertools.combinations(
        range(1, n + 1), 2))))
    # over an odd number of games a player leans one way; the Berger tables never two
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in range(1, n + 1))


def test_odd_count_gives_one_bye_a_round_each_player_once() -> None:
    history = division(5)
    byes = []
    for r in range(1, 6):
        _, bye = schedule_round(history, r, 1)
        byes += bye
    assert sorted(byes) == [1, 2, 3, 4, 5]


def test_double_round_robin_repeats_with_firsts_swapped() -> None:
    history = division(4)
    for r in range(1, 4):
        first_half, _ = schedule_round(history, r, 2)
        second_half, _ = schedule_round(history, r + 3, 2)
        assert sorted(second_half) == sorted((b, a) for a, b in first_half)


def test_pairs_the_next_round_and_numbers_boards() -> None:
    rows = pair_round("round_robin", division(6, rounds_played=1))
    assert {(p.first, p.second) for p in rows} == {(6, 4), (5, 3), (1, 2)}
    # boards in standings order of the higher-ranked player: 1-2, then 3's game, then 4's
    assert [(p.first, p.second, p.board) for p in rows] == [(1, 2, 1), (5, 3, 2), (6, 4, 3)]


def test_withdrawn_players_opponent_has_a_bye_and_the_schedule_stays() -> None:
    rows = pair_round("round_robin", division(6, withdrawn={6}))
    assert {(p.first, p.second) for p in rows} == {(2, 5), (3, 4), (1, None)}


def test_a_round_past_the_schedule_is_refused() -> None:
    with pytest.raises(PairingError, match="has 5 rounds; there is no round 6"):
        pair_round("round_robin", division(6, rounds_played=5))
    rows = pair_round("double_round_robin", division(6, rounds_played=5),
                      PairingSettings(), random.Random(0))
    assert {(p.first, p.second) for p in rows} == {(6, 1), (5, 2), (4, 3)}
