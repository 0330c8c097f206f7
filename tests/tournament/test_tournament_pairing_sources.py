"""Pairing systems checked on cases taken from their public descriptions, each worked by hand.

Sources (read, not copied):
- TSH's essay on King of the Hill, in the tsh 3.310 documentation
  (http://tsh.poslfit.com/old/tsh-3310.zip, "King-of-the-Hill (KOTH) pairings"): KOTH pairs
  #1 v #2, #3 v #4 "and so on all the way down"; "KOTH without repeats" pairs #1 with the
  highest-ranked player they have not already played, and so on down the rankings.
- NASPA's pairings for the Scrabble All-Stars 2003
  (https://scrabbleplayers.org/tourneys/2003/allstars/pairings.html): 24 players in three
  round robin groups of eight dealt as a snake by rating.
- TSH's InitFontes command and its Berger schedules (tsh's Perl modules
  TSH::Command::InitFontes and TSH::Division::Pairing::Berger, read through GitHub code
  search; tsh is at http://tsh.poslfit.com): groups draw one member from each part of the
  field; a group of four plays 1v4 2v3, 1v3 2v4, 1v2 3v4; larger groups play the circle
  schedule whose last round is King of the Hill.
- ASPA Rules of Tournament Play, valid from 1 January 2007, rules 1.3 and 1.4 ("balanced
  starts": the player who has had fewer starts plays first; with equal starts, tiles are
  drawn).
- TSH's Swiss: "A brief introduction to Swiss pairings as implemented in tsh 3.070"
  (doc/swiss-notes.txt in http://www.poslarchive.com/tsh/old/tsh-3120.zip): players are
  divided into win groups, each paired within itself; an odd group borrows one player from
  the nearest unpaired group, a group that cannot be paired without excessive rematches
  borrows more, two at a time; within a group opponents are ranked by repeats first, and
  assigned from the top of the group, backtracking to a lower choice when the first choices
  cannot all be had at once. The module TSH::Division (its POD and comments, read through
  GitHub code search) adds how a group is ordered: the odd group takes the next group's top
  player, and the preferred opponent is "closest in rank" with the setting
  ``swiss_order koth``, "closest to half a flight away" without it.
- TSH's random pairing: the RandomPair command's help ("add a round of random pairings";
  the round the pairings are based on is needed "in case we need to decide who gets a bye")
  and the POD of TSH::Division::Pairing::Random ("random pairings on a group of players,
  restricted as necessary according to repeat and start vs. reply constraints").
- TSH's manual pairing: the PAIR command's help ("manually add pairings. To add a bye, give
  one player number as 0") and TSH::Division's Pair ("Pair two players in a given round.
  Set one player number to 0 for a bye"); woogles' director notes
  (liwords-ui/src/admin/common_tourney_scenarios.md, "Pairings seem wrong": set the pairings
  one by one, then "Manually verify that all players are paired for that round").
"""

from __future__ import annotations

import random

import pytest

from tessera.tournament import Division, Pairing
from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing import PairingError, PairingSettings, pair_round
from tessera.tournament.pairing.firsts import first_of
from tessera.tournament.pairing.fontes import fontes_groups, scrabble_circle_round


def rec(number: int, wins: float = 0.0, opponents: tuple[int | None, ...] = (),
        firsts: int = 0, seconds: int = 0, byes: int = 0) -> PlayerRecord:
    return PlayerRecord(number, f"P{number}", 2000 - number, number, wins, 0, opponents,
                        firsts, seconds, byes)


def pairs(rows: list) -> set[frozenset[int | None]]:
    return {frozenset((p.first, p.second)) for p in rows}


def opening(n: int, rounds: int) -> list[set[frozenset[int | None]]]:
    players = [rec(i) for i in range(1, n + 1)]
    settings = PairingSettings(fontes_rounds=rounds)
    return [pairs(pair_round("fontes", DivisionHistory(tuple(players), r, rounds + 4),
                             settings)) for r in range(rounds)]


def as_sets(*games: tuple[int, int]) -> set[frozenset[int | None]]:
    return {frozenset(g) for g in games}


