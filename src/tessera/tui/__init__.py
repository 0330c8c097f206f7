"""The terminal game, ``tessera play``: a Rich-coloured board, people and computer players.

:class:`~tessera.tui.app.PlayApp` runs the loop; :mod:`tessera.tui.board` draws a player's
view; :mod:`tessera.tui.commands` reads what is typed at the prompt; :mod:`tessera.tui.lang`
gives every word said its language (English, Japanese or Hungarian).
"""

from __future__ import annotations

from .app import PlayApp, Seat, SetupError, parse_players
from .commands import Command, CommandError, Kind, parse_command

__all__ = [
    "Command",
    "CommandError",
    "Kind",
    "PlayApp",
    "Seat",
    "SetupError",
    "parse_command",
    "parse_players",
]
