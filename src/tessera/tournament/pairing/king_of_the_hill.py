"""King of the Hill: 1 plays 2, 3 plays 4, ... down the standings, repeats or not.

Directors use it for the last round, so the leaders decide the event between themselves. With
an odd count the bye rotates (:mod:`.byes`) and the rest pair down the standings.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing
from tessera.tournament.pairing.round_assembly import assemble_round, players_to_pair
from tessera.tournament.pairing.settings import PairingSettings


def pair_king_of_the_hill(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round paired King of the Hill."""
    players, bye, rest = players_to_pair(history)
    games = [(rest[i].number, rest[i + 1].number) for i in range(0, len(rest), 2)]
    return assemble_round(history, players, games, bye, settings, rng)
