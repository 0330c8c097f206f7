"""Average score of each computer level (1–5, best) against the same opponent.

Every level plays ``games`` games (both seats of each deal, fixed seeds) against
``static`` (trained leaves) through the Python ``Game``, and the table lists its mean score,
mean opponent score and win rate.

    python -m benchmarks levels
    python -m benchmarks.levels 200
"""

from __future__ import annotations

import sys
import time

from tessera.engine.selfplay import MatchSpec, autoplay, default_workers

LEVEL_NAMES = ("level1", "level2", "level3", "level4", "level5", "best")


def levels_table(games: int = 100, seed: int = 7, opponent: str = "static") -> list[dict]:
    rows = []
    print(f"each level vs {opponent}, {games} games each (both seats, seed {seed}, ENABLE, naspa)")
    print("| level | mean score | opponent | win % (95% CI) | bingos/game |")
    print("|---|---:|---:|---:|---:|")
    for name in LEVEL_NAMES:
        began = time.perf_counter()
        rep, _ = autoplay(
            MatchSpec((name, opponent), games, seed),
            workers=default_workers(),
            chunk=max(1, games // 8),
        )
        lo, hi = rep.ci95
        rows.append(
            {
                "level": name,
                "mean": rep.mean_scores[0],
                "opponent": rep.mean_scores[1],
                "win_rate": rep.win_rate,
                "seconds": time.perf_counter() - began,
            }
        )
        print(
            f"| {name} | {rep.mean_scores[0]:.1f} | {rep.mean_scores[1]:.1f} | "
            f"{100 * rep.win_rate:.1f} ({100 * lo:.0f}–{100 * hi:.0f}) | "
            f"{rep.bingos_per_game[0]:.2f} |",
            flush=True,
        )
    return rows


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else []
    levels_table(int(args[0]) if args else 100)


if __name__ == "__main__":
    main()
