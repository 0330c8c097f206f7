"""The Australian draw: down the standings, each unpaired player meets the highest-ranked
unpaired player they have met least often.

The leader is paired first, with the best-placed opponent they have not yet played (or, once
they have played everyone left, the one they have played fewest times); then the highest
unpaired player, and so on down. Unlike :mod:`.swiss` it does not look ahead: a repeat low in
the standings is what it costs to keep the top boards strictly by rank. With an odd count the
bye rotates (:mod:`.byes`) before pairing.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing
from tessera.tournament.pairing.round_assembly import assemble_round, players_to_pair
from tessera.tournament.pairing.settings import PairingSettings


def pair_australian(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round by the Australian draw."""
    players, bye, left = players_to_pair(history)
    games = []
    while left:
        top, rest = left[0], left[1:]
        opponent = min(rest, key=lambda p: top.times_played(p.number))  # first of the fewest
        games.append((top.number, opponent.number))
        left = [p for p in rest if p.number != opponent.number]
    return assemble_round(history, players, games, bye, settings, rng)
