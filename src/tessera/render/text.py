"""A plain-text board: column letters, row numbers, tiles, and the premium squares that are
still empty (``3W`` ``2W`` ``3L`` ``2L``, ``4W``/``4L`` on Super boards, ``*`` for an empty
start square). Blanks show in lower case. With ``color=True`` the text carries ANSI colours
(premium squares tinted, blanks marked); the characters are the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..board import Board
from ..display import BOARD_TEXT, POSITION_TEXT, register
from ..tiles import Alphabet

CELL = 3  # characters per square: a label of up to three letters fits

_PREMIUM_COLOURS = {
    "4W": "magenta",
    "3W": "red",
    "2W": "bright_red",
    "4L": "cyan",
    "3L": "blue",
    "2L": "bright_cyan",
}


def _styled(text: str, **style: Any) -> str:
    """``text`` in ANSI colours; click is imported only when colour is asked for (``import
    tessera`` imports this module to register it, and click is not cheap to import)."""
    import click

    return click.style(text, **style)


def _cell(board: Board, alphabet: Alphabet | None, row: int, col: int, color: bool) -> str:
    tile = board.get(row, col)
    if tile:
        label = str(tile) if alphabet is None else alphabet.label(tile)
        text = label.rjust(CELL)
        if color:
            blank = bool(tile & 0x80)
            return _styled(text, fg="yellow" if blank else "bright_white", bold=True)
        return text
    layout = board.layout
    if (row, col) == layout.start:
        token = "*"
    else:
        token = layout.premium(row, col)
    text = token.rjust(CELL)
    if color and token in _PREMIUM_COLOURS:
        return _styled(text, fg=_PREMIUM_COLOURS[token])
    if color:
        return _styled(text, dim=True)
    return text


def render_board(board: Board, alphabet: Alphabet | None, *, color: bool = False) -> str:
    """The board as text, one line per row plus a header of column letters (tile ids in
    place of letters when no alphabet is known)."""
    width = len(str(board.rows))
    header = " " * (width + 1) + "".join(chr(65 + c).rjust(CELL) for c in range(board.cols))
    lines = [header]
    for r in range(board.rows):
        cells = "".join(_cell(board, alphabet, r, c, color) for c in range(board.cols))
        lines.append(f"{r + 1:>{width}} {cells}  {r + 1}")
    lines.append(header)
    return "\n".join(lines) + "\n"


def render_scores(
    names: Sequence[str],
    scores: Sequence[int],
    racks: Sequence[str] | None = None,
    to_move: int | None = None,
) -> str:
    """One line per player: a ``>`` before the player to move, the name, score and rack."""
    width = max(len(n) for n in names)
    lines = []
    for i, (name, score) in enumerate(zip(names, scores, strict=True)):
        mark = ">" if i == to_move else " "
        rack = f"  {racks[i]}" if racks is not None and racks[i] else ""
        lines.append(f"{mark} {name.ljust(width)}  {score:>4}{rack}")
    return "\n".join(lines) + "\n"


def render_position(
    board: Board,
    names: Sequence[str],
    scores: Sequence[int],
    racks: Sequence[str],
    to_move: int | None,
) -> str:
    """The board (in its own display alphabet) above the score lines: ``str`` of a game and of
    a player's view."""
    return f"{board}\n{render_scores(names, scores, racks, to_move)}".rstrip("\n")


register(BOARD_TEXT, render_board)
register(POSITION_TEXT, render_position)

__all__ = ["render_board", "render_position", "render_scores"]
