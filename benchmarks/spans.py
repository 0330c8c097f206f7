"""Where a best-move search spends its walks: a census of spans on the committed positions.

Run with ``python -m benchmarks spans [--positions N]`` (default all 600 of
``benchmarks/data/movegen_positions.cgp``, with the shipped ENABLE leaves). A span is the
stretch of a line from a play's first tile to its last (``Generator.span_bounds`` lists every
span a play could cover, with an upper bound of its equity). The top-1 search must fill every
span whose bound reaches the best move's equity; the census counts, per position, all spans,
those that must be filled, and how many of these hold no play at all (found from the full move
list) -- the walks whose only result is learning that no word fits, which is what the
generator's pivoted GADDAG fill makes cheap.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from benchmarks.movegen import _load


def _span_of(move: Any) -> tuple[int, int, int, int]:
    """(direction, line, first square, last square) of a play."""
    line, first = (move.row, move.col) if move.across else (move.col, move.row)
    return (0 if move.across else 1, line, first, first + len(move.word) - 1)


def span_census(limit: int = 0) -> dict[str, float]:
    """Means per position over the first ``limit`` positions (0: all)."""
    from tessera.move import Play
    from tessera.movegen import _counts_of, compiled_generator, generate_moves

    positions, lex, leaves = _load()
    positions = positions[:limit] if limit else positions
    totals = {"spans": 0, "must_fill": 0, "must_fill_empty": 0, "plays_outside": 0}
    for board, rack, rules, bag in positions:
        gen = compiled_generator(lex, rules, leaves)
        bounds = {(d, line, a, b): bound for d, line, a, b, bound
                  in gen.span_bounds(board.cell_bytes(), _counts_of(rack, lex))}
        moves = generate_moves(board, rack, lex, rules, leaves=leaves, bag_count=bag)
        best = moves.equity(0)
        with_plays = {_span_of(m) for m in moves if isinstance(m, Play)}
        must = [s for s, bound in bounds.items() if bound >= best]
        totals["spans"] += len(bounds)
        totals["must_fill"] += len(must)
        totals["must_fill_empty"] += sum(s not in with_plays for s in must)
        totals["plays_outside"] += len(with_plays - bounds.keys())
    n = max(1, len(positions))
    return {key: value / n for key, value in totals.items()} | {"positions": len(positions)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks spans", description=__doc__)
    parser.add_argument("--positions", type=int, default=0, help="the first N (default all)")
    opts = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else sys.argv[2:])
    census = span_census(opts.positions)
    print(f"{census['positions']} positions (ENABLE, NASPA, shipped leaves), means per position:")
    print(f"  spans a play could cover            {census['spans']:7.1f}")
    print(f"  spans whose bound reaches the best  {census['must_fill']:7.1f}  (top 1 fills them)")
    print(f"  ... of which hold no play           {census['must_fill_empty']:7.1f}")
    print(f"  plays in no listed span (must be 0) {census['plays_outside']:7.1f}")


if __name__ == "__main__":
    main()
