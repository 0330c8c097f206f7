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

``python -m benchmarks.endgame strength 2000`` plays the strength match instead: static +
exact endgame (``static-endgame``) against ``static``, both seats, seeded (the games
``tessera autoplay -p static-endgame,static -n 2000 -s 11`` plays, with any number of
workers), and the spread the endgame search gained in each game that reached an endgame: the
game's final spread less that of the same deal played by two static players (the moves before
the bag runs out are the same). CPU-heavy: about an hour on two cores.
"""

from __future__ import annotations

import math
import sys
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


def strength(games: int = 2000, seed: int = 11, workers: int = 2) -> None:
    """The match and the spread gained per game that reached an endgame."""
    from tessera.engine.players import default_leaves
    from tessera.engine.selfplay import MatchSpec, autoplay, play_compiled
    from tessera.lexicon import Lexicon
    from tessera.rules import preset

    spec = MatchSpec(("static-endgame", "static"), games, seed)
    rep, records = autoplay(spec, workers=workers, chunk=25)
    lo, hi = rep.ci95
    print(
        f"static-endgame vs static, {rep.games} games (ENABLE, naspa, seed {seed}, both seats): "
        f"wins {rep.wins:g} = {100 * rep.win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"ties {rep.ties}, mean spread {rep.mean_spread:+.2f}, {rep.seconds:.0f} s with "
        f"{rep.workers} workers"
    )
    lex = Lexicon.load("enable")
    rules = preset("naspa")
    leaves = default_leaves()
    gains: list[int] = []
    elsewhere = 0  # games that never reached an endgame yet differ from the mirror
    for r in records:
        mirror = play_compiled(rules, lex, r.seed, [leaves, leaves])
        seat = 0 if r.a_first_seat else 1
        base = mirror["scores"][seat] - mirror["scores"][1 - seat]
        gain = (r.scores[0] - r.scores[1]) - base
        if any(bag == 0 for _p, _m, _r, bag in mirror["turns"]):
            gains.append(gain)
        elif gain:
            elsewhere += 1
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    half = 1.959964 * sd / math.sqrt(n) if n else 0.0
    better = sum(1 for g in gains if g > 0)
    worse = sum(1 for g in gains if g < 0)
    print(
        f"{n} games reached an endgame: spread gained per game {mean:+.2f} "
        f"(95% CI {mean - half:+.2f} to {mean + half:+.2f}); better than static in {better}, "
        f"worse in {worse}; {elsewhere} games differed without an endgame"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["strength"]:
        strength(int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    else:
        main()
