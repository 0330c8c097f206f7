"""Trained leaves against zero leaves, for every shipped table: the README's table.

For each table in ``src/tessera/data/leaves/tables.json``, and for the presets that play with
another preset's table (Clabbers and finish-line use the standard game's), ``static`` (which
values its leaves with the table of the game it plays) meets ``static-noleaves`` in ``games``
games of that preset and lexicon (both seats of each deal, fixed seeds), exactly as

    tessera autoplay --games 1000 --players static,static-noleaves -r PRESET -l LEXICON --seed 2026

runs it. A table whose lexicon is not installed here (``tessera lexicon install CODE``) is
listed as skipped.

    python -m benchmarks leaves            # 1,000 games a table
    python -m benchmarks.leaves 200        # fewer
"""

from __future__ import annotations

import sys
import time

from tessera.engine.selfplay import MatchSpec, autoplay, default_workers
from tessera.engine.shipped_leaves import shipped_tables, table_for
from tessera.lexicon import Lexicon, LexiconError
from tessera.rules import preset

SEED = 2026
BORROWED = (("clabbers", "enable"), ("finish_line", "enable"))  # (preset, lexicon)


def leaves_table(games: int = 1000, seed: int = SEED) -> list[dict]:
    rows = []
    print(f"trained vs zero leaves, {games} games a table (both seats, seed {seed})")
    print("| table | preset | lexicon | win % (95% CI) | spread | bingos/game | games/s |")
    print("|---|---|---|---:|---:|---:|---:|")
    games_played = [(t.rules, t.lexicon) for t in shipped_tables()] + list(BORROWED)
    for rules, lexicon in games_played:
        try:
            lex = Lexicon.load(lexicon)
        except LexiconError:
            print(f"| | {rules} | {lexicon} | skipped: lexicon not installed | | | |", flush=True)
            continue
        table = table_for(preset(rules).for_alphabet(lex.alphabet))
        name = table.file if table else "none"
        began = time.perf_counter()
        rep, _ = autoplay(
            MatchSpec(("static", "static-noleaves"), games, seed, lexicon, rules),
            workers=default_workers(), chunk=max(1, games // 20),
        )
        seconds = time.perf_counter() - began
        lo, hi = rep.ci95
        rows.append({"table": name, "rules": rules, "win_rate": rep.win_rate, "ci95": (lo, hi)})
        print(
            f"| {name} | {rules} | {lexicon} | "
            f"{100 * rep.win_rate:.1f} ({100 * lo:.1f}–{100 * hi:.1f}) | "
            f"{rep.mean_spread:+.1f} | {rep.bingos_per_game[0]:.2f} vs "
            f"{rep.bingos_per_game[1]:.2f} | {games / seconds:.0f} |",
            flush=True,
        )
    return rows


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else sys.argv[2:]
    leaves_table(int(args[0]) if args else 1000)


if __name__ == "__main__":
    main()
