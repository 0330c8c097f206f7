"""The documentation site (issue 15): it builds with warnings as errors, its API and CLI pages
are generated from the code, and every Python example on its pages runs as written.

The build is the one `make docs` runs (`mkdocs build --strict`), into a temporary directory:
a broken link, a page missing from the navigation or a docstring mkdocstrings cannot read
fails here, in CI, rather than on the next person to build the site. The pages' examples run
in one namespace per page (tests/support/markdown_blocks.py); a block that cannot run
in seconds says why on the line before it, and nothing else is skipped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.markdown_blocks import blocks, python_blocks, run_blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)
MKDOCS = Path(sys.executable).with_name("mkdocs")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    assert (site / "index.html").is_file()
    for md in PAGES:
        rel = md.relative_to(DOCS).with_suffix("")
        folder = rel.parent if rel.name == "index" else rel  # mkdocs' directory URLs
        assert (site / folder / "index.html").is_file(), f"{md.relative_to(ROOT)} was not built"


def test_the_api_pages_come_from_the_docstrings(site: Path) -> None:
    game = page(site, "reference/game")
    assert 'id="tessera.game.Game"' in game
    assert 'id="tessera.game.Game.legal_moves"' in game
    assert "Every legal move of the player to move" in game  # Game.legal_moves' docstring
    assert '<span class="gp">&gt;&gt;&gt; </span>' in game  # a docstring example, highlighted
    assert ":class:" not in game  # reST roles became links or code
    assert 'id="tessera.lexicon.Lexicon"' in page(site, "reference/lexicon")
    assert 'id="tessera.formats.gcg.replay"' in page(site, "reference/formats")
    assert 'id="tessera.engine.StaticPlayer"' in page(site, "reference/engine")
    tournament = page(site, "reference/tournament")
    assert 'id="tessera.tournament.pairing.pair_round"' in tournament
    assert 'id="tessera.tournament.model.Division"' in tournament
    # a cross-reference in a docstring links to the page that documents its target
    assert 'href="../movegen/#tessera.movegen.MoveList"' in game


def test_the_cli_page_comes_from_the_click_commands(site: Path) -> None:
    cli = page(site, "cli")
    for command in ("autoplay", "analyze", "serve", "endgame", "sim"):
        assert f'id="{command}"' in cli, command
    assert "tessera leaves train [OPTIONS]" in cli  # nested commands too
    assert "--ray TEXT" in cli  # options with their help, as --help prints them


@pytest.mark.parametrize("md", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_the_python_examples_on_each_page_run(
    md: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    skipped = [b.skip_reason for b in blocks(md) if b.skip_reason is not None]
    assert all(reason.strip() for reason in skipped)
    results, _printed = run_blocks(python_blocks(md), md.stem, str(md))
    assert results.failed == 0


def test_the_tutorials_show_real_sessions() -> None:
    """Each Python tutorial has examples that run, and at most one block is shown without
    running (running a server is shell commands only)."""
    tutorials = sorted((DOCS / "tutorial").glob("*.md"))
    assert len(tutorials) >= 6
    for md in tutorials:
        if md.name == "server.md":
            continue
        found = blocks(md)
        assert sum(b.skip_reason is None for b in found) >= 1, md.name
        assert sum(b.skip_reason is not None for b in found) <= 1, md.name
