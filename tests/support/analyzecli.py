"""``tessera analyze --json`` run as a command: the turns it prints for a GCG file (what the
web app's game review must show for each turn)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def cli_analysis(path: Path, top: int = 5, *options: str) -> list[dict[str, Any]]:
    """The turns ``tessera analyze FILE --top TOP [OPTIONS] --json`` prints, as dicts."""
    exe = Path(sys.executable).with_name("tessera")
    done = subprocess.run(
        [str(exe), "analyze", str(path), "--top", str(top), *options, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)["turns"]  # type: ignore[no-any-return]
