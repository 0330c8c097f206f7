"""The installed ``tessera`` command, run as a person runs it: in a child process, and for
``tessera play`` in a real pseudo-terminal (``pexpect``), with its colours stripped to read."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

# the console script beside this Python (the venv's), else the same entry point via -c
SCRIPT = shutil.which("tessera", path=str(Path(sys.executable).parent))
COMMAND = [SCRIPT] if SCRIPT else [sys.executable, "-c", "from tessera.cli import main; main()"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def plain(text: str) -> str:
    """``text`` without its terminal escapes (colours, cursor moves, titles) and carriage
    returns."""
    return ANSI.sub("", text)


def spawn_play(
    tmp_path: Path,
    *args: str,
    rows: int = 60,
    cols: int = 160,
    timeout: float = 30,
    env: dict[str, str] | None = None,
) -> Any:
    """``tessera play ARGS`` in a ``rows`` × ``cols`` pseudo-terminal, run in ``tmp_path``
    (where it saves games): a ``pexpect.spawn`` child reading and writing text. ``env`` adds
    to (or overrides) the test's environment, e.g. ``{"LANG": "hu_HU.UTF-8"}``."""
    import pexpect

    return pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], "play", *args],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=timeout,
        dimensions=(rows, cols),
        env={
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": str(cols),
            "LINES": str(rows),
            **(env or {}),
        },
    )
