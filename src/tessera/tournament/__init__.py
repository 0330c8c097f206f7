"""Tournaments: a director's engine, as a pure library (no files, no network, no apps).

* :mod:`.model` — an event's divisions, players, rounds, pairings and results; every
  operation checks before it changes anything (:class:`TournamentError`).
* :mod:`.standings` — standings with named tie-breaks, a player's record, the crosstable.
* :mod:`.history` — what the pairing systems (:mod:`.pairing`) see of a division.
* :mod:`.ratings` — federation rating systems.
* :mod:`.simulate` — random events played through the model: what a pairing system does.

The command line and the server store events (:mod:`tessera.events`);
:mod:`tessera.formats.tsh` reads and writes TSH's division files.
"""

from __future__ import annotations

from .history import DivisionHistory, Pairing, PlayerRecord
from .model import Division, Event, Game, GameKind, Player, ScoringSettings, TournamentError
from .standings import Crosstable, PlayerRound, Standing

__all__ = [
    "Crosstable",
    "Division",
    "DivisionHistory",
    "Event",
    "Game",
    "GameKind",
    "Pairing",
    "Player",
    "PlayerRecord",
    "PlayerRound",
    "ScoringSettings",
    "Standing",
    "TournamentError",
]
