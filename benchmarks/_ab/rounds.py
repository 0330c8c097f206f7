"""Run the timing worker in each build's python, round after round, interleaved.

Every run is a fresh subprocess (start-up and loading are outside its timed sections and
reported apart). Round ``i`` runs the sides in turn, old then new on even rounds and new then
old on odd ones (A B B A A B ...), so a slow spell on a shared machine falls on both alike.
Each side has its own lexicon cache directory, warmed by one untimed run before the rounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WORKER = Path(__file__).resolve().with_name("worker.py")
DATA = Path(__file__).resolve().parents[1] / "data" / "movegen_positions.cgp"


class WorkerError(Exception):
    """A worker run that failed or printed no result; the message is one line."""


@dataclass(frozen=True)
class Side:
    """One build under test: a name for the tables, its python and its lexicon cache."""

    name: str
    python: Path
    cache: Path


def worker_command(python: Path, options: Sequence[str]) -> list[str]:
    """The command running this checkout's worker file in ``python``."""
    return [str(python), str(WORKER), "--data", str(DATA), *options]


def run_worker(
    side: Side, options: Sequence[str], wrapper: Sequence[str] = ()
) -> tuple[dict[str, Any], str]:
    """One worker run: its JSON result and its standard error (valgrind reports there)."""
    side.cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TESSERA_CACHE_DIR": str(side.cache)}
    env.pop("PYTHONPATH", None)  # the build's own package, nothing from this checkout
    done = subprocess.run(
        [*wrapper, *worker_command(side.python, options)],
        capture_output=True,
        text=True,
        env=env,
        cwd=side.cache,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise WorkerError(f"the {side.name} worker failed (exit {done.returncode}): {last}")
    try:
        return json.loads(lines[-1]), done.stderr
    except json.JSONDecodeError as e:
        raise WorkerError(f"the {side.name} worker printed no JSON result: {e}") from None


def interleaved(
    old: Side, new: Side, rounds: int, options: Sequence[str]
) -> list[dict[str, dict[str, Any]]]:
    """``rounds`` results of each side, as ``[{"old": result, "new": result}, ...]``."""
    for side in (old, new):
        print(f"warming up {side.name} (lexicon cache, first load)", file=sys.stderr, flush=True)
        run_worker(side, ["--positions", "1", "--what", "none"])
    results: list[dict[str, dict[str, Any]]] = []
    for i in range(rounds):
        order = (old, new) if i % 2 == 0 else (new, old)
        got: dict[str, dict[str, Any]] = {}
        for side in order:
            key = "old" if side is old else "new"
            got[key] = run_worker(side, options)[0]
            cpu = sum(m["cpu_s"] for m in got[key]["measures"].values() if m)
            print(
                f"round {i + 1}/{rounds}: {side.name} {cpu:.2f} s measured",
                file=sys.stderr,
                flush=True,
            )
        results.append(got)
    return results


def mismatches(results: Sequence[dict[str, dict[str, Any]]]) -> list[str]:
    """One line per measure whose result digests differ between runs or builds."""
    out = []
    measures = {m for r in results for side in r.values() for m in side["measures"]}
    for m in sorted(measures):
        seen: dict[str, set[str]] = {}
        for r in results:
            for key, side in r.items():
                result = side["measures"].get(m)
                if result is not None:
                    seen.setdefault(result["digest"], set()).add(key)
        if len(seen) > 1:
            parts = ", ".join(f"{d} ({'/'.join(sorted(k))})" for d, k in sorted(seen.items()))
            out.append(f"MISMATCH in {m}: the builds' results differ: {parts}")
            if m == "selfplay":
                out.append(f"  {games_differing(results[0])}")
    return out


def identical(results: Sequence[dict[str, dict[str, Any]]]) -> list[str]:
    """The measures both builds ran with one result digest in every run."""
    names = [m for m, r in results[0]["new"]["measures"].items() if r is not None]
    return [
        m
        for m in names
        if all(side["measures"].get(m) for r in results for side in r.values())
        and len({side["measures"][m]["digest"] for r in results for side in r.values()}) == 1
    ]


def games_differing(result: dict[str, dict[str, Any]]) -> str:
    """Which self-play games (scores, turns) of one round differ between the two builds."""
    old, new = (result[k]["measures"]["selfplay"] for k in ("old", "new"))
    differ = [i for i, (a, b) in enumerate(zip(old["games"], new["games"], strict=True)) if a != b]
    first = ", ".join(f"seed+{i}: {old['games'][i]} vs {new['games'][i]}" for i in differ[:3])
    return (
        f"{len(differ)} of {len(old['games'])} games differ ([score, score, turns] old vs new: "
        f"{first}); turns old {old['turns']}, new {new['turns']}"
    )
