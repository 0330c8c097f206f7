"""Duplicate games (R8.4) played by a test as a perfect player."""

from __future__ import annotations

from tessera.duplicate import DuplicateGame
from tessera.lexicon import Lexicon


def tops_of_a_twin(lex: Lexicon, seed: int) -> list[str]:
    """A top of every round of the seed's game (what players hand in never changes it)."""
    twin = DuplicateGame("duplicate", lex, players=["me"], seed=seed)
    tops = []
    while not twin.is_over:
        tops.append(str(twin.tops()[0]))
        twin.close_round()
    return tops
