"""Standings: the named tie-breaks (each switchable), firsts and seconds, repeats, byes, high
game, and the crosstable, on cases worked out by hand."""

from __future__ import annotations

import pytest

from tessera.tournament import Division, Pairing, ScoringSettings
from tessera.tournament.standings import (
    TIE_BREAKS,
    Entrant,
    PlayerRound,
    cumulative_score,
    head_to_head,
    opponents_wins,
    standings,
)


def tied_division(tie_breaks: tuple[str, ...]) -> Division:
    """Bee 1900 (seed 1), Ace 1500 (seed 3), Cee 1800 (seed 2), Dee 1400 (seed 4).

    R1: Ace 400-390 Bee, Cee 400-300 Dee.   R2: Ace 300-310 Cee, Bee 500-490 Dee.
    By hand: Cee 2 wins +110; Ace and Bee 1 win, spread 0 each (tied); Dee 0 wins -110.
    Ace beat Bee (head to head); Bee scored more (890 against 700); Ace's opponents won 3
    games, Bee's 1.
    """
    d = Division("T", 2, ScoringSettings(tie_breaks=tie_breaks))
    for name, rating in (("Bee", 1900), ("Ace", 1500), ("Cee", 1800), ("Dee", 1400)):
        d.add_player(name, rating)
    d.pair_round([Pairing(2, 1, 1), Pairing(3, 4, 2)])
    d.record_result(1, 2, 400, 1, 390)
    d.record_result(1, 3, 400, 4, 300)
    d.pair_round([Pairing(2, 3, 1), Pairing(1, 4, 2)])
    d.record_result(2, 2, 300, 3, 310)
    d.record_result(2, 1, 500, 4, 490)
    return d


@pytest.mark.parametrize(
    ("tie_breaks", "order"),
    [
        (("head_to_head", "cumulative_score"), ["Cee", "Ace", "Bee", "Dee"]),
        (("cumulative_score", "head_to_head"), ["Cee", "Bee", "Ace", "Dee"]),
        (("opponents_wins",), ["Cee", "Ace", "Bee", "Dee"]),
        ((), ["Cee", "Bee", "Ace", "Dee"]),  # no tie-break: seed order
    ],
)
def test_tie_breaks_are_named_and_ordered(tie_breaks, order) -> None:
    d = tied_division(tie_breaks)
    assert [s.entrant.name for s in d.standings()] == order
    assert [(s.points, s.spread) for s in d.standings()][1:3] == [(1.0, 0), (1.0, 0)]


def test_each_tie_break_on_its_own() -> None:
    table = {s.number: s for s in tied_division(()).standings()}
    group = [table[1], table[2]]  # Bee, Ace
    assert head_to_head(group, table) == {1: -0.0, 2: -1.0}
    assert cumulative_score(group, table) == {1: -890, 2: -700}
    assert opponents_wins(group, table) == {1: -1.0, 2: -3.0}
    assert set(TIE_BREAKS) == {"head_to_head", "cumulative_score", "opponents_wins"}


def test_firsts_seconds_repeats_byes_high_game() -> None:
    """Three players, three rounds: 1 meets 2 twice (a repeat each), everyone has one bye."""
    d = Division("R", 3)
    for name in ("Ann", "Bob", "Cy"):
        d.add_player(name, 1500)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d.record_result(1, 1, 410, 2, 400)
    d.pair_round([Pairing(3, 1, 1), Pairing(2, None, 0)])
    d.record_result(2, 3, 520, 1, 300)
    d.pair_round([Pairing(2, 1, 1), Pairing(3, None, 0)])
    d.record_result(3, 2, 380, 1, 380)
    got = {
        s.entrant.name: (s.firsts, s.seconds, s.repeats, s.byes, s.high_game, s.won, s.lost,
                         s.tied)
        for s in d.standings()
    }
    assert got == {
        "Ann": (1, 2, 1, 0, 410, 1, 1, 1),
        "Bob": (1, 1, 1, 1, 400, 1, 1, 1),
        "Cy": (1, 0, 0, 2, 520, 3, 0, 0),
    }
    cy = d.standings()[0]
    assert (cy.entrant.name, cy.points, cy.spread) == ("Cy", 3.0, 320)


def test_crosstable_rows_follow_standings_with_running_totals() -> None:
    d = tied_division(("head_to_head",))
    table = d.crosstable()
    assert table.rounds == 2
    assert [row.standing.entrant.name for row in table.rows] == ["Cee", "Ace", "Bee", "Dee"]
    ace = table.row(2)
    assert [(c.round.opponent, c.round.score, c.round.opponent_score, c.points_after,
             c.spread_after) for c in ace.cells] == [(1, 400, 390, 1.0, 10), (3, 300, 310, 1.0, 0)]
    with pytest.raises(KeyError):
        table.row(9)


def test_standings_from_plain_records() -> None:
    """The standings function works on any records, not only a Division's."""
    a, b = Entrant(1, "A", 1500, 1), Entrant(2, "B", 1400, 2)
    win = PlayerRound(1, 2, True, 400, 300, 1.0, 100, "W", "game", 1)
    loss = PlayerRound(1, 1, False, 300, 400, 0.0, -100, "L", "game", 1)
    table = standings({b: [loss], a: [win]})
    assert [(s.rank, s.entrant.name, s.opponents_points) for s in table] == [
        (1, "A", 0.0), (2, "B", 1.0)]
    with pytest.raises(ValueError, match="unknown tie-break 'median'"):
        standings({a: [win]}, ("median",))
