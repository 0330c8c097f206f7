"""``tessera moves --cgp`` run as a command, with the shipped leave values (the equities the
analysis board shows), its lines read back as (rank, move, score, equity text)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

from tessera.engine.players import DEFAULT_LEAVES

LINE = re.compile(r"\s*(\d+)\s+(.+?)\s+(-?\d+)\s+(-?\d+\.\d\d)")


def shipped_leaves() -> Path:
    return Path(str(resources.files("tessera.data").joinpath("leaves", DEFAULT_LEAVES)))


def cli_moves(cgp: str, *extra: str) -> list[tuple[int, str, int, str]]:
    """Every line ``tessera moves --cgp CGP --leaves <shipped table>`` prints, parsed."""
    exe = Path(sys.executable).with_name("tessera")
    done = subprocess.run(
        [str(exe), "moves", "--cgp", cgp, "--leaves", str(shipped_leaves()), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = []
    for line in done.stdout.splitlines():
        m = LINE.fullmatch(line)
        assert m is not None, line
        rows.append((int(m[1]), m[2], int(m[3]), m[4]))
    return rows
