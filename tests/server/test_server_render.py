"""``tessera render``: SVG (and PNG) pictures of a game's board from its GCG record."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.game import Game
from tessera.render.svg import PREMIUM_LABELS, THEME, board_svg, theme_css


def _record(tmp_path: Path) -> tuple[Path, Game]:
    from tessera.formats import gcg

    game = Game("hasbro", players=["Ann", "Bob"], seed=7, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    game.set_rack("Bob", "ZAXRSTE")
    game.play("E7 Z.X")  # ZUX is no word, but a record without a lexicon replays as given
    path = tmp_path / "game.gcg"
    path.write_text(gcg.dumps(game), encoding="utf-8")
    return path, game


def _tiles(svg: str) -> list[str]:
    """The letters drawn on tiles (bold text elements)."""
    return re.findall(r'font-weight="bold" fill="[^"]+">([^<]+)</text>', svg)


def test_board_svg_draws_every_square_tile_and_the_last_move(tmp_path: Path) -> None:
    _, game = _record(tmp_path)
    svg = board_svg(game.board, game.tileset, highlight={(6, 4), (8, 4)}, title="t")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert sorted(_tiles(svg)) == sorted("QUITEZX")
    assert svg.count(f'fill="{THEME["last"]}"') == 2
    assert svg.count(">TW<") == 8 and svg.count("★") == 0  # the start square is covered
    assert ">A<" in svg and ">15<" in svg  # coordinates


def test_render_writes_the_final_or_an_earlier_position(tmp_path: Path) -> None:
    path, _ = _record(tmp_path)
    runner = CliRunner()
    out = tmp_path / "final.svg"
    result = runner.invoke(main, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(_tiles(out.read_text())) == sorted("QUITEZX")
    first = tmp_path / "first.svg"
    result = runner.invoke(main, ["render", str(path), "--turn", "1", "-o", str(first)])
    assert result.exit_code == 0, result.output
    assert sorted(_tiles(first.read_text())) == sorted("QUITE")
    assert "after 1 turns" in first.read_text()


def test_render_refuses_a_broken_record_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a Ann\n#player2 b Bob\n>a: ABC 8D ZZZ +99 99\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["render", str(bad), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code != 0 and "bad.gcg" in result.output
    assert not (tmp_path / "x.svg").exists()
    result = CliRunner().invoke(main, ["render", str(bad), "--turn", "-1", "-o", "x.svg"])
    assert result.exit_code != 0 and "turn" in result.output


def test_the_page_theme_comes_from_the_render_module() -> None:
    css = theme_css()
    for key, value in THEME.items():
        assert f"--t-{key}: {value};" in css
    for key, label in PREMIUM_LABELS.items():
        assert f'--label-{key}: "{label}";' in css


@pytest.mark.skipif(shutil.which("chromium") is None, reason="PNG output needs Chromium")
def test_render_png_through_chromium(tmp_path: Path) -> None:
    path, _ = _record(tmp_path)
    out = tmp_path / "board.png"
    result = CliRunner().invoke(main, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 5000


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["serve", "--database", "not a url"])
    assert result.exit_code != 0 and "cannot open the database" in result.output
    missing = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}"
    result = runner.invoke(main, ["serve", "--database", missing])
    assert result.exit_code != 0 and "cannot open the database" in result.output