# a division after four rounds, standings order 1..8: 1 and 2 have met, as have 3 and 4
AFTER_FOUR = [
    rec(1, 4, (2, 5, 6, 7)), rec(2, 3, (1, 7, 5, 8)), rec(3, 3, (4, 8, 7, 6)),
    rec(4, 2, (3, 6, 8, 5)), rec(5, 2, (6, 1, 2, 4)), rec(6, 1, (5, 4, 1, 3)),
    rec(7, 1, (8, 2, 3, 1)), rec(8, 0, (7, 3, 4, 2)),
]


def test_king_of_the_hill_pairs_one_two_three_four_all_the_way_down() -> None:
    """TSH's KOTH essay: "#1 vs. #2, #3 vs. #4, and so on all the way down", even where the
    top two have already met (the unfairness to #3 the essay describes)."""
    rows = pair_round("koth", DivisionHistory(tuple(AFTER_FOUR), 4, 5))
    assert pairs(rows) == as_sets((1, 2), (3, 4), (5, 6), (7, 8))


def test_australian_draw_is_king_of_the_hill_without_repeats() -> None:
    """TSH's KOTH essay, "KOTH without repeats": #1 meets the highest-ranked player they have
    not already played, and so on down. By hand: 1 has played 2, so 1v3; 2 has played 7, 5,
    8 and 1, so 2 meets 4; of 5, 6, 7 and 8 left, 5 has played 6, so 5v7; 6 and 8 are left
    (they have not met)."""
    rows = pair_round("australian", DivisionHistory(tuple(AFTER_FOUR), 4, 5))
    assert pairs(rows) == as_sets((1, 3), (2, 4), (5, 7), (6, 8))


def test_fontes_groups_are_the_all_stars_2003_snake() -> None:
    """All-Stars 2003: "players ranked 1, 6, 7, 12, 13, 18, 19 and 24 will be in one group,
    those ranked 2, 5, 8, 11, 14, 17, 20 and 23 in another, and 3, 4, 9, 10, 15, 16, 21 and
    22 in a third": Initial Fontes for seven rounds over 24 players."""
    groups = fontes_groups([rec(i) for i in range(1, 25)], 7)
    assert [[p.number for p in g] for g in groups] == [
        [1, 6, 7, 12, 13, 18, 19, 24],
        [2, 5, 8, 11, 14, 17, 20, 23],
        [3, 4, 9, 10, 15, 16, 21, 22],
    ]


def test_fontes_three_rounds_for_a_group_of_four_follow_tsh() -> None:
    """TSH's three-round schedule for a group of four seats (one from each quartile):
    1v4 and 2v3, then 1v3 and 2v4, then 1v2 and 3v4."""
    assert opening(4, 3) == [as_sets((1, 4), (2, 3)), as_sets((1, 3), (2, 4)),
                             as_sets((1, 2), (3, 4))]


def test_fontes_seven_rounds_open_top_against_bottom_and_end_king_of_the_hill() -> None:
    """The All-Stars group 1, 6, 7, 12, 13, 18, 19, 24 on TSH's circle schedule (seats 3 5 7
    8 6 4 2 around seat 1). Round 1, by hand: seat 1 meets seat 8 (1v24) and the rest pair
    about it: seats 2v3 (6v7), 4v5 (12v13), 6v7 (18v19). Round 7 is King of the Hill in the
    group: 1v6, 7v12, 13v18, 19v24. Over the seven rounds each meets the other seven."""
    rounds = opening(24, 7)
    group = {1, 6, 7, 12, 13, 18, 19, 24}
    inside = [{g for g in r if g <= group} for r in rounds]
    assert inside[0] == as_sets((1, 24), (6, 7), (12, 13), (18, 19))
    assert inside[6] == as_sets((1, 6), (7, 12), (13, 18), (19, 24))
    assert [next(iter(g - {1})) for r in inside for g in r if 1 in g] == [24, 19, 18, 13, 12,
                                                                          7, 6]
    assert len(set().union(*inside)) == 28  # 8 players, every pair once


