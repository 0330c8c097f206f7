"""Running a snippet in a fresh interpreter: for what an import loads or registers, which the
test process has long since imported."""

from __future__ import annotations

import subprocess
import sys


def run_python(code: str) -> str:
    """What ``code`` prints, run by this Python in a new process (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()
