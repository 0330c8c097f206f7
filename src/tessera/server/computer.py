"""The computer opponent and hints, from what one player may know (a PlayerView).

Moves come from the engine's players (``tessera.engine.get_player``) and hints from the move
generator (``tessera.movegen.generate_moves``: the compiled core, or its Python reference where
the core is missing) — the one place moves are found.
"""

from __future__ import annotations

from typing import Any, Protocol

from tessera.game import PlayerView
from tessera.move import Move, Play


class Chooser(Protocol):
    """What the server needs of a computer player."""

    def choose(self, view: PlayerView) -> Move: ...


def computer_player(level: str, lexicon: Any, seed: int = 0) -> Chooser:
    """The engine's player for ``level``."""
    from tessera.engine import get_player

    return get_player(level, lexicon, seed=seed)


def levels() -> tuple[str, ...]:
    """The computer levels the new-game dialog offers."""
    from tessera.engine import PLAYER_NAMES

    return tuple(n for n in PLAYER_NAMES if n.startswith("level") or n == "best")


def top_plays(view: PlayerView, lexicon: Any, n: int = 5) -> list[Play]:
    """Hints: the ``n`` best-scoring plays for the viewer's own rack on the view's board."""
    from tessera.movegen import generate_moves

    # ranked by score (no leave values); one more than asked, as the pass may be among them
    moves = generate_moves(view.board, list(view.rack), lexicon, view.rules, top=n + 1)
    return [m for m in moves if isinstance(m, Play)][:n]
