"""The matching's weight policies, each on its own, and the restricted graph against a brute
force (tessera.tournament.pairing.matching)."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import PairingError, PairingSettings, matching, pair_round
from tessera.tournament.pairing.matching import (
    CONTENTION_WEIGHT,
    FIRSTS_WEIGHT,
    OVER_LIMIT_WEIGHT,
    POLICIES,
    RANK_WEIGHT,
    REPEAT_WEIGHT,
    SCORE_GAP_WEIGHT,
    PairContext,
    chosen_policies,
    firsts_clash,
    min_weight_pairs,
    pair_context,
    pair_weigher,
    pair_weight,
    prize_contention,
    rank_distance,
    repeats,
    score_gap,
)
from tessera.tournament.pairing.round_assembly import active_players
from tessera.tournament.simulate import SimulationConfig, play_event


def rec(number, wins=0.0, opponents=(), firsts=0, seconds=0) -> PlayerRecord:
    return PlayerRecord(number, f"P{number}", 1500, number, wins, 0, tuple(opponents),
                        firsts, seconds)


CTX = PairContext(rank={1: 0, 2: 1, 3: 2, 4: 3}, contenders=frozenset({1, 2}), repeat_limit=2)


def test_repeats_cost_each_meeting_and_more_past_the_limit() -> None:
    assert repeats(rec(1), rec(2), CTX) == 0
    assert repeats(rec(1, opponents=(2,)), rec(2, opponents=(1,)), CTX) == REPEAT_WEIGHT
    twice = repeats(rec(1, opponents=(2, 2)), rec(2), CTX)
    assert twice == 2 * REPEAT_WEIGHT + OVER_LIMIT_WEIGHT


def test_score_gap_is_the_square_of_the_half_wins_apart() -> None:
    assert score_gap(rec(1, 3), rec(2, 3), CTX) == 0
    assert score_gap(rec(1, 3), rec(2, 2.5), CTX) == SCORE_GAP_WEIGHT
    assert score_gap(rec(1, 3), rec(2, 1), CTX) == 16 * SCORE_GAP_WEIGHT


def test_prize_contention_costs_a_contender_against_a_non_contender() -> None:
    assert prize_contention(rec(1), rec(2), CTX) == 0
    assert prize_contention(rec(3), rec(4), CTX) == 0
    assert prize_contention(rec(2), rec(3), CTX) == CONTENTION_WEIGHT


def test_rank_distance_is_places_apart() -> None:
    assert rank_distance(rec(1), rec(2), CTX) == RANK_WEIGHT
    assert rank_distance(rec(4), rec(1), CTX) == 3 * RANK_WEIGHT


def test_firsts_clash_costs_two_players_due_the_same_side() -> None:
    assert firsts_clash(rec(1, firsts=2, seconds=1), rec(2, firsts=1, seconds=2), CTX) == 0
    assert firsts_clash(rec(1, firsts=2, seconds=1), rec(2, firsts=3, seconds=1), CTX) \
        == FIRSTS_WEIGHT
    assert firsts_clash(rec(1, firsts=1, seconds=1), rec(2, firsts=3, seconds=1), CTX) == 0


def test_the_weight_orders_the_considerations() -> None:
    """A repeat outweighs any score gap a 30-round event can have; a half-win gap outweighs
    contention; contention outweighs the rank distance of 400 places; a firsts clash weighs
    a few places, far less than a float to another score group."""
    assert REPEAT_WEIGHT > SCORE_GAP_WEIGHT * (2 * 30) ** 2
    assert SCORE_GAP_WEIGHT > CONTENTION_WEIGHT > RANK_WEIGHT * 400
    assert RANK_WEIGHT < FIRSTS_WEIGHT <= 5 * RANK_WEIGHT
    assert 10 * FIRSTS_WEIGHT < SCORE_GAP_WEIGHT


def test_policies_can_be_chosen_by_name() -> None:
    assert chosen_policies(None) == list(POLICIES.values())
    assert chosen_policies(["repeats"]) == [repeats]
    with pytest.raises(PairingError, match="unknown matching policy 'luck'"):
        chosen_policies(["repeats", "luck"])


def test_switching_off_repeats_lets_a_repeat_through() -> None:
    """1 and 2 have met, and 3 and 4: with repeats on neither meets again; with only rank
    distance, 1-2 and 3-4 again (the neighbours)."""
    players = (rec(1, 1, (2,)), rec(2, 1, (1,)), rec(3, 1, (4,)), rec(4, 1, (3,)))
    history = DivisionHistory(players, 1, 5)
    on = {frozenset((p.first, p.second)) for p in pair_round("swiss", history)}
    assert not on & {frozenset({1, 2}), frozenset({3, 4})}
    off = pair_round("swiss", history, PairingSettings(policies=("rank_distance",)))
    assert {frozenset((p.first, p.second)) for p in off} == {frozenset({1, 2}),
                                                              frozenset({3, 4})}


player_records = st.builds(
    lambda number, wins, opponents, firsts, seconds: rec(number, wins, opponents, firsts,
                                                         seconds),
    number=st.integers(1, 6),
    wins=st.sampled_from([0.0, 0.5, 1.0, 2.5, 3.0, 7.0, 1.25, 2.3]),
    opponents=st.lists(st.one_of(st.none(), st.integers(1, 6)), max_size=8),
    firsts=st.integers(0, 5),
    seconds=st.integers(0, 5),
)


@settings(max_examples=300, deadline=None)
@given(a=player_records, b=player_records, contending=st.frozensets(st.integers(1, 6)),
       limit=st.integers(1, 3), order=st.permutations(list(POLICIES)))
def test_the_inline_weight_equals_the_named_policies(a, b, contending, limit, order) -> None:
    """The matching's inline sum for the default policy set (in any order) is the sum of the
    named policies, on random records (ties and odd win values, byes, repeats, firsts)."""
    ctx = PairContext({n: (7 * n) % 11 for n in range(1, 7)}, contending, limit)
    policies = [POLICIES[name] for name in order]
    assert pair_weigher(ctx, policies)(a, b) == pair_weight(a, b, ctx, policies)


def test_a_chosen_policy_set_is_weighed_by_its_policies() -> None:
    """Not the default set: only the chosen policies count (the inline sum would add the
    rank distance and the score gap here)."""
    a, b = rec(1, 3, (2,)), rec(4, 1, (1,))
    assert pair_weigher(CTX, [repeats])(a, b) == 0
    assert pair_weigher(CTX, [repeats])(rec(1, opponents=(4,)), b) == REPEAT_WEIGHT
    everything = pair_weigher(CTX, list(POLICIES.values()))(a, b)
    assert everything == 16 * SCORE_GAP_WEIGHT + 3 * RANK_WEIGHT + CONTENTION_WEIGHT


def brute_force_cost(players, ctx, policies) -> int:
    """The cheapest perfect matching's weight, trying every pairing (players <= 10)."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(
        pair_weight(first, other, ctx, policies)
        + brute_force_cost(rest[:i] + rest[i + 1 :], ctx, policies)
        for i, other in enumerate(rest)
    )


