"""``python -m benchmarks ab REV``: time this build against commit REV, built beside it.

REV is built once into ``.cache/ab/<sha>/`` (:mod:`benchmarks._ab.build`), then the timing
worker runs in both builds' pythons, interleaved, for ``--rounds`` rounds; the tables give
each side's median CPU time, the speed-up old/new and its range over the rounds. Progress
goes to standard error, results to standard output. Exit status: 0, 1 when the builds'
results differ, 2 for an argument, revision, build or worker error (one line).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import callgrind, stats
from .build import CACHE, REPO, BuildError, build, resolve
from .rounds import Side, WorkerError, identical, interleaved, mismatches

GROUPS = {"movegen": ("best", "all", "unsorted"), "engine": ("selfplay",)}
MIN_ROUNDS = 5


class UsageError(Exception):
    """A bad argument; the message is one line."""


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line and exit status 2 (argparse adds a usage block)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m benchmarks ab",
        description="Time this build against commit REV, built beside it in .cache/ab/.",
        epilog="Exit status: 0; 1 when the builds' results differ; 2 for an error.",
    )
    p.add_argument("rev", help="the older commit (any git revision)")
    p.add_argument("--rounds", type=int, default=MIN_ROUNDS, help="rounds per side (>= 5)")
    p.add_argument("--what", default="both", help="movegen, engine, or both (movegen,engine)")
    p.add_argument("--passes", type=int, default=5, help="passes over the positions per round")
    p.add_argument("--games", type=int, default=300, help="self-play games per round")
    p.add_argument("--seed", type=int, default=0, help="first self-play seed")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--callgrind", action="store_true", help="also count instructions")
    return p


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The checked arguments; :class:`UsageError` for a bad one."""
    args = parser().parse_args(argv)
    if args.rounds < MIN_ROUNDS:
        raise UsageError(f"--rounds must be at least {MIN_ROUNDS}, not {args.rounds}")
    if args.passes < 1 or args.games < 1:
        raise UsageError("--passes and --games must be at least 1")
    what = "movegen,engine" if args.what.strip() == "both" else args.what
    groups = [g.strip() for g in what.split(",") if g.strip()]
    bad = [g for g in groups if g not in GROUPS]
    if bad or not groups:
        raise UsageError(f"--what takes movegen, engine or both, not {args.what!r}")
    args.measures = [m for g in groups for m in GROUPS[g]]
    return args


