"""Property tests: random divisions played with random results (byes, forfeits, late entries,
withdrawals, corrections) keep the standings' books balanced."""

from __future__ import annotations

from hypothesis import given, settings

from support.tournament_divisions import played_divisions
from tessera.tournament import Division, GameKind


@settings(max_examples=150, deadline=None)
@given(played_divisions())
def test_every_round_counts_once_and_real_games_balance(d: Division) -> None:
    table = d.standings()
    for s in table:
        rounds_played = sum(
            1 for games in d.rounds for g in games if s.number in g.players and g.complete
        )
        assert s.won + s.lost + s.tied == rounds_played == len(s.rounds)
        assert s.points == sum(r.points for r in s.rounds)
    over_the_board = sum(
        r.spread for s in table for r in s.rounds if r.kind == GameKind.GAME.value
    )
    assert over_the_board == 0
    # the default forfeit spreads, +50 to the winner and -50 to the loser, cancel too
    assert sum(r.spread for s in table for r in s.rounds if r.kind == "forfeit") == 0
    h = d.history()
    assert [p.number for p in h.players] == [s.number for s in table]
    assert h.rounds_played == len(d.rounds)
    assert sorted(s.rank for s in table) == list(range(1, len(table) + 1))