def matched_cost(history, pairs, ctx, policies) -> int:
    return sum(pair_weight(history.player(a), history.player(b), ctx, policies)
               for a, b in pairs)


def check_restricted_against_brute_force(
    seed: int, n: int, block: int, window: int, judged: tuple[str, ...] = tuple(POLICIES)
) -> None:
    """The blocks and candidate windows used above 64 players, forced on for a small division
    (exact_limit 0), against every pairing: the same cost under the ``judged`` policies, round
    after round of a simulated event."""
    policies = list(POLICIES.values())
    for played in play_event(SimulationConfig("swiss", n, n - 1), seed).rounds[1:]:
        history = played.history
        players = active_players(history)
        ctx = pair_context(history, 1)
        pairs = min_weight_pairs(players, ctx, policies, window, block=block, exact_limit=0)
        assert sorted(x for p in pairs for x in p) == sorted(p.number for p in players)
        judge = [POLICIES[name] for name in judged]
        assert matched_cost(history, pairs, ctx, judge) == brute_force_cost(players, ctx, judge)


# events where a block whose only fault was floating a player out of an edge score group
# (no repeat) was once trusted, and missed the optimum
@example(seed=95, n=10, block=4, window=6)
@example(seed=107, n=10, block=2, window=6)
@example(seed=128, n=10, block=4, window=6)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([6, 8, 10]),
       block=st.sampled_from([2, 4]), window=st.sampled_from([6, 12]))