def _describe_head() -> str:
    out = subprocess.run(
        ["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True, text=True
    )
    return out.stdout.strip() or "this checkout"


def summaries(results: Sequence[dict[str, dict[str, Any]]]) -> list[stats.Summary]:
    """One summary per measure, in the workers' order; when the old build has no unsorted
    mode, one more: the new unsorted list against the old ranked one (issue 14's target)."""
    out = []
    pairs = [(m, m) for m in results[0]["new"]["measures"]]
    if {"all", "unsorted"} <= {m for m, _ in pairs} and not any(
        r["old"]["measures"].get("unsorted") for r in results
    ):
        pairs.append(("all", "unsorted"))
    for m_old, m in pairs:
        old = [r["old"]["measures"].get(m_old) for r in results]
        new = [r["new"]["measures"].get(m) for r in results]
        known = next((x for x in (*new, *old) if x), None)
        unit, items = (known["unit"], known["items"]) if known else ("positions", 0)
        out.append(
            stats.summarize(
                m if m_old == m else stats.UNSORTED_VS_RANKED,
                unit,
                items,
                [x["cpu_s"] if x else None for x in old],
                [x["cpu_s"] if x else None for x in new],
            )
        )
    return out


def run(args: argparse.Namespace) -> int:
    """The whole A/B run; the exit status."""
    sha = resolve(args.rev)
    old_build = build(sha)
    old = Side(f"{args.rev} ({sha[:9]})", old_build.python, CACHE / "tessera-cache" / sha)
    new = Side(_describe_head(), Path(sys.executable), CACHE / "tessera-cache" / "this")
    options = [
        "--what", ",".join(args.measures),
        "--passes", str(args.passes),
        "--games", str(args.games),
        "--seed", str(args.seed),
    ]  # fmt: skip
    results = interleaved(old, new, args.rounds, options)
    table = summaries(results)
    bad = mismatches(results)
    irs: dict[str, dict[str, int | None]] | None = None
    note = ""
    if args.callgrind:
        if callgrind.available():
            print("counting instructions under callgrind", file=sys.stderr, flush=True)
            irs = {
                "old": callgrind.instructions(old, args.measures),
                "new": callgrind.instructions(new, args.measures),
            }
        else:
            note = "valgrind is not installed: no instruction counts"
    if args.json:
        print(json.dumps(_document(args, old, new, results, table, bad, irs, note), indent=2))
        for line in bad:  # loud even when the JSON goes to a file
            print(line, file=sys.stderr)
    else:
        _print(args, old, new, results, table, bad, irs, note)
    return 1 if bad else 0


def _document(
    args: argparse.Namespace,
    old: Side,
    new: Side,
    results: Sequence[dict[str, dict[str, Any]]],
    table: Sequence[stats.Summary],
    bad: Sequence[str],
    irs: dict[str, dict[str, int | None]] | None,
    note: str,
) -> dict[str, Any]:
    return {
        "old": old.name,
        "new": new.name,
        "rounds": args.rounds,
        "summaries": [vars(s) for s in table],
        "mismatches": list(bad),
        "callgrind": irs,
        "note": note,
        "runs": list(results),
    }


def _print(
    args: argparse.Namespace,
    old: Side,
    new: Side,
    results: Sequence[dict[str, dict[str, Any]]],
    table: Sequence[stats.Summary],
    bad: Sequence[str],
    irs: dict[str, dict[str, int | None]] | None,
    note: str,
) -> None:
    first = results[0]
    print(
        f"A/B: old {old.name} vs new {new.name}; {args.rounds} rounds, interleaved (ABBA), "
        f"CPU time of each worker process; {first['new']['positions']} positions x "
        f"{args.passes} passes, {args.games} self-play games (seeds {args.seed}...)"
    )
    print(stats.table(table, old.name, new.name, args.rounds))
    print()
    print(
        stats.side_table(
            [
                (f"old {old.name}", [r["old"]["load_s"] for r in results],
                 [r["old"]["maxrss_kb"] for r in results]),
                (f"new {new.name}", [r["new"]["load_s"] for r in results],
                 [r["new"]["maxrss_kb"] for r in results]),
            ]
        )
    )  # fmt: skip
    for key, side in (("old", old), ("new", new)):
        print(f"{side.name}: unsorted mode {first[key]['api']['unsorted']}")
    if irs is not None:
        for line in callgrind_lines(irs):
            print(line)
    if note:
        print(note)
    same = identical(results)
    if same:
        print(f"identical results in both builds: {', '.join(same)}")
    for line in bad:
        print(line)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point; exits with :func:`run`'s status, or 2 and one line on an error."""
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
        status = run(args)
    except (UsageError, BuildError, WorkerError) as e:
        print(f"python -m benchmarks ab: error: {e}", file=sys.stderr)
        sys.exit(2)
    sys.exit(status)


def callgrind_lines(irs: dict[str, dict[str, int | None]]) -> list[str]:
    """One line per measure counted under callgrind (net of loading), old against new; the
    new unsorted list is set against the old ranked one when the old build has no other."""
    what = {
        "best": f"best move of the first {callgrind.POSITIONS} positions",
        "all": f"every move ranked, first {callgrind.POSITIONS} positions",
        "unsorted": f"every move unsorted, first {callgrind.POSITIONS} positions",
        "selfplay": f"{callgrind.GAMES} static self-play games",
    }
    lines = []
    for measure, new in irs["new"].items():
        old, against = irs["old"].get(measure), ""
        if old is None and measure == "unsorted":
            old, against = irs["old"].get("all"), " (old: its ranked list)"
        if new is None or old is None:
            lines.append(f"callgrind, {what[measure]}: n/a in one build")
            continue
        lines.append(
            f"callgrind, {what[measure]} (net of loading): old {old:,} Ir{against}, "
            f"new {new:,} Ir, old/new {old / new:.2f}x"
        )
    return lines
