"""Computer players: static equity, levels for people, self-play and leave training.

>>> from tessera.engine import get_player          # doctest: +SKIP
>>> bot = get_player("level3", lexicon)             # doctest: +SKIP
>>> game.play(bot.choose(game.view(game.to_move)))  # doctest: +SKIP
"""

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

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "Level",
    "LevelPlayer",
    "Player",
    "RankedMove",
    "StaticPlayer",
    "default_leaves",
    "get_player",
]
