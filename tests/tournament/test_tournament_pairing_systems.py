"""King of the Hill, Initial Fontes, the Australian draw, random and manual pairing, byes,
firsts and the registry (tessera.tournament.pairing)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import SYSTEMS, PairingError, PairingSettings, pair_round
from tessera.tournament.pairing.byes import bye_player
from tessera.tournament.pairing.firsts import first_of
from tessera.tournament.pairing.fontes import fontes_groups


def rec(number, wins=0.0, opponents=(), firsts=0, seconds=0, byes=0, active=True, seed=None):
    return PlayerRecord(number, f"P{number}", 2000 - number, seed or number, wins, 0,
                        tuple(opponents), firsts, seconds, byes, active)


def div(players, rounds_played=0, total=8) -> DivisionHistory:
    return DivisionHistory(tuple(players), rounds_played, total)


def games(rows) -> set[frozenset[int | None]]:
    return {frozenset((p.first, p.second)) for p in rows}


def test_king_of_the_hill_pairs_down_the_standings_repeats_or_not() -> None:
    """King of the Hill as directors describe it: first plays second, third plays fourth...
    even when they have met before."""
    players = [rec(3, 2, (1, 2)), rec(1, 2, (3, 4)), rec(4, 1, (2, 1)), rec(2, 0, (4, 3))]
    rows = pair_round("koth", div(players, 2))
    assert games(rows) == {frozenset({3, 1}), frozenset({4, 2})}
    assert [r.board for r in rows] == [1, 2]


def test_king_of_the_hill_odd_count_rotates_the_bye() -> None:
    players = [rec(1, 1), rec(2, 1), rec(3, 0, byes=1), rec(4, 0), rec(5, 0, byes=1)]
    rows = pair_round("koth", div(players, 1))
    assert [r.first for r in rows if r.second is None] == [4]
    assert games(rows) == {frozenset({1, 2}), frozenset({3, 5}), frozenset({4, None})}


def test_fontes_groups_take_one_player_from_each_quartile() -> None:
    """Initial Fontes (quartile seeding) for 3 rounds: 12 players make 3 groups of 4, one from
    each quartile, dealt as a snake (1 2 3 | 6 5 4 | 7 8 9 | 12 11 10) so the groups are
    about equally strong: seed totals 26 each."""
    players = [rec(i) for i in range(1, 13)]
    groups = fontes_groups(players, 3)
    assert [[p.number for p in g] for g in groups] == [[1, 6, 7, 12], [2, 5, 8, 11],
                                                        [3, 4, 9, 10]]


def test_fontes_plays_a_round_robin_in_each_group_top_two_last() -> None:
    players = [rec(i) for i in range(1, 9)]  # groups [1,4,5,8] and [2,3,6,7]
    rounds = [games(pair_round("fontes", div(players, r, 7))) for r in range(3)]
    assert rounds[0] == {frozenset(s) for s in ({1, 8}, {4, 5}, {2, 7}, {3, 6})}
    assert rounds[1] == {frozenset(s) for s in ({1, 5}, {4, 8}, {2, 6}, {3, 7})}
    assert rounds[2] == {frozenset(s) for s in ({1, 4}, {5, 8}, {2, 3}, {6, 7})}
    with pytest.raises(PairingError, match="rounds 1 to 3; round 4 needs another system"):
        pair_round("fontes", div(players, 3, 7))


def test_fontes_short_groups_pair_their_waiting_players_one_bye_at_most() -> None:
    for n in range(5, 20):
        players = [rec(i) for i in range(1, n + 1)]
        met = set()
        for r in range(3):
            rows = pair_round("fontes", div(players, r, 7))
            assert sum(1 for p in rows if p.second is None) == n % 2
            assert sorted(x for p in rows for x in (p.first, p.second) if x) == list(
                range(1, n + 1))
            met |= {frozenset((p.first, p.second)) for p in rows if p.second}
        assert len(met) == 3 * (n // 2)  # no pair meets twice in the opening


def test_australian_draw_top_down_first_unplayed() -> None:
    """The Australian draw: from the top, each player meets the highest-placed player left
    whom they have not played. 1 has played 2, so 1-3; then 2 meets 4 (not 5: higher)."""
    players = [rec(1, 2, (2, 6)), rec(2, 1, (1, 5)), rec(3, 1, (5, 4)), rec(4, 1, (6, 3)),
               rec(5, 1, (3, 2)), rec(6, 0, (4, 1))]
    rows = pair_round("australian", div(players, 2))
    assert games(rows) == {frozenset({1, 3}), frozenset({2, 4}), frozenset({5, 6})}


def test_random_draw_is_seeded_and_avoids_repeats() -> None:
    players = [rec(i, opponents=(i + 1 if i % 2 else i - 1,)) for i in range(1, 9)]
    history = div(players, 1)
    draws = [games(pair_round("random", history, rng=random.Random(s))) for s in range(30)]
    assert draws[0] == games(pair_round("random", history, rng=random.Random(0)))
    assert len({frozenset(d) for d in draws}) > 5  # it does vary with the seed
    for d in draws:
        assert not d & {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6}),
                        frozenset({7, 8})}


def manual(pairs, players=None):
    players = players or [rec(1), rec(2), rec(3), rec(4), rec(5, active=False)]
    return pair_round("manual", div(players),
                      PairingSettings(manual_pairings=tuple(pairs)))


def test_manual_pairs_are_taken_as_given() -> None:
    rows = manual([(4, 1), (2, 3)])
    assert [(p.first, p.second, p.board) for p in rows] == [(4, 1, 1), (2, 3, 2)]


@pytest.mark.parametrize(("pairs", "message"), [
    ([(1, 2), (3, 9)], r"pair 2 \(3 v 9\): there is no player 9"),
    ([(1, 2), (3, 5), (4, None)], r"pair 2 \(3 v 5\): player 5 \(P5\) has withdrawn"),
    ([(1, 2), (2, 3), (4, None)], r"pair 2 \(2 v 3\): player 2 \(P2\) is already in pair 1"),
    ([(1, 1), (2, 3)], r"pair 1 \(1 v 1\): a player cannot play themself"),
    ([(1, 2)], r"not paired: 3 \(P3\), 4 \(P4\)"),
    ([(1, 2), (3, None), (4, None)], r"2 byes \(players 3, 4\); at most one a round"),
])
def test_manual_pairs_are_checked(pairs, message) -> None:
    with pytest.raises(PairingError, match=message):
        manual(pairs)


def test_bye_goes_to_lowest_ranked_without_one() -> None:
    players = [rec(1), rec(2), rec(3, byes=1), rec(4), rec(5, byes=1)]
    assert bye_player(players).number == 4
    assert bye_player(players[:4]) is None
    everyone_had_one = [rec(i, byes=1) for i in range(1, 4)]
    assert bye_player(everyone_had_one).number == 3


def test_fewer_firsts_goes_first_then_more_seconds_then_the_rule() -> None:
    rng = random.Random(0)
    assert first_of(rec(1, firsts=2, seconds=1), rec(2, firsts=1, seconds=2), "naspa", rng) \
        == (2, 1)
    assert first_of(rec(1, firsts=1, seconds=1), rec(2, firsts=1, seconds=0), "naspa", rng) \
        == (1, 2)
    # NASPA: the one who went second more recently goes first
    a = replace(rec(1, firsts=1, seconds=1), sides=(1, 2))
    b = replace(rec(2, firsts=1, seconds=1), sides=(2, 1))
    assert first_of(a, b, "naspa", rng) == (1, 2)
    assert first_of(replace(a, sides=(2, 1)), replace(b, sides=(1, 2)), "naspa", rng) == (2, 1)
    # equal records, or the random rule: a draw, which over many games favours no one
    draws = {first_of(a, b, "random", random.Random(s))[0] for s in range(20)}
    assert draws == {1, 2}


def test_registry_names_every_system_and_refuses_unknown_names() -> None:
    assert set(SYSTEMS) == {"round_robin", "double_round_robin", "swiss", "koth", "fontes",
                            "australian", "random", "manual"}
    with pytest.raises(PairingError, match="unknown pairing system 'danish'"):
        pair_round("danish", div([rec(1), rec(2)]))


@pytest.mark.parametrize(
    "system", ["swiss", "koth", "australian", "random", "round_robin", "double_round_robin"])
def test_a_round_past_the_last_is_refused(system: str) -> None:
    with pytest.raises(PairingError, match="all 2 rounds are paired and played"):
        pair_round(system, div([rec(1, opponents=(2, 2)), rec(2, opponents=(1, 1))], 2, 2))


def test_settings_are_checked() -> None:
    with pytest.raises(PairingError, match="unknown firsts_rule 'coin'"):
        PairingSettings(firsts_rule="coin")
    with pytest.raises(PairingError, match="fontes_rounds must be odd"):
        PairingSettings(fontes_rounds=4)
    with pytest.raises(PairingError, match="repeat_limit must be at least 1"):
        PairingSettings(repeat_limit=0)
    with pytest.raises(PairingError, match="unknown gibson mode"):
        PairingSettings(gibson="never")
