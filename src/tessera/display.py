"""How the rules core shows itself: the hooks behind ``str(board)``, ``str(game)``, a player
view's text, a notebook's picture of a board and a move list's HTML table.

The drawing itself lives in :mod:`tessera.render`, which builds on the board; the core must
not import it back. So each renderer registers itself here when its module is imported
(``import tessera`` imports them all, so they are registered whenever any tessera module is
in use), and the core's ``__str__``, ``_repr_svg_`` and ``_repr_html_`` call :func:`draw`
with the kind of picture they want.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The kinds of picture, each with the arguments its renderer takes:
BOARD_TEXT = "board text"  # (board, alphabet or None): rows of labels, :mod:`tessera.render.text`
BOARD_SVG = "board svg"  # (board, tileset): an SVG picture, :mod:`tessera.render.svg`
POSITION_TEXT = "position text"  # (board, names, scores, racks, to_move): board above scores
MOVES_HTML = "moves html"  # (ranked (move, equity) pairs, total): :mod:`tessera.render.html`

KINDS = frozenset({BOARD_TEXT, BOARD_SVG, POSITION_TEXT, MOVES_HTML})

_renderers: dict[str, Callable[..., str]] = {}


def register(kind: str, renderer: Callable[..., str]) -> None:
    """Make ``renderer`` the one that draws ``kind`` (one of :data:`KINDS`)."""
    if kind not in KINDS:
        raise ValueError(f"no picture kind {kind!r}; the kinds are {', '.join(sorted(KINDS))}")
    _renderers[kind] = renderer


def draw(kind: str, *args: Any) -> str:
    """``kind`` drawn by its registered renderer from ``args``."""
    renderer = _renderers.get(kind)
    if renderer is None:
        raise LookupError(f"no renderer draws {kind!r}: import tessera.render to register them")
    return renderer(*args)


__all__ = ["BOARD_SVG", "BOARD_TEXT", "KINDS", "MOVES_HTML", "POSITION_TEXT", "draw", "register"]
