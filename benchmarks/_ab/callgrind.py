"""Instruction counts (callgrind ``Ir``) of a small fixed workload in each build.

Python start-up and loading the lexicon cost far more instructions than the workload, so
each side runs twice under ``valgrind --tool=callgrind``: once loading only, once loading
and finding the best move of the first :data:`POSITIONS` positions. The difference is the
workload's count. Instruction counts do not depend on the machine's load, which makes
them a steadier companion to the CPU times. Valgrind is optional: without it this step is
skipped with a note.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

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


def instructions(side: Side) -> int:
    """Instructions of the best-move workload in ``side``'s build (net of loading)."""
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={Path(tmp) / 'callgrind.out.%p'}",
        ]
        counts = []
        for what in ("none", "best"):
            _, err = run_worker(side, ["--positions", str(POSITIONS), "--what", what], wrapper)
            try:
                counts.append(parse_ir(err))
            except ValueError as e:
                raise WorkerError(f"{side.name} under callgrind: {e}") from None
    return counts[1] - counts[0]
