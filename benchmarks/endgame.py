"""Exact endgame solver: time to prove each committed self-play endgame, nodes per second and the
transposition table's hit rate (ENABLE, NASPA rules).

Run with ``python -m benchmarks endgame``. Reads ``benchmarks/data/endgame_positions.cgp``
(18 endgames of 2 to 7 tiles a side, written by ``benchmarks/_make_endgame_positions.py``) and,
for each, in one run side by side:

* the solver on one thread (table cleared first): seconds to prove, nodes (moves made), nodes
  per second, table hit rate;
* the solver on two threads (lazy SMP), and plain alpha-beta to the end (no table, no PVS, no
  deepening), both as ratios of their total time to the one-thread solver's.

Times are wall-clock seconds of each search; the ratios are the claim (the machine is shared).
"""

from __future__ import annotations

import time
from pathlib import Path

DATA = Path(__file__).parent / "data" / "endgame_positions.cgp"
LIMIT = 120.0  # seconds a search


def main() -> None:
    from tessera.engine.endgame import engine, position_of, search
    from tessera.formats.cgp import loads
    from tessera.lexicon import Lexicon

    lex = Lexicon.load("enable")
    lines = [line for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    print(f"{len(lines)} self-play endgames, one search each (limit {LIMIT:.0f} s)")
    print(f"{'#':>3} {'tiles':>5} {'value':>6} {'proven':>6} {'seconds':>8} {'nodes':>9} "
          f"{'nodes/s':>9} {'TT hits':>7} {'2 thr s':>8} {'plain s':>8}")
    totals = {"one": 0.0, "two": 0.0, "plain": 0.0, "nodes": 0}
    unproven = 0
    for i, line in enumerate(lines):
        game = loads(line).to_game(lexicon=lex, seed=0)
        pos = position_of(game)
        solver = engine(lex, game.rules)
        runs = {}
        for name, kwargs in (("one", {}), ("two", {"threads": 2}), ("plain", {"plain": True})):
            runs[name] = search(
                solver, pos, deadline=time.monotonic() + LIMIT, clear=True, **kwargs
            )
            totals[name] += runs[name].seconds
        one = runs["one"]
        totals["nodes"] += one.nodes
        unproven += not one.proven
        for name in ("two", "plain"):
            if runs[name].proven and one.proven:
                assert runs[name].value == one.value, f"position {i}: values differ"
        tiles = f"{sum(pos.rack)}-{sum(pos.other)}"
        rate = one.nodes / one.seconds if one.seconds > 0 else 0.0
        print(f"{i:>3} {tiles:>5} {one.value:>+6d} {'yes' if one.proven else 'NO':>6} "
              f"{one.seconds:>8.3f} {one.nodes:>9d} {rate:>9.0f} {100 * one.tt_hit_rate:>6.1f}% "
              f"{runs['two'].seconds:>8.3f} {runs['plain'].seconds:>8.3f}", flush=True)
    rate = totals["nodes"] / totals["one"] if totals["one"] else 0.0
    print(
        f"total: {totals['one']:.2f} s on one thread ({unproven} not proven), {rate:,.0f} "
        f"nodes/s; two threads take {totals['two'] / totals['one']:.2f}x the time "
        f"(speed-up {totals['one'] / totals['two']:.2f}x), plain alpha-beta "
        f"{totals['plain'] / totals['one']:.2f}x"
    )


if __name__ == "__main__":
    main()
