"""The pairing systems: each a pure function of a division's history, its settings and a
seeded random generator, returning the next round's pairings.

Every active player appears exactly once; at most one has a bye (a round robin's fixed schedule
excepted, where a withdrawn player's opponent sits out); boards are numbered from 1 in
standings order of each game's higher-ranked player. ``SYSTEMS`` names them for settings, the
command line and the server; :func:`pair_round` runs one by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tessera.tournament.history import DivisionHistory, Pairing
from tessera.tournament.pairing.australian import pair_australian
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.fontes import pair_fontes
from tessera.tournament.pairing.king_of_the_hill import pair_king_of_the_hill
from tessera.tournament.pairing.manual import pair_manual
from tessera.tournament.pairing.random_draw import pair_random
from tessera.tournament.pairing.round_robin import pair_double_round_robin, pair_round_robin
from tessera.tournament.pairing.settings import PairingSettings
from tessera.tournament.pairing.swiss import pair_swiss

PairingSystem = Callable[[DivisionHistory, PairingSettings, random.Random], list[Pairing]]

SYSTEMS: dict[str, PairingSystem] = {
    "round_robin": pair_round_robin,
    "double_round_robin": pair_double_round_robin,
    "swiss": pair_swiss,
    "koth": pair_king_of_the_hill,
    "fontes": pair_fontes,
    "australian": pair_australian,
    "random": pair_random,
    "manual": pair_manual,
}


def pair_round(
    system: str,
    history: DivisionHistory,
    settings: PairingSettings | None = None,
    rng: random.Random | None = None,
) -> list[Pairing]:
    """The next round of ``history`` by the system named ``system`` (default settings and a
    generator seeded 0 when not given, so a call is repeatable)."""
    if system not in SYSTEMS:
        raise PairingError(f"unknown pairing system {system!r}; have: {', '.join(SYSTEMS)}")
    return SYSTEMS[system](history, settings or PairingSettings(), rng or random.Random(0))


__all__ = ["SYSTEMS", "PairingError", "PairingSettings", "PairingSystem", "pair_round"]
