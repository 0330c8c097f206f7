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
    python -m benchmarks leaves -r nine_tile -l enable --seeds 7-14   # one game, 8 seeds pooled

``--head-to-head A B`` plays two tables against each other instead (``static`` with table A
against ``static`` with table B; ``shipped`` names the preset's shipped table), as TRAINING.md's
head-to-head figures were measured; ``--scale-b F`` multiplies B's values by F first:

    python -m benchmarks leaves --head-to-head shipped shipped --scale-b 1.15 -r nine_tile \
        --seeds 7-10 --games 1000

``--b-zero-size N`` lists every leave of N tiles in B at 0, as the engine valued a leave
longer than its table's before such leaves were valued from their sub-leaves (3 December
2026): ``--head-to-head shipped shipped --b-zero-size 6 -r super`` measures that change.

``--head-start K,K,...`` prices the trained leaves in points: the shipped table against zero
leaves, then zero leaves starting K points ahead against zero leaves, over the same deals, and
the head start that wins as often as the table (why a short finish-line race leaves the table
little to win):

    python -m benchmarks leaves --head-start 4,8,12,16 -r finish_line --seeds 7-14
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tessera.engine.selfplay import (
    MatchSpec,
    Report,
    autoplay,
    default_workers,
    plan,
    play_compiled,
    report,
    wilson,
)
from tessera.engine.shipped_leaves import shipped_tables, table_for, trained_leaves
from tessera.engine.training import all_leaves
from tessera.lexicon import Lexicon, LexiconError
from tessera.lexicon.leaves import Leaves
from tessera.rules import FINISH_LINE_TARGETS, Rules, preset

SEED = 2026
BORROWED = (("clabbers", "enable"), ("finish_line", "enable"))  # (preset, lexicon)


def _seeds_label(seeds: range) -> str:
    return f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {seeds[0]}–{seeds[-1]}"


