"""Computer players: static equity, simulation, levels for people, self-play and training.

>>> from tessera.engine import get_player          # doctest: +SKIP
>>> bot = get_player("level3", lexicon)             # doctest: +SKIP
>>> game.play(bot.choose(game.view(game.to_move)))  # doctest: +SKIP
>>> simulate(game.view(game.to_move), iterations=500).best   # doctest: +SKIP
"""

from tessera.engine.inference import Inference, infer
from tessera.engine.players import (
    LEVELS,
    PLAYER_NAMES,
    Level,
    LevelPlayer,
    Player,
    RankedMove,
    StaticPlayer,
    default_leaves,
    get_player,
)
from tessera.engine.sim_player import SimPlayer
from tessera.engine.simulation import SimCandidate, SimResult, SimulationError, simulate
from tessera.engine.winpct import WinTable, default_win_table

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "Inference",
    "Level",
    "LevelPlayer",
    "Player",
    "RankedMove",
    "SimCandidate",
    "SimPlayer",
    "SimResult",
    "SimulationError",
    "StaticPlayer",
    "WinTable",
    "default_leaves",
    "default_win_table",
    "get_player",
    "infer",
    "simulate",
]
