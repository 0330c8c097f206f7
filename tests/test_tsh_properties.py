"""Property test: any division Tessera plays (byes, forfeits, late entries both ways,
withdrawals, a correction, an unplayed last round) written as a TSH ``.t`` file reads back
with the same standings, and identically but for what TSH does not record (see
:mod:`tessera.formats.tsh`): when a late entry joined, and who was to go first in a forfeited
game."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from support.tournament_divisions import played_divisions
from tessera.formats.tsh import dumps, from_division, loads, to_division
from tessera.tournament import Division, Game, GameKind


def unordered_forfeits(d: Division) -> list[list[Game]]:
    """The rounds, each forfeit with the lower number first and its order unknown."""
    def plain(g: Game) -> Game:
        if g.kind is not GameKind.FORFEIT:
            return g
        assert g.second is not None
        low, high = sorted((g.first, g.second))
        return replace(g, first=low, second=high, first_known=False)

    return [sorted(map(plain, games), key=lambda g: (g.board == 0, g.board, g.first))
            for games in d.rounds]


@settings(max_examples=100, deadline=None)
@given(played_divisions(forfeits=True, unplayed_last_round=True, classes=True))
def test_tessera_division_round_trips_through_tsh(d: Division) -> None:
    text = dumps(from_division(d))
    again = to_division(loads(text), d.name, d.total_rounds)
    assert dumps(from_division(again)) == text
    assert again.standings() == d.standings()
    assert unordered_forfeits(again) == unordered_forfeits(d)
    # a late entry reads back as a player with forfeits or byes from round 1; TSH's `off`
    # field (a withdrawal) is kept as read, to be written back as it was
    assert tuple(replace(p, extra=tuple(e for e in p.extra if e[0] != "off"))
                 for p in again.players) == tuple(replace(p, joined_round=1) for p in d.players)
    assert all(("off", "1") in p.extra for p in again.players if not p.active)
