"""The rules presets a two-player game can be played under (issue 13's every-preset tests)."""

from __future__ import annotations

from tessera.rules import PRESETS

# every preset but ``duplicate``, which is a DuplicateGame (people against the master move,
# French tiles), not a game between two seats
TWO_PLAYER = sorted(
    name
    for name, rules in PRESETS.items()
    if rules.duplicate is None and rules.min_players <= 2 <= rules.max_players
)
