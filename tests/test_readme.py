"""The README's Python examples are what a newcomer copies first: they run as written.

Its ```python blocks run in order in one namespace, as if typed into one prompt: a block of
``>>>`` lines is a doctest (what it shows must be what Python prints), any other block runs as
a script. The runner (tests/support/markdown_blocks.py) is the one the docs pages use.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from support.markdown_blocks import python_blocks as page_blocks
from support.markdown_blocks import run_blocks

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return page_blocks(README)


def test_the_readme_python_blocks_run_and_show_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks()
    assert len(blocks) >= 3
    results, _printed = run_blocks(blocks, "README", str(README))
    assert results.attempted >= 8
    assert results.failed == 0


def test_the_tour_shows_the_score_the_refusal_and_the_spanish_tiles() -> None:
    """The tour's promises are in its doctest, so they are checked by the run above; here,
    that they stay in it."""
    tour = python_blocks()[0]
    examples = doctest.DocTestParser().get_examples(tour)
    shown = [(e.source.strip(), e.want.strip()) for e in examples]
    assert ("event.score", "48") in shown
    assert any(want == "occupied square D8 is already occupied" for _, want in shown)
    assert ('tessera.tileset("spanish").alphabet.parse("CHURRO")', "Tiles('CH·U·RR·O')") in shown
    assert 'first=0' in tour  # Ann is seated first: with seed 7 Bob would draw first
