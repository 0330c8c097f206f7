"""Computer players by name: :data:`PLAYER_NAMES` and :func:`get_player`, which builds any of
them (the static players, the levels, the endgame and simulating players), and
:func:`level_number` for a level's name. It imports every player it builds; no player
imports it.
"""

from __future__ import annotations

from tessera.lexicon import Leaves, Lexicon

from .endgame_player import EndgamePlayer
from .level_player import LEVELS, LevelPlayer
from .players import StaticPlayer
from .race_player import RacePlayer, RaceSimPlayer
from .sim_player import SimPlayer

PLAYER_NAMES = (
    "static", "static-noleaves", "static-endgame", "level1", "level2", "level3", "level4",
    "level5", "sim", "best", "race",
)


def get_player(
    name: str,
    lexicon: Lexicon,
    *,
    seed: int | None = None,
    leaves: Leaves | None = None,
    time_limit: float | None = None,
) -> StaticPlayer:
    """A computer player by name: ``static`` (trained leaves), ``static-noleaves``,
    ``static-endgame`` (static, then the exact endgame search once the bag is empty),
    ``level1`` … ``level5``, ``sim`` (simulation, pre-endgame and exact endgame:
    :class:`~tessera.engine.SimPlayer`), ``race`` (a finish-line race played for the chance
    of reaching the target first, static elsewhere:
    :class:`~tessera.engine.race_player.RacePlayer`) and ``best`` (the strongest: ``sim``,
    which plays a finish-line race as ``race`` does).

    ``leaves`` overrides the shipped table; ``seed`` fixes a level or simulating player's
    random choices; ``time_limit`` is the seconds a move may take (the simulating players
    think for :data:`~tessera.engine.sim_player.DEFAULT_TIME_LIMIT` without one).
    """
    key = name.strip().lower()
    trained: Leaves | str = leaves if leaves is not None else "trained"
    if key == "static":
        return StaticPlayer(lexicon, trained, name=key, time_limit=time_limit)
    if key == "static-noleaves":
        return StaticPlayer(lexicon, None, name=key, time_limit=time_limit)
    if key == "static-endgame":
        return EndgamePlayer(lexicon, trained, name=key)
    if key == "sim":
        return SimPlayer(lexicon, trained, name=key, time_limit=time_limit, seed=seed)
    if key == "best":
        return RaceSimPlayer(lexicon, trained, name=key, time_limit=time_limit, seed=seed)
    if key == "race":
        return RacePlayer(lexicon, trained, name=key, time_limit=time_limit, seed=seed)
    level = level_number(key)
    if level is not None:
        return LevelPlayer(lexicon, level, trained, seed=seed, time_limit=time_limit)
    raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYER_NAMES)}")


def level_number(name: str) -> int | None:
    """N for a level's name ``levelN`` (1..5), else None."""
    if name.startswith("level") and name[5:].isdigit() and int(name[5:]) in LEVELS:
        return int(name[5:])
    return None

