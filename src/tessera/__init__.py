"""Tessera: a crossword board game system (the game sold as Scrabble®) — the public API.

>>> import tessera
>>> game = tessera.Game(rules="hasbro", players=["Ann", "Bob"], seed=7, first=0)
>>> game.set_rack("Ann", "QUITEAB")
>>> game.play("8D QUITE").score
48

The rules core (tiles, layouts, rules, board, moves, scoring, legality, game, duplicate) is imported
here, and so are the renderers (``tessera.render``), which draw the core's text and notebook
forms (``str(board)``, ``str(game)``: see ``tessera.display``); word lists (``tessera.Lexicon``,
``tessera.lexicon``) and file formats (``tessera.formats``) load on first use, so
``import tessera`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# the renderers register what str(board), str(game) and the notebook pictures draw
# (tessera.display): imported here, they are registered whichever tessera module is used
from . import render as render
from .board import Board
from .duplicate import DuplicateGame, DuplicateResult, DuplicateView
from .game import Event, EventKind, Game, GameResult, PlayerView
from .layouts import Layout, layout
from .legality import IllegalMove, Reason
from .move import Challenge, Exchange, Move, Pass, Play, parse_move
from .rules import PRESETS, Rules, preset
from .scoring import score_breakdown, score_play
from .tiles import Alphabet, Rack, TileSet, tileset

if TYPE_CHECKING:
    from . import engine as engine
    from . import formats as formats
    from . import lexicon as lexicon
    from .lexicon import Lexicon as Lexicon
    from .movegen import MoveList as MoveList
    from .movegen import generate_moves as generate_moves


def _version() -> str:
    """The installed distribution's version (importlib.metadata is slow to import, so late)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tessera")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0.0.0+unknown"

# name -> (module, attribute or None for the module itself), imported on first access
_LAZY: dict[str, tuple[str, str | None]] = {
    "Lexicon": ("tessera.lexicon", "Lexicon"),
    "lexicon": ("tessera.lexicon", None),
    "formats": ("tessera.formats", None),
    "engine": ("tessera.engine", None),
    "generate_moves": ("tessera.movegen", "generate_moves"),
    "MoveList": ("tessera.movegen", "MoveList"),
}


def __getattr__(name: str) -> Any:
    """Load the heavier parts of the API (word lists, file formats, the version) on first
    access."""
    if name == "__version__":
        value: Any = _version()
        globals()[name] = value
        return value
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'tessera' has no attribute {name!r}")
    module_name, attr = target
    module = import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})


__all__ = [
    "PRESETS",
    "Alphabet",
    "Board",
    "Challenge",
    "DuplicateGame",
    "DuplicateResult",
    "DuplicateView",
    "Event",
    "EventKind",
    "Exchange",
    "Game",
    "GameResult",
    "IllegalMove",
    "Layout",
    "Lexicon",
    "Move",
    "MoveList",
    "Pass",
    "Play",
    "PlayerView",
    "Rack",
    "Reason",
    "Rules",
    "TileSet",
    "__version__",
    "generate_moves",
    "layout",
    "parse_move",
    "preset",
    "score_breakdown",
    "score_play",
    "tileset",
]
