"""HTML for notebooks: a ranked move list as a table of moves, scores and equities."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from itertools import islice

from ..display import MOVES_HTML, register
from ..move import Move, Play

ROWS = 50  # a notebook cell shows the best moves, not all several hundred


def moves_table(ranked: Iterable[tuple[Move, float]], total: int, rows: int = ROWS) -> str:
    """An HTML table of (move, equity) pairs, best first: rank, move, score, equity; a last
    line says how many more moves there are when ``total`` exceeds ``rows``."""
    out = [
        '<table class="tessera-moves">',
        "<thead><tr><th>#</th><th>move</th><th>score</th><th>equity</th></tr></thead>",
        "<tbody>",
    ]
    shown = 0
    for shown, (move, equity) in enumerate(islice(ranked, rows), start=1):
        score = move.score if isinstance(move, Play) and move.score is not None else 0
        out.append(
            f"<tr><td>{shown}</td><td><code>{escape(str(move))}</code></td>"
            f"<td>{score}</td><td>{equity:.1f}</td></tr>"
        )
    if total > shown:
        out.append(f'<tr><td colspan="4">… {total - shown} more</td></tr>')
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


register(MOVES_HTML, moves_table)

__all__ = ["moves_table"]
