"""A notebook's view of a game: the SVG board (``_repr_svg_``) and the move table
(``_repr_html_``) that Jupyter shows, rendered by Chromium as a notebook page would hold them."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from browserkit import DESKTOP, shot

from tessera import Game
from tessera.lexicon import Lexicon

PAGE = """<!doctype html><meta charset="utf-8"><title>notebook</title>
<style>body {{ font-family: sans-serif; }} .cell {{ margin: 1em; }}
pre {{ background: #f5f5f5; padding: .5em; }}</style>
<div class="cell"><pre>{code1}</pre><div class="output" id="board">{svg}</div></div>
<div class="cell"><pre>{code2}</pre><div class="output" id="moves">{table}</div></div>
"""


def test_a_notebook_page_shows_the_board_and_the_move_table(browser: Any, tmp_path: Path) -> None:
    lexicon = Lexicon.load("enable")
    game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, lexicon=lexicon, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    svg = game._repr_svg_()
    table = game.legal_moves()._repr_html_()
    assert svg is not None
    page_file = tmp_path / "notebook.html"
    page_file.write_text(
        PAGE.format(
            code1=html.escape('game.play("8D QUITE"); game'),
            svg=svg,
            code2=html.escape("game.legal_moves()"),
            table=table,
        ),
        encoding="utf-8",
    )
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(page_file.as_uri())
        board = page.locator("#board svg").bounding_box()
        assert board is not None and board["width"] > 300 and board["height"] > 300
        assert page.locator("#board svg text", has_text="Q").count() >= 1
        rows = page.locator("#moves tbody tr")
        assert rows.count() == 51 and rows.first.is_visible()
        shot(page, "notebook-board-and-moves")
    finally:
        context.close()
