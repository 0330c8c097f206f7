"""The README's Python examples are what a newcomer copies first: each ```python block runs
as written, on its own (``python`` on the block, in an empty directory), and a ``print`` line
that says what it prints in its comment (``print(event.score)  # 48``) prints exactly that.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.markdown_blocks import python_blocks as page_blocks

README = Path(__file__).resolve().parent.parent / "README.md"
# a print line and, after two spaces and '# ', the line it prints
SHOWN = re.compile(r"^\s*print\(.*?\)\s{2,}#\s(?P<out>.+)$", re.M)


def python_blocks() -> list[str]:
    return page_blocks(README)


def promised(block: str) -> list[str]:
    """The lines the block's commented print calls say they print, in order."""
    return [m["out"].rstrip() for m in SHOWN.finditer(block)]


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_each_readme_python_block_runs_alone_and_prints_what_it_says(
    index: int, tmp_path: Path
) -> None:
    block = python_blocks()[index]
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    expected = promised(block)
    if expected:
        assert done.stdout.splitlines() == expected


def test_the_tour_shows_the_score_the_refusal_and_the_spanish_tiles() -> None:
    """The tour's promises are checked by the run above; here, that they stay in it."""
    tour = python_blocks()[0]
    assert not any(line.startswith(">>>") for line in tour.splitlines())  # a script, not a prompt
    shown = promised(tour)
    assert "48" in shown
    assert "occupied square D8 is already occupied" in shown
    assert "Tiles('CH·U·RR·O')" in shown
    assert "first=0" in tour  # Ann is seated first: with seed 7 Bob would draw first
