"""The README's Python examples are what a newcomer copies first: they run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_python_blocks_run_and_print_what_they_say(tmp_path: Path) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.S | re.M)
    assert blocks
    script = tmp_path / "readme.py"
    script.write_text("\n".join(blocks))
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["48", "occupied square D8 is already occupied"]
