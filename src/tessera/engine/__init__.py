"""Computer players: static equity, simulation, levels for people, self-play and training.

>>> from tessera import Game
>>> from tessera.engine import get_player, simulate
>>> from tessera.lexicon import Lexicon
>>> lexicon = Lexicon.load("enable")
>>> game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, lexicon=lexicon, first=0)
>>> game.set_rack("Ann", "QUITEAB")
>>> get_player("static", lexicon).choose(game.view("Ann"))
Play('8D QUIET', score=48)
>>> simulate(game.view("Ann"), iterations=100, seed=1, lexicon=lexicon).best.move
Play('8D QUITE', score=48)
"""

from tessera.engine.duplicate_players import DuplicateComputer
from tessera.engine.inference import Inference, infer
from tessera.engine.level_player import LEVELS, Level, LevelPlayer
from tessera.engine.players import Player, RankedMove, StaticPlayer, default_leaves
from tessera.engine.registry import PLAYER_NAMES, get_player
from tessera.engine.sim_player import SimPlayer
from tessera.engine.simulation import SimCandidate, SimResult, SimulationError, simulate
from tessera.engine.winpct import WinTable, default_win_table

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "DuplicateComputer",
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
