"""A random draw: any pairing of the players, drawn with the seeded generator, repeats avoided
where possible.

The bye rotates (:mod:`.byes`); the rest are paired by :mod:`.matching` with only the
``repeats`` policy and a random weight per pair from ``rng`` below the weight of one repeat, so
the draw is random among the pairings with the fewest repeats (not exactly uniform: a
minimum-weight matching of random weights favours no pair, but is not a uniform sample).
The same seed gives the same draw. TSH's RandomPair is the same idea: random pairings
restricted as needed by repeats, the standings deciding the bye.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.matching import (
    REPEAT_WEIGHT,
    PairContext,
    min_weight_pairs,
    pair_context,
    repeats,
)
from tessera.tournament.pairing.round_assembly import assemble_round, players_to_pair
from tessera.tournament.pairing.settings import PairingSettings


def pair_random(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round drawn at random."""
    players, bye, rest = players_to_pair(history)
    noise = {
        (a.number, b.number): rng.randrange(REPEAT_WEIGHT // 2)
        for i, a in enumerate(rest) for b in rest[i + 1 :]
    }

    def chance(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
        return noise.get((a.number, b.number), noise.get((b.number, a.number), 0))

    ctx = pair_context(history, settings.repeat_limit)
    games = min_weight_pairs(rest, ctx, [repeats, chance], len(rest))
    return assemble_round(history, players, games, bye, settings, rng)
