"""The rules core draws itself through tessera.display: the renderers register there when
imported (``import tessera`` imports them), and the core never imports tessera.render."""

from __future__ import annotations

import grimp
import pytest

from support.fresh_python import run_python
from tessera import Board, Game, display, layout, tileset
from tessera.render.html import moves_table
from tessera.render.svg import board_svg
from tessera.render.text import render_board, render_position

ENGLISH = tileset("english")



def test_importing_one_core_module_registers_every_renderer() -> None:
    out = run_python(
        "import tessera.board, tessera.display as d\n"
        "print(','.join(sorted(d._renderers)))"
    )
    assert out == ",".join(sorted(display.KINDS))


def test_each_kind_is_drawn_by_its_renderer() -> None:
    assert display._renderers == {
        display.BOARD_TEXT: render_board,
        display.BOARD_SVG: board_svg,
        display.POSITION_TEXT: render_position,
        display.MOVES_HTML: moves_table,
    }


def test_the_core_draws_with_what_is_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, first=0)
    monkeypatch.setitem(display._renderers, display.BOARD_TEXT, lambda board, alphabet: "B\n")
    monkeypatch.setitem(display._renderers, display.BOARD_SVG, lambda board, tiles: "<svg/>")
    monkeypatch.setitem(
        display._renderers,
        display.POSITION_TEXT,
        lambda board, names, scores, racks, to_move: f"{board}|{names}|{to_move}",
    )
    assert str(game.board) == "B"
    assert game.board._repr_svg_() == "<svg/>"
    assert str(game) == "B|['Ann', 'Bob']|0"
    assert str(game.view("Bob")) == "B|('Ann', 'Bob')|0"


def test_a_kind_without_a_renderer_says_what_to_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(display._renderers, display.BOARD_TEXT)
    with pytest.raises(LookupError, match=r"import tessera\.render"):
        str(Board(layout("standard15"), ENGLISH))


def test_only_the_known_kinds_can_be_registered() -> None:
    with pytest.raises(ValueError, match="no picture kind 'board png'"):
        display.register("board png", render_board)
    assert "board png" not in display._renderers


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("tessera")


@pytest.mark.parametrize("core", ["tessera.board", "tessera.game", "tessera.movegen"])
def test_the_core_imports_no_renderer(graph: grimp.ImportGraph, core: str) -> None:
    """Lazy imports inside functions count: grimp reads them from the source."""
    modules = [m for m in graph.modules if m == core or m.startswith(core + ".")]
    imported = {i for m in modules for i in graph.find_modules_directly_imported_by(m)}
    assert "tessera.display" in imported
    assert not [m for m in imported if m.startswith("tessera.render")]