def test_random_rule_is_aspa_balanced_starts() -> None:
    """ASPA rule 1.3: fewer starts plays first; equal starts, tiles are drawn, however many
    replies each has had (a bye leaves one with fewer)."""
    fewer = first_of(rec(1, firsts=3, seconds=1), rec(2, firsts=2, seconds=2), "random",
                     random.Random(0))
    assert fewer == (2, 1)
    equal_starts = rec(1, firsts=2, seconds=2), rec(2, firsts=2, seconds=1)
    drawn = {first_of(*equal_starts, "random", random.Random(s))[0] for s in range(20)}
    assert drawn == {1, 2}


def test_naspa_rule_reads_each_players_sides_from_the_division() -> None:
    """The division's history carries each player's side round by round (1 first, 2 second),
    and the NASPA rule uses it. Four players, three rounds played:
    R1 Ann (first) v Di, Bob (first) v Cy; R2 Ann (first) v Cy, Di (first) v Bob;
    R3 Ann (first) v Bob, Cy (first) v Di. Standings: Ann 3, Cy 2, Di 1, Bob 0.
    King of the Hill for round 4: Ann v Cy, Di v Bob. Cy has fewer firsts than Ann, so goes
    first. Di and Bob have one first and two seconds each; backwards from round 3 both went
    second, in round 2 Di went first and Bob second: Bob went second more recently, so Bob goes
    first, whatever the draw."""
    d = Division("A", 4)
    for name, rating in (("Ann", 1900), ("Bob", 1800), ("Cy", 1700), ("Di", 1600)):
        d.add_player(name, rating)
    d.pair_round([Pairing(1, 4, 1), Pairing(2, 3, 2)])
    d.record_result(1, 1, 400, 4, 300)
    d.record_result(1, 3, 410, 2, 350)
    d.pair_round([Pairing(1, 3, 1), Pairing(4, 2, 2)])
    d.record_result(2, 1, 420, 3, 380)
    d.record_result(2, 4, 390, 2, 370)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    d.record_result(3, 1, 450, 2, 350)
    d.record_result(3, 3, 402, 4, 300)
    history = d.history()
    assert [(p.name, p.sides) for p in history.players] == [
        ("Ann", (1, 1, 1)), ("Cy", (2, 2, 1)), ("Di", (2, 1, 2)), ("Bob", (1, 2, 2))]
    for seed in range(20):
        rows = pair_round("koth", history, rng=random.Random(seed))
        assert [(r.first, r.second) for r in rows] == [(3, 1), (2, 4)]


def test_circle_schedule_is_a_round_robin_for_every_group_size() -> None:
    """Every round of the circle schedule seats everyone once, and over the rounds (seat 1
    meeting each other seat in turn) every two seats meet exactly once."""
    for seats in range(2, 18, 2):
        met = []
        for top_meets in range(2, seats + 1):
            games = scrabble_circle_round(seats, top_meets)
            assert sorted(s for g in games for s in g) == list(range(1, seats + 1))
            met += [frozenset(g) for g in games]
        assert len(met) == len(set(met)) == seats * (seats - 1) // 2


def test_swiss_pairs_win_groups_and_backtracks_past_a_rematch_as_tsh_describes() -> None:
    """TSH's Swiss (tsh 3.070 notes), no rematches allowed (TSH repeats 0: repeat_limit 1).
    Eight players after two rounds (R1 1-8 2-7 3-6 4-5, R2 1-2 3-5 7-4 8-6, winners first):
    win groups {1, 3} on two wins, {2, 8, 4, 7} on one (in that standings order), {5, 6} on
    none. The top and bottom groups pair within themselves: 1v3, 5v6 (neither pair has met).
    In the middle group 2's first choice is 8 (next in rank), but that leaves 4 and 7, who met
    in round 2: backtrack, and 2 takes its next choice, 4 (7 it has met); 8 and 7 have not met.
    Half a flight away (TSH's default order) 2's first choice is 4 outright: the same round."""
    players = (rec(1, 2, (8, 2)), rec(3, 2, (6, 5)), rec(2, 1, (7, 1)), rec(8, 1, (1, 6)),
               rec(4, 1, (5, 7)), rec(7, 1, (2, 4)), rec(5, 0, (4, 3)), rec(6, 0, (3, 8)))
    rows = pair_round("swiss", DivisionHistory(players, 2, 7))
    assert pairs(rows) == as_sets((1, 3), (2, 4), (8, 7), (5, 6))