def test_restricted_graph_finds_the_brute_force_optimum(seed, n, block, window) -> None:
    """Judged by the weights that decide who meets whom (repeats, score groups, prize
    contention). Rank distance and firsts clashes are optimal within each block, not across
    a block's edge: with blocks of two the matching has no choice inside a block at all."""
    check_restricted_against_brute_force(
        seed, n, block, window, judged=("repeats", "score_gap", "prize_contention"))


@pytest.mark.slow
def test_restricted_graph_repeats_no_more_than_the_brute_force_optimum_over_300_events() -> None:
    """Over 300 events the blocks never repeat a pairing the optimum avoids. (They are a
    heuristic: in one of these events, seed 215 with blocks of two, the best pairing crosses a
    block's edge to spare a firsts clash, and the blocks miss it by that clash's weight.)"""
    for seed in range(300):
        for block in (2, 4):
            check_restricted_against_brute_force(
                seed, (6, 8, 10)[seed % 3], block, 6, judged=("repeats",)
            )


def test_a_big_division_is_matched_in_blocks_without_repeats() -> None:
    rng = random.Random(3)
    players = tuple(
        rec(i, wins=rng.randrange(4), opponents=(i + 1 if i % 2 else i - 1,))
        for i in range(1, 201)
    )
    players = tuple(sorted(players, key=lambda p: -p.wins))
    history = DivisionHistory(players, 1, 8)
    rows = pair_round("swiss", history)
    assert sorted(x for p in rows for x in (p.first, p.second)) == list(range(1, 201))
    assert not any(history.player(p.first).times_played(p.second) for p in rows)


def half_group_that_has_met() -> tuple[PlayerRecord, ...]:
    """200 players after five rounds: 40 on 3 wins, two on 2½ who have met each other, 158 on
    2 (the shape of a 500-player event's middle rounds, where such a pair once sent the block
    matching merging on through blocks of 76, 116, ... 334 players)."""
    wins = [3.0] * 40 + [2.5, 2.5] + [2.0] * 158
    return tuple(
        rec(i, w, opponents={41: (42,), 42: (41,)}.get(i, ()))
        for i, w in enumerate(wins, 1)
    )


@pytest.mark.parametrize("settle", [True, False])
def test_a_merge_that_gains_nothing_settles_the_block(monkeypatch, settle) -> None:
    """The two on 2½ cannot meet, so they float whichever way the blocks go: merging their
    block with its neighbours lowers no judged weight, and with ``settle`` the merged block
    is kept as it is. Without it (the rule before) the merges go on until one block of
    half the division is matched. Either way the same judged cost: one half-win
    float each for the two, no repeat."""
    players = half_group_that_has_met()
    history = DivisionHistory(players, 5, 12)
    ctx = pair_context(history, 1)
    policies = list(POLICIES.values())
    sizes: list[int] = []
    real_matching = matching._matching

    def counted(part, *args):
        sizes.append(len(part))
        return real_matching(part, *args)

    monkeypatch.setattr(matching, "_matching", counted)
    pairs = min_weight_pairs(players, ctx, policies, 12, settle=settle)
    assert sorted(x for p in pairs for x in p) == list(range(1, 201))
    judged = [POLICIES[n] for n in ("repeats", "score_gap", "prize_contention")]
    assert matched_cost(history, pairs, ctx, judged) == 2 * SCORE_GAP_WEIGHT
    # blocks of 20, 20, 22 (the two on 2½ and 20 on 2), ...; the 22 is merged with both
    # neighbours into 62, which floats the two into the 2s as before
    assert sizes[:4] == [20, 20, 22, 62]
    if settle:
        assert max(sizes) == 62
    else:  # and on: the 62 floats two into its bottom group, so it is merged again
        assert max(sizes) >= 100
