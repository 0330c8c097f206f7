"""Swiss pairing (tessera.tournament.pairing.swiss), by hand and over simulated events."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import PairingSettings, pair_round
from tessera.tournament.pairing.gibson import clinched_first
from tessera.tournament.pairing.matching import POLICIES, pair_context, pair_weight
from tessera.tournament.simulate import SimulatedRound, SimulationConfig, play_event


def rec(number, wins=0.0, opponents=(), byes=0) -> PlayerRecord:
    return PlayerRecord(number, f"P{number}", 1500, number, wins, 0, tuple(opponents), byes=byes)


def pairs_of(rows) -> set[frozenset[int | None]]:
    return {frozenset((p.first, p.second)) for p in rows}


def test_first_round_pairs_neighbours_in_seed_order() -> None:
    """Swiss by wins then spread, each player meeting the next in their score group: with no
    results (one score group in seed order), 1-2, 3-4, 5-6, 7-8."""
    rows = pair_round("swiss", DivisionHistory(tuple(rec(i) for i in range(1, 9)), 0, 5))
    assert pairs_of(rows) == {frozenset(s) for s in ({1, 2}, {3, 4}, {5, 6}, {7, 8})}
    assert [min(rows[i].first, rows[i].second) for i in range(4)] == [1, 3, 5, 7]


def test_score_groups_pair_within_and_avoid_repeats() -> None:
    """After round 1 (1 beat 2, 3 beat 4, 5 beat 6): winners 1, 3, 5 and losers 2, 4, 6. The
    winners' group is odd, so its last (5) floats down to the top loser it has not met (2);
    1-3 and 4-6 complete it; nobody meets their round-1 opponent."""
    players = (rec(1, 1, (2,)), rec(3, 1, (4,)), rec(5, 1, (6,)), rec(2, 0, (1,)),
               rec(4, 0, (3,)), rec(6, 0, (5,)))
    rows = pair_round("swiss", DivisionHistory(players, 1, 5))
    assert pairs_of(rows) == {frozenset(s) for s in ({1, 3}, {5, 2}, {4, 6})}


def test_odd_division_gives_the_bye_to_the_lowest_without_one() -> None:
    players = (rec(1, 1, (None,), byes=1), rec(2, 1, (3,)), rec(3, 0, (2,)),
               rec(4, 0, (5,)), rec(5, 0, (4,)))
    rows = pair_round("swiss", DivisionHistory(players, 1, 5))
    assert [p.first for p in rows if p.second is None] == [5]
    assert rows[-1].board == 3


def test_repeat_limit_decides_whether_a_third_meeting_is_allowed() -> None:
    """Every pairing of these four repeats twice in all; 1 and 2 have met twice already. With
    repeat_limit 2 a third meeting is beyond the limit, so 1-3 and 2-4; with repeat_limit 3
    the neighbours 1-2 and 3-4 cost the same in repeats and less in rank distance."""
    players = (rec(1, 2, (2, 2, 3, 4)), rec(2, 2, (1, 1, 3, 4)), rec(3, 2, (1, 2, 9, 9)),
               rec(4, 2, (1, 2, 9, 9)))
    history = DivisionHistory(players, 4, 6)
    limited = pair_round("swiss", history, PairingSettings(repeat_limit=2))
    assert frozenset({1, 2}) not in pairs_of(limited)
    relaxed = pair_round("swiss", history, PairingSettings(repeat_limit=3))
    assert pairs_of(relaxed) == {frozenset({1, 2}), frozenset({3, 4})}


def matched_players(played: SimulatedRound) -> tuple[list[PlayerRecord], list[tuple[int, int]]]:
    """The players the matching paired (no bye, no Gibsonized game) and their pairs."""
    history, rows = played.history, played.pairings
    leader = clinched_first(history)
    games = [(p.first, p.second) for p in rows if p.second is not None]
    if leader is not None:
        games = [g for g in games if leader.number not in g]
    numbers = {x for g in games for x in g}
    return [p for p in history.players if p.number in numbers], games


def check_round(played: SimulatedRound) -> None:
    history, rows = played.history, played.pairings
    active = [p for p in history.players if p.active]
    seen = [x for p in rows for x in (p.first, p.second) if x is not None]
    assert sorted(seen) == sorted(p.number for p in active)  # everyone once
    byes = [p.first for p in rows if p.second is None]
    assert len(byes) <= 1
    assert [p.board for p in rows] == list(range(1, len(rows) + 1))
    for bye in byes:  # no second bye while another active player has none
        assert history.player(bye).byes == min(p.byes for p in active)
    for row in rows:
        if row.second is None:
            continue
        a, b = history.player(row.first), history.player(row.second)
        # the player with fewer firsts goes first (then the one with more seconds)
        assert (a.firsts, -a.seconds) <= (b.firsts, -b.seconds)
        lean_a, lean_b = a.firsts - a.seconds, b.firsts - b.seconds
        if lean_a * lean_b <= 0 and abs(lean_a) <= 1 and abs(lean_b) <= 1:
            # not due the same side: both end within one of even
            assert abs(lean_a + 1) <= 1 and abs(lean_b - 1) <= 1
    # every repeat was unavoidable: no pairing of the same players has fewer meetings
    players, games = matched_players(played)
    met = sum(history.player(a).times_played(b) for a, b in games)
    graph = nx.complete_graph([p.number for p in players])
    for a, b in graph.edges:
        graph[a][b]["weight"] = history.player(a).times_played(b)
    least = nx.min_weight_matching(graph)
    assert met == sum(history.player(a).times_played(b) for a, b in least)


def check_event(seed: int, n: int, rounds: int, withdraw: bool) -> None:
    gone = ((rounds // 2 + 1, n),) if withdraw else ()
    config = SimulationConfig("swiss", n, rounds, prizes=3, withdrawals=gone)
    for played in play_event(config, seed).rounds:
        check_round(played)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([23, 24]), withdraw=st.booleans())
def test_simulated_24_player_8_round_events_keep_the_swiss_properties(seed, n, withdraw):
    check_event(seed, n, 8, withdraw)


def test_one_thousand_simulated_24_player_8_round_events() -> None:
    """The acceptance's 1,000 events, every round of each checked (about 80 s: run in CI, as
    the acceptance asks; a quarter have 23 players, so a bye each round, and a third lose a
    player halfway)."""
    for seed in range(1000):
        check_event(seed, 24 if seed % 4 else 23, 8, seed % 3 == 0)


def brute_force_cost(players, ctx, policies) -> int:
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(pair_weight(first, other, ctx, policies)
               + brute_force_cost(rest[:i] + rest[i + 1 :], ctx, policies)
               for i, other in enumerate(rest))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([6, 7, 8, 9, 10]))
def test_small_divisions_pair_at_the_brute_force_optimum(seed, n) -> None:
    """Every round of a small simulated event costs what the cheapest of all pairings of the
    same players costs, by the same policies: the matching is optimal, so every repeat in
    it was unavoidable."""
    policies = list(POLICIES.values())
    for played in play_event(SimulationConfig("swiss", n, n - 1), seed).rounds:
        players, games = matched_players(played)
        ctx = pair_context(played.history, 1)
        cost = sum(pair_weight(played.history.player(a), played.history.player(b), ctx,
                               policies) for a, b in games)
        assert cost == brute_force_cost(players, ctx, policies)
