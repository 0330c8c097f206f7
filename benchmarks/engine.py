"""Static-vs-static self-play throughput (ENABLE, NASPA rules) and the leaves acceptance match.

Throughput is measured in one process: games per second of wall time and per second of CPU
time of that process (per core). The match plays StaticPlayer with the shipped trained
leaves against StaticPlayer with zero leaves, both seat orders, fixed seeds.

    python -m benchmarks engine            # both
    python -m benchmarks.engine throughput 1000
    python -m benchmarks.engine match 2000
"""

from __future__ import annotations

import sys
import time

from tessera.engine.players import StaticPlayer, default_leaves
from tessera.engine.selfplay import (
    MatchSpec,
    autoplay,
    default_workers,
    play_compiled,
    play_game,
)
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset


def throughput(games: int = 1000, seed: int = 0) -> dict[str, float]:
    """Games per second (wall and CPU) of trained-static vs trained-static self-play."""
    rules = preset("naspa")
    lex = Lexicon.load("enable")
    table = default_leaves()
    play_compiled(rules, lex, seed, [table, table])  # warm up: engine, tables
    wall, cpu = time.perf_counter(), time.process_time()
    turns = 0
    for i in range(games):
        turns += len(play_compiled(rules, lex, seed + i, [table, table])["turns"])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    out = {
        "games": games,
        "wall_s": wall,
        "cpu_s": cpu,
        "games_per_wall_s": games / wall,
        "games_per_cpu_s": games / cpu,
        "turns_per_game": turns / games,
    }
    print(
        f"static vs static (ENABLE, naspa), {games} games in one process: "
        f"{out['games_per_cpu_s']:.1f} games per CPU-second (per core), "
        f"{out['games_per_wall_s']:.1f} games per wall-second, "
        f"{out['turns_per_game']:.1f} turns per game"
    )
    # side by side: the same games driven move by move through tessera.game.Game (each turn a
    # PlayerView, a compiled ranking and Game.play), as a Python bot would play them
    reference = max(1, games // 20)
    players = [StaticPlayer(lex, table), StaticPlayer(lex, table)]
    cpu = time.process_time()
    for i in range(reference):
        play_game(Game(rules, lexicon=lex, players=("A", "B"), seed=seed + i), players)
    cpu = time.process_time() - cpu
    out["python_loop_games_per_cpu_s"] = reference / cpu
    print(
        f"  the first {reference} of them driven through tessera.game.Game by StaticPlayer: "
        f"{reference / cpu:.1f} games per CPU-second; the compiled loop is "
        f"{out['games_per_cpu_s'] / (reference / cpu):.1f}x faster "
        f"(target: >= 50 games per CPU-second: "
        f"{'met' if out['games_per_cpu_s'] >= 50 else 'NOT met'})"
    )
    return out


def match(games: int = 2000, seed: int = 2026) -> None:
    """The acceptance match: trained leaves vs zero leaves."""
    spec = MatchSpec(("static", "static-noleaves"), games, seed)
    rep, _ = autoplay(spec, workers=default_workers(), chunk=100)
    lo, hi = rep.ci95
    print(
        f"static vs static-noleaves, {rep.games} games (both seats, seed {seed}): "
        f"wins {rep.wins:g} = {100 * rep.win_rate:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%), "
        f"mean scores {rep.mean_scores[0]:.1f} vs {rep.mean_scores[1]:.1f}, "
        f"spread {rep.mean_spread:+.1f}, bingos/game {rep.bingos_per_game[0]:.2f} vs "
        f"{rep.bingos_per_game[1]:.2f}, {rep.games_per_second:.1f} games/s "
        f"with {rep.workers} workers"
    )


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else []
    what = args[0] if args else "all"
    n = int(args[1]) if len(args) > 1 else None
    if what in ("all", "throughput"):
        throughput(n or 1000)
    if what in ("all", "match"):
        match(n or 2000)


if __name__ == "__main__":
    main()
