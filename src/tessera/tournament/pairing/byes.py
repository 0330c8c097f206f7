"""Who takes the bye when an odd number of players is to be paired.

The bye rotates: it goes to the player with the fewest byes so far and, among them, the
lowest-ranked in the standings, so no one has a second bye while another active player has none.
"""

from __future__ import annotations

from collections.abc import Sequence

from tessera.tournament.history import PlayerRecord


def bye_player(players: Sequence[PlayerRecord]) -> PlayerRecord | None:
    """The player (of ``players``, in standings order) to take this round's bye, or None when
    the count is even."""
    if len(players) % 2 == 0:
        return None
    return next_bye(players)


def next_bye(players: Sequence[PlayerRecord]) -> PlayerRecord:
    """The player of ``players`` (standings order, not empty) whose turn the bye is."""
    fewest = min(p.byes for p in players)
    return [p for p in players if p.byes == fewest][-1]
