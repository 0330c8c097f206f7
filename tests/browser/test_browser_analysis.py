"""Issue 12's analysis board in Chromium: a pasted CGP's moves are `tessera moves --cgp`'s, row
by row; a word typed onto the empty board and a rack export as the CGP they make."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import DESKTOP, PHONE, center, shot

from support.movescli import cli_moves

pytestmark = pytest.mark.browser

# the opponent's rack is hidden (empty in the CGP): the bag is what nobody can see, less a rack
MIDGAME = (
    "7H1BEMATA/5QUOTED1LOW/7SH3BEN/5R1TA6/5E1AE6/5C1G7/5T1e7/3PLOTS7/5R9/5Y9/15/15/15/15/15"
    " ADEGMSV/ 130/162 0 lex enable; tr naspa;"
)
ROWS = """() => [...document.querySelectorAll('#an-moves tbody tr')].map(tr => [
  +tr.cells[0].textContent, tr.dataset.move, +tr.querySelector('.score').textContent,
  tr.querySelector('.equity').textContent])"""


def open_analysis(page: Any) -> None:
    page.goto("/")
    page.click("#analysis-link")
    page.wait_for_url("**/analysis")
    page.wait_for_selector("#an-board .sq")


def listed(page: Any) -> list[tuple[int, str, int, str]]:
    page.wait_for_selector("#an-moves tbody tr")
    return [tuple(row) for row in page.evaluate(ROWS)]


def drag(page: Any, source: str, target: str) -> None:
    x0, y0 = center(page, source)
    x1, y1 = center(page, target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def page_square(page: Any, name: str) -> str:
    tile = page.locator(f'#an-board .sq[data-square="{name}"] .tile')
    return tile.inner_text().split("\n")[0] if tile.count() else ""


def test_a_pasted_cgp_lists_the_moves_tessera_moves_prints(page: Any) -> None:
    open_analysis(page)
    page.fill("#an-cgp", MIDGAME)
    page.click("#an-load")
    rows = listed(page)
    expected = cli_moves(MIDGAME)
    assert rows == expected[: len(rows)] and len(rows) == 200  # order, scores, equities
    count = page.locator("#an-count").inner_text()
    assert count == f"{len(expected)} moves; the best 200 are listed"
    assert page.locator("#an-rack").input_value() == "ADEGMSV"
    assert page.locator('#an-board .sq[data-square="H1"] .tile').inner_text().startswith("H")
    first = page.locator("#an-moves tbody tr").first
    assert first.locator(".move").inner_text() == "5C GAV(E)"
    assert first.locator(".leave").inner_text() == "DEMS"
    shot(page, "analysis-cgp-desktop", DESKTOP)

    first.click()  # the move on the board: its three tiles at C5, D5, E5
    page.wait_for_selector("#an-board .tile.pending")
    squares = page.eval_on_selector_all(
        "#an-board .tile.pending", "ts => ts.map(t => t.closest('.sq').dataset.square)"
    )
    assert squares == ["C5", "D5", "E5"]
    assert page.locator("#an-shown").inner_text() == "Showing 5C GAV(E)"

    page.fill("#an-word", "?A?E")  # a pattern: four letters, A second and E fourth
    page.wait_for_function("() => /match/.test(document.querySelector('#an-count').textContent)")
    matches = listed(page)
    whole = {row[1]: row for row in expected}
    assert matches and all(whole[row[1]] == row for row in matches)  # the whole list's ranks
    assert [r[0] for r in matches] == sorted(r[0] for r in matches)
    shot(page, "analysis-cgp-phone", PHONE)


def test_a_word_typed_on_the_empty_board_exports_as_cgp(page: Any) -> None:
    open_analysis(page)
    page.click('#an-board .sq[data-square="D8"]')
    page.keyboard.type("QUITe")  # capitals are tiles; lower case is a blank
    page.select_option("#an-rules", "naspa")  # the tiles stay: the board is the same size
    page.wait_for_timeout(300)
    assert [page_square(page, s) for s in ("D8", "E8", "H8")] == ["Q", "U", "E"]
    page.fill("#an-rack", "AEGRST?")
    page.click("#an-export")
    page.wait_for_function("() => document.querySelector('#an-cgp').value.includes('QUIT')")
    exported = page.locator("#an-cgp").input_value()
    assert exported == (
        "15/15/15/15/15/15/15/3QUITe7/15/15/15/15/15/15/15 AEGRST?/ 0/0 0 lex enable; tr naspa;"
    )
    blank = page.locator('#an-board .sq[data-square="H8"] .tile')
    assert "blank" in (blank.get_attribute("class") or "")

    page.focus("#an-board")
    page.keyboard.press("Enter")  # on the board, Enter lists the moves
    assert listed(page) == cli_moves(exported)[:200]
    shot(page, "analysis-typed-desktop", DESKTOP)
    shot(page, "analysis-typed-phone", PHONE)


def test_tiles_dragged_from_the_tray_and_the_address_keeps_the_position(page: Any) -> None:
    open_analysis(page)
    drag(page, '#an-tray .tile[data-letter="Z"]', '#an-board .sq[data-square="H8"]')
    assert page_square(page, "H8") == "Z"
    drag(page, '#an-board .sq[data-square="H8"] .tile', '#an-board .sq[data-square="I8"]')
    assert (page_square(page, "H8"), page_square(page, "I8")) == ("", "Z")
    page.click('#an-board .sq[data-square="G8"]')  # a click on the tray places at the cursor
    page.check("#an-as-blank")
    page.click('#an-tray .tile[data-letter="A"]')
    assert page_square(page, "G8") == "A"  # drawn in capitals, in the blank's colour
    page.fill("#an-rack", "eeor")  # a rack is read in capitals
    page.click("#an-export")
    page.wait_for_function("() => document.querySelector('#an-cgp').value.includes('a1Z')")
    exported = page.locator("#an-cgp").input_value()
    assert exported.split()[:2] == ["15/15/15/15/15/15/15/6a1Z6/15/15/15/15/15/15/15", "EEOR/"]
    page.click("#an-analyze")
    page.wait_for_selector("#an-moves tbody tr")
    drag(page, '#an-board .sq[data-square="I8"] .tile', "#an-help")  # off the board: gone
    assert page_square(page, "I8") == ""

    page.reload()  # the address holds the exported position
    page.wait_for_selector('#an-board .sq[data-square="I8"] .tile')
    assert page_square(page, "I8") == "Z" and page.locator("#an-rack").input_value() == "EEOR"
    assert listed(page) == cli_moves(exported)[:200]