def _match(pair: tuple[str, str], games: int, seeds: range, lexicon: str, rules: str,
           **tables: str) -> tuple[list[Report], Report, float]:
    """``games`` games a seed (both seats of each deal): each seed's report, all pooled, and
    the seconds taken."""
    reports, records = [], []
    began = time.perf_counter()
    for seed in seeds:
        spec = MatchSpec(pair, games, seed, lexicon, rules, **tables)
        rep, recs = autoplay(spec, workers=default_workers(), chunk=max(1, games // 20))
        reports.append(rep)
        records += recs
    seconds = time.perf_counter() - began
    return reports, report(pair, records, seconds, default_workers()), seconds


def _pct(rep: Report) -> str:
    return _pct_ci(rep.win_rate, rep.ci95)


def _pct_ci(rate: float, ci95: tuple[float, float]) -> str:
    lo, hi = ci95
    return f"{100 * rate:.1f} ({100 * lo:.1f}–{100 * hi:.1f})"


def leaves_table(
    games: int = 1000, seeds: range = range(SEED, SEED + 1),
    only: tuple[str, str] | None = None,
) -> list[dict]:
    """Each table (or only the game ``only`` = (preset, lexicon)) against zero leaves."""
    rows = []
    print(f"trained vs zero leaves, {games} games a table and seed (both seats, "
          f"{_seeds_label(seeds)})")
    print("| table | preset | lexicon | win % (95% CI) | spread | bingos/game | games/s |")
    print("|---|---|---|---:|---:|---:|---:|")
    games_played = [(t.rules, t.lexicon) for t in shipped_tables()] + list(BORROWED)
    for rules, lexicon in [only] if only else games_played:
        try:
            lex = Lexicon.load(lexicon)
        except LexiconError:
            print(f"| | {rules} | {lexicon} | skipped: lexicon not installed | | | |", flush=True)
            continue
        table = table_for(preset(rules).for_alphabet(lex.alphabet))
        name = table.file if table else "none"
        _, rep, seconds = _match(("static", "static-noleaves"), games, seeds, lexicon, rules)
        rows.append({"table": name, "rules": rules, "win_rate": rep.win_rate, "ci95": rep.ci95})
        print(
            f"| {name} | {rules} | {lexicon} | {_pct(rep)} | "
            f"{rep.mean_spread:+.1f} | {rep.bingos_per_game[0]:.2f} vs "
            f"{rep.bingos_per_game[1]:.2f} | {rep.games / seconds:.0f} |",
            flush=True,
        )
    return rows


def _table_path(name: str, rules: str, lexicon: str) -> str:
    """A table argument as a file: ``shipped`` is the table the preset plays with."""
    if name != "shipped":
        return name
    leaves = trained_leaves(Lexicon.load(lexicon), preset(rules))
    if leaves is None or leaves.path is None:
        sys.exit(f"no shipped table for {rules} with {lexicon}")
    return str(leaves.path)


MAX_ZERO_LEAVES = 8_000_000  # leaves listed by --b-zero-size (memory and build time)


def _with_zero_leaves(table: Leaves, size: int, rules: str, lexicon: str) -> Leaves:
    """``table`` with every leave of ``size`` tiles it lacks listed at 0: a table as the engine
    played it before an unlisted leave was valued from its sub-leaves (exact when ``size`` is
    the only leave size between the table's longest and the rack)."""
    counts = preset(rules).for_alphabet(Lexicon.load(lexicon).alphabet).tileset.counts
    listed = dict(table.items())
    extra = [leave for leave in all_leaves(counts, size) if len(leave) == size]
    if len(extra) > MAX_ZERO_LEAVES:
        sys.exit(f"{len(extra):,} leaves of {size} tiles: more than {MAX_ZERO_LEAVES:,}")
    for leave in extra:
        listed.setdefault(tuple(leave), 0.0)
    return Leaves.from_mapping(listed)


def head_to_head(
    a: str, b: str, *, rules: str = "naspa", lexicon: str = "enable", games: int = 1000,
    seeds: range = range(SEED, SEED + 1), scale_b: float = 1.0, b_zero_size: int = 0,
) -> dict:
    """Table ``a`` against table ``b`` (B's values times ``scale_b``; with ``b_zero_size`` N,
    every leave of N tiles listed at 0), ``games`` games a seed (both seats of each deal):
    per seed and pooled, A's wins with their 95% interval."""
    a_path, b_path = _table_path(a, rules, lexicon), _table_path(b, rules, lexicon)
    with tempfile.TemporaryDirectory() as tmp:
        if scale_b != 1.0 or b_zero_size:
            table = Leaves.load(b_path)
            table = Leaves(table.kwg, [v * scale_b for v in table.values])
            if b_zero_size:
                table = _with_zero_leaves(table, b_zero_size, rules, lexicon)
            changed = Path(tmp) / "b.klv2"
            table.save(changed)
            b_path = str(changed)
        scaled = f" × {scale_b}" if scale_b != 1.0 else ""
        zeros = f", leaves of {b_zero_size} at 0" if b_zero_size else ""
        print(f"A = {a}, B = {b}{scaled}{zeros} "
              f"({rules}, {lexicon}; {games} games a seed, both seats)")
        per_seed, pooled, _ = _match(("static", "static"), games, seeds, lexicon, rules,
                                     leaves_path=a_path, b_leaves_path=b_path)
    print("| seed | A wins % (95% CI) | spread |")
    print("|---:|---:|---:|")
    for seed, rep in zip(seeds, per_seed, strict=True):
        print(f"| {seed} | {_pct(rep)} | {rep.mean_spread:+.1f} |")
    print(f"| all | **{_pct(pooled)}** | {pooled.mean_spread:+.1f} |")
    return {"win_rate": pooled.win_rate, "ci95": pooled.ci95, "games": pooled.games}


@dataclass
class _Tally:
    """Player A's games against zero leaves: wins (ties half), A's turns and points gained
    beyond B's (the head start left out)."""

    won: float = 0.0
    games: int = 0
    turns: int = 0
    spread: int = 0

    def row(self, label: str, points: bool = True) -> str:
        """A table row; ``points``: with A's turns and points (not for a head start, whose
        race ends sooner for A)."""
        rate = self.won / self.games
        won = _pct_ci(rate, wilson(rate, self.games))
        if not points:
            return f"| {label} | zero leaves | {won} | | | |"
        return (f"| {label} | zero leaves | {won} | {self.turns / self.games:.2f} | "
                f"{self.spread / self.games:+.1f} | {self.spread / max(1, self.turns):+.2f} |")


def _wins(game: Rules, lex: Lexicon, games: int, seeds: range, a_leaves: Leaves | None,
          a_start: int) -> _Tally:
    """Player A against zero leaves, A valuing leaves with ``a_leaves`` and starting
    ``a_start`` points ahead: ``games`` a seed, both seats of each deal, as ``_match`` deals
    them."""
    tally = _Tally()
    for seed in seeds:
        for _, deal, a_first in plan(MatchSpec(("A", "B"), games, seed)):
            a_seat = 0 if a_first else 1
            tables, start = [None, None], [0, 0]
            tables[a_seat], start[a_seat] = a_leaves, a_start
            final = play_compiled(game, lex, deal, tables, scores=start)
            a, b = final["scores"][a_seat], final["scores"][1 - a_seat]
            tally.won += 1.0 if a > b else 0.5 if a == b else 0.0
            tally.games += 1
            tally.turns += sum(1 for turn in final["turns"] if turn[0] == a_seat)
            tally.spread += a - a_start - b
    return tally


def head_start(starts: list[int], *, rules: str = "finish_line", lexicon: str = "enable",
               games: int = 1000, seeds: range = range(SEED, SEED + 1)) -> dict:
    """The shipped table against zero leaves, and zero leaves with each head start in
    ``starts`` against zero leaves: A's wins, and the head start the table is worth
    (interpolated between the two starts around its win rate; None outside them). In a
    finish-line game, the table against zero leaves at each level's target too (R8.3)."""
    lex = Lexicon.load(lexicon)
    game = preset(rules).for_alphabet(lex.alphabet)
    table = trained_leaves(lex, game)
    if table is None:
        sys.exit(f"no shipped table for {rules} with {lexicon}")
    print(f"what {table.path.name if table.path else 'the table'} is worth in points "
          f"({rules}, {lexicon}; {games} games a seed, {_seeds_label(seeds)}, both seats)")
    print("| A | B | A wins % (95% CI) | A's turns a game | A's points beyond B's, a game "
          "| a turn |")
    print("|---|---|---:|---:|---:|---:|")
    rows = []
    for label, leaves, start in [("trained leaves", table, 0)] + [
        (f"zero leaves, {k} points ahead", None, k) for k in starts
    ]:
        tally = _wins(game, lex, games, seeds, leaves, start)
        rows.append((start, tally.won / tally.games))
        print(tally.row(label, points=start == 0), flush=True)
    levels = {}
    if game.finish_line_target is not None:
        for level, target in FINISH_LINE_TARGETS[2].items():
            tally = _wins(game.replace(finish_line_target=target), lex, games, seeds, table, 0)
            levels[level] = tally.won / tally.games
            print(tally.row(f"trained leaves, race to {target} ({level})"), flush=True)
    trained, curve = rows[0][1], sorted(rows[1:])
    worth = None
    for (k0, p0), (k1, p1) in itertools.pairwise(curve):
        if p0 <= trained <= p1 and p1 > p0:
            worth = k0 + (k1 - k0) * (trained - p0) / (p1 - p0)
    said = f"about {worth:.1f} points" if worth is not None else "outside the head starts given"
    print(f"the trained leaves win as often as a head start of {said}")
    return {"trained": trained, "head_starts": dict(curve), "worth": worth, "levels": levels}


def _starts(text: str) -> list[int]:
    try:
        starts = [int(k) for k in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"head starts are K,K,..., not {text!r}") from None
    if not starts or len(starts) > 20 or any(not 0 <= k <= 1000 for k in starts):
        raise argparse.ArgumentTypeError("1 to 20 head starts, each 0 to 1,000 points")
    return starts


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        return range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are N or N-M, not {text!r}") from None


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else sys.argv[2:]
    parser = argparse.ArgumentParser(prog="python -m benchmarks leaves")
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games a table/seed")
    parser.add_argument("--head-to-head", nargs=2, metavar=("A", "B"),
                        help="two .klv2 tables (or 'shipped') against each other")
    parser.add_argument("--games", dest="games_opt", type=int, default=None)
    parser.add_argument("--scale-b", type=float, default=1.0, help="multiply B's values")
    parser.add_argument("--b-zero-size", type=int, default=0, metavar="N",
                        help="list B's leaves of N tiles at 0 (how unlisted leaves were valued)")
    parser.add_argument("--head-start", type=_starts, metavar="K,K,...",
                        help="price the shipped table in points of head start")
    parser.add_argument("-r", "--rules", help="the preset (default naspa; without "
                        "--head-to-head: only this game)")
    parser.add_argument("-l", "--lexicon", help="the lexicon (default enable)")
    parser.add_argument("--seeds", type=_seeds, default=range(SEED, SEED + 1),
                        help="N or N-M (default 2026)")
    opts = parser.parse_args(args)
    games = opts.games_opt or opts.games
    rules, lexicon = opts.rules or "naspa", opts.lexicon or "enable"
    if opts.head_start:
        head_start(opts.head_start, rules=opts.rules or "finish_line", lexicon=lexicon,
                   games=games, seeds=opts.seeds)
    elif opts.head_to_head:
        a, b = opts.head_to_head
        head_to_head(a, b, rules=rules, lexicon=lexicon, games=games,
                     seeds=opts.seeds, scale_b=opts.scale_b, b_zero_size=opts.b_zero_size)
    else:
        only = (rules, lexicon) if opts.rules or opts.lexicon else None
        leaves_table(games, opts.seeds, only)


if __name__ == "__main__":
    main()
