"""Instruction counts (callgrind ``Ir``) of a small fixed workload in each build.

Python start-up and loading the lexicon cost far more instructions than the workload, so
each side runs under ``valgrind --tool=callgrind`` once loading only, then once per measure
the A/B run asks for: loading and then the best move, every move ranked or every move
unsorted of the first :data:`POSITIONS` positions, or :data:`GAMES` self-play games. The
difference is the workload's count. Self-play's is taken against a run of its warm-up game
alone, as that game builds the compiled engine (a cost of loading, not of playing). The move
lists' digests, which the timed rounds compare, are skipped: their Python work would swamp
the generation's. Instruction counts do not depend on the machine's load, which makes them a
steadier companion to the CPU times.
Valgrind is optional: without it this step is skipped with a note.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .rounds import Side, WorkerError, run_worker

POSITIONS = 50
_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)", re.MULTILINE)


def available() -> bool:
    return shutil.which("valgrind") is not None


def parse_ir(stderr: str) -> int:
    """The ``Ir`` total callgrind prints at exit; ValueError if there is none."""
    found = _COLLECTED.findall(stderr)
    if not found:
        raise ValueError("callgrind printed no instruction count")
    return int(found[-1])


GAMES = 10


def instructions(side: Side, measures: Sequence[str] = ("best",)) -> dict[str, int | None]:
    """Instructions of each measure's workload in ``side``'s build (net of loading); None for
    a measure the build does not have (an old build's unsorted list)."""
    counts: dict[str, int | None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={Path(tmp) / 'callgrind.out.%p'}",
        ]
        base = [
            "--positions", str(POSITIONS), "--passes", "1", "--games", str(GAMES), "--no-digest"
        ]  # fmt: skip
        loading = _count(side, [*base, "--what", "none"], wrapper)[1]
        for what in measures:
            result, total = _count(side, [*base, "--what", what], wrapper)
            if result["measures"].get(what) is None:
                counts[what] = None
                continue
            start = loading
            if what == "selfplay":  # net of the warm-up game, which builds the engine
                start = _count(side, [*_with_games(base, 0), "--what", what], wrapper)[1]
            counts[what] = total - start
    return counts


def _with_games(options: list[str], games: int) -> list[str]:
    """``options`` with its ``--games`` value set to ``games``."""
    out = list(options)
    out[out.index("--games") + 1] = str(games)
    return out


def _count(side: Side, options: list[str], wrapper: list[str]) -> tuple[dict[str, Any], int]:
    result, err = run_worker(side, options, wrapper)
    try:
        return result, parse_ir(err)
    except ValueError as e:
        raise WorkerError(f"{side.name} under callgrind: {e}") from None