def test_swiss_odd_win_group_takes_the_next_groups_top_player_koth_order() -> None:
    """TSH's Swiss, an odd group: ten players after round 1 (1v2, 3v4, 5v6, 7v8, 9v10, the
    odd numbers won). The winners' group 1, 3, 5, 7, 9 is odd, so it takes the top player of
    the next group, 2; with ``swiss_order koth`` each player meets the one closest in rank:
    1v3, 5v7, 9v2, and the rest of the losers 4v6, 8v10 (no pair has met). This is Tessera's
    order within a group. TSH's default order (half a flight away) would instead give 1v7,
    3v9, 5v2 and 4v8, 6v10."""
    winners = [rec(n, 1, (n + 1,)) for n in (1, 3, 5, 7, 9)]
    losers = [rec(n, 0, (n - 1,)) for n in (2, 4, 6, 8, 10)]
    rows = pair_round("swiss", DivisionHistory(tuple(winners + losers), 1, 7))
    assert pairs(rows) == as_sets((1, 3), (5, 7), (9, 2), (4, 6), (8, 10))


def test_random_draw_is_restricted_by_repeats_and_the_standings_decide_the_bye() -> None:
    """TSH's random pairing, restricted as needed by repeats, the standings deciding the bye.
    Five players in standings order 1-5 after R1 1-2, 3-4, 5 bye and R2 1-3, 2-5, 4 bye: the
    bye goes to the lowest ranked of those without one (1, 2, 3): player 3. Of 1, 2, 4 and 5,
    1 has met 2, and 2 has met 5: the only draw without a rematch is 1v5, 2v4, whatever the
    seed. Four newcomers instead can be drawn any of the three ways."""
    players = (rec(1, 2, (2, 3)), rec(2, 1, (1, 5)), rec(3, 1, (4, 1)),
               rec(4, 1, (3, None), byes=1), rec(5, 1, (None, 2), byes=1))
    history = DivisionHistory(players, 2, 5)
    for seed in range(20):
        rows = pair_round("random", history, rng=random.Random(seed))
        assert pairs(rows) == as_sets((1, 5), (2, 4)) | {frozenset((3, None))}
    fresh = DivisionHistory(tuple(rec(i) for i in range(1, 5)), 0, 3)
    draws = {frozenset(pairs(pair_round("random", fresh, rng=random.Random(s))))
             for s in range(40)}
    assert draws == {frozenset(as_sets((1, 2), (3, 4))), frozenset(as_sets((1, 3), (2, 4))),
                     frozenset(as_sets((1, 4), (2, 3)))}


def test_manual_round_is_the_directors_pairs_with_a_bye_and_everyone_paired() -> None:
    """TSH's PAIR, as a director enters round 1 of a five-player division: "pair 4 1",
    "pair 2 3", "pair 5 0" (0: a bye; the library writes None, the command line 5-0). The
    round is those pairs as given (4 named first goes first), boards in standings order, the
    bye last. Entered without player 3, woogles' check that all players are paired fails."""
    history = DivisionHistory(tuple(rec(i) for i in range(1, 6)), 0, 3)
    rows = pair_round("manual", history,
                      PairingSettings(manual_pairings=((4, 1), (2, 3), (5, None))))
    assert [(p.first, p.second, p.board) for p in rows] == [(4, 1, 1), (2, 3, 2), (5, None, 3)]
    with pytest.raises(PairingError, match=r"not paired: 3 \(P3\)"):
        pair_round("manual", history,
                   PairingSettings(manual_pairings=((4, 1), (2, 5))))
