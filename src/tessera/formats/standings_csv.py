"""A division's standings as CSV, one row a player in standings order, for spreadsheets.

The columns are :data:`COLUMNS`, named in a header row; points print as ``3`` or ``3.5``, a
player without a game has an empty ``high_game``. Names come from users, and a spreadsheet
runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, so a text cell that
starts with one of those (or a tab or carriage return) is written with a leading ``'``, the
spreadsheets' mark for "text" (OWASP, "CSV Injection"); :func:`cell_text` is the rule.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ..tournament.standings import Standing

COLUMNS = (
    "rank", "number", "name", "rating", "class", "points", "won", "lost", "tied", "spread",
    "cumulative_score", "opponents_points", "firsts", "seconds", "byes", "repeats",
    "high_game",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell_text(text: str) -> str:
    """``text`` as a cell no spreadsheet runs as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _number(value: float) -> str:
    return f"{value:g}"


def dumps(table: Sequence[Standing]) -> str:
    """The standings ``table`` (``Division.standings()``) as CSV text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for s in table:
        e = s.entrant
        writer.writerow((
            s.rank, e.number, cell_text(e.name), e.rating, cell_text(e.player_class or ""),
            _number(s.points), s.won, s.lost, s.tied, s.spread, s.cumulative_score,
            _number(s.opponents_points), s.firsts, s.seconds, s.byes, s.repeats,
            "" if s.high_game is None else s.high_game,
        ))
    return out.getvalue()


__all__ = ["COLUMNS", "FORMULA_STARTS", "cell_text", "dumps"]
