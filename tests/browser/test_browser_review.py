"""Issue 12's game review in Chromium: an uploaded GCG stepped with → to a turn shows the board
after that turn (its tiles at their squares), the best move and the equity lost that
``tessera analyze`` prints for it; a turn in the list shows its board; the charts are drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, axe_violations, hints, shot, start_vs_computer, state, wait_my_turn

from support.analyzecli import cli_analysis
from tessera.server.review import SIMULATION

pytestmark = pytest.mark.browser

GCG = Path(__file__).resolve().parents[1] / "data" / "gcg" / "reference_game.gcg"
TURN = 2  # 8A MES(QUITE), 3.5 below 7H MAESTRO


def square(page: Any, name: str) -> str:
    tile = page.locator(f'#rv-board .sq[data-square="{name}"] .tile')
    return tile.inner_text().split("\n")[0] if tile.count() else ""


def test_an_uploaded_gcg_stepped_to_a_turn_shows_what_tessera_analyze_prints(page: Any) -> None:
    expected = cli_analysis(GCG, top=5)[TURN - 1]
    page.goto("/review")
    page.wait_for_selector("#rv-file")
    page.set_input_files("#rv-file", str(GCG))
    page.wait_for_selector("#rv-turns tbody tr")
    assert page.locator("#review").get_attribute("data-turn") == "1"
    assert page.evaluate("() => document.activeElement.id") == "rv-board"  # ← → work at once
    for _ in range(TURN - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator("#review").get_attribute("data-turn") == str(TURN)
    assert page.locator("#rv-turn").inner_text() == f"Turn {TURN} / 4"
    # the board after turn 2: MESQUITE along row 8 from A, nothing on row 9 yet
    assert [square(page, f"{c}8") for c in "ABCDEFGH"] == list("MESQUITE")
    assert square(page, "D9") == ""
    assert page.locator("#rv-board .sq.last").count() == 3  # M, E, S: the tiles played
    # the best move and the equity lost are the command's
    best = page.locator("#rv-best tbody tr").first.locator("td")
    assert best.nth(1).inner_text() == expected["best"][0]["move"]
    assert best.nth(3).inner_text() == f"{expected['best'][0]['equity']:.1f}"
    assert page.locator("#rv-lost").inner_text() == f"{expected['equity_lost']:.1f}"
    assert expected["played"] == "8A MES....."  # the file's notation; the page writes it out
    played = page.locator("#rv-played").inner_text()
    assert played == f"Bob Reference: 8A MES(QUITE) +{expected['score']}"
    played_row = page.locator("#rv-best tbody tr.selected td").nth(1).inner_text()
    assert played_row == "8A MES(QUITE)" and played_row in [b["move"] for b in expected["best"]]
    assert page.locator("#rv-rack").inner_text() == expected["rack"]
    assert page.locator("#rv-words").inner_text() == "MESQUITE"
    announced = page.locator("#rv-announce").inner_text()
    assert announced.startswith(f"Turn {TURN} of 4:") and expected["best"][0]["move"] in announced
    assert page.locator("#rv-score-chart svg polyline").count() == 2
    assert page.locator("#rv-lost-chart svg polyline").count() == 2
    shot(page, "review-desktop")
    # the list's turn 1 shows the first board; ← and → stop at the ends
    page.click('#rv-turns button[aria-label="Show turn 1"]')
    assert page.locator("#review").get_attribute("data-turn") == "1"
    assert [square(page, f"{c}8") for c in "ABCDEFGH"] == ["", "", "", *"QUITE"]
    assert page.locator("#rv-prev").is_disabled()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#review").get_attribute("data-turn") == "1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # turn 3: a play the word list refuses, no loss given
    assert page.locator("#rv-lost").inner_text() == "—"
    assert [square(page, f"{c}9") for c in "DEFGHIJ"] == list("INFANCY")
    blank_a = page.locator('#rv-board .sq[data-square="G9"] .tile')
    assert "blank" in (blank_a.get_attribute("class") or "")
    page.keyboard.press("End")
    assert page.locator("#review").get_attribute("data-turn") == "4"
    assert square(page, "E4") == "R"
    shot(page, "review-phone", PHONE)


def test_a_turn_simulated_on_the_page_shows_what_tessera_analyze_sim_prints(page: Any) -> None:
    options = ("--sim", "--iterations", str(SIMULATION.iterations), "--seed", str(SIMULATION.seed))
    expected = cli_analysis(GCG, 5, *options)
    page.goto("/review")
    page.wait_for_selector("#rv-file")  # shown once the page has bound its upload
    page.set_input_files("#rv-file", str(GCG))
    page.wait_for_selector("#rv-turns tbody tr")
    assert page.locator("#rv-win-lost").inner_text() == "not simulated"
    assert page.locator("#rv-sim-best").is_hidden() and page.locator("#rv-win-figure").is_hidden()
    # one turn: the best moves by simulation and the win % lost, as the command prints them
    page.keyboard.press("ArrowRight")
    page.click("#rv-sim")
    want = expected[TURN - 1]
    page.wait_for_function("() => !document.getElementById('rv-sim-best').hidden")
    assert page.locator("#rv-win-lost").inner_text() == f"{want['win_lost']:.1f}"
    rows = page.locator("#rv-sim-best tbody tr")
    assert rows.count() == len(want["sim_moves"]) >= 2
    for i, move in enumerate(want["sim_moves"]):
        cells = rows.nth(i).locator("td")
        assert cells.nth(1).inner_text() == move["move"]
        assert cells.nth(3).inner_text() == f"{move['win_pct']:.1f}"
    assert page.locator("#rv-sim-what").inner_text() == (
        f"{want['sim_iterations']} deals, {SIMULATION.plies} plies"
    )
    assert page.locator("#rv-sim").is_disabled()  # simulated once: kept
    # every turn, with a progress bar while it runs; the list and the chart fill in
    page.click("#rv-sim-all")
    page.wait_for_function(
        "() => document.getElementById('rv-sim-status').textContent.startsWith('Every turn')"
    )
    assert page.locator("#rv-sim-progress").is_hidden()
    cells = page.locator("#rv-turns tbody tr td:last-child")
    shown = [cells.nth(i).inner_text() for i in range(cells.count())]
    assert shown == ["—" if t["win_lost"] is None else f"{t['win_lost']:.1f}" for t in expected]
    assert page.locator("#rv-win-chart svg polyline").count() == 2
    page.keyboard.press("Home")
    assert page.locator("#rv-sim-best tbody tr").first.locator("td").nth(1).inner_text() == (
        expected[0]["sim_best"]
    )
    assert axe_violations(page) == []
    shot(page, "review-simulated")


def test_turns_lost_to_a_challenge_are_named_so_not_passes_charged_equity(page: Any) -> None:
    """Issue 36, point 16: ann's pass after an unsuccessful challenge (R5.4a) and bob's
    ANESTRI(D) challenged off (R5.3) are the turns they lost, charged nothing."""
    page.goto("/review")
    page.wait_for_selector("#rv-file")
    page.set_input_files("#rv-file", str(GCG.with_name("double_challenge.gcg")))
    page.wait_for_selector("#rv-turns tbody tr")
    rows = page.locator("#rv-turns tbody tr")
    lost, withdrawn = rows.nth(2).locator("td"), rows.nth(5).locator("td")
    assert lost.nth(3).inner_text() == "lost to a challenge"
    assert withdrawn.nth(3).inner_text() == "H1 ANESTRI(D) (phony withdrawn)"
    for cells in (lost, withdrawn):
        assert cells.nth(5).inner_text() == "0" and cells.nth(6).inner_text() == ""
    page.locator("#rv-turns tbody tr").nth(2).locator("button").click()
    assert page.locator("#rv-played").inner_text() == "Ann Double: lost to a challenge"
    assert page.locator("#rv-lost").inner_text() == "—"
    assert "unsuccessful challenge" in page.locator("#rv-note").inner_text()
    assert "lost the turn to an unsuccessful challenge" in page.locator("#rv-announce").inner_text()
    page.keyboard.press("End")
    assert page.locator("#rv-played").inner_text() == "Bob Double: H1 ANESTRI(D) (phony withdrawn)"
    assert page.locator("#rv-lost").inner_text() == "—"


def test_a_file_that_is_not_a_game_record_is_refused_with_the_reason(
    page: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "notes.gcg"
    bad.write_text("Shopping list: eggs, milk\n", encoding="utf-8")
    page.goto("/review")
    page.wait_for_selector("#rv-file")  # shown once the page has bound its upload
    page.set_input_files("#rv-file", str(bad))
    page.wait_for_function("() => document.getElementById('rv-error').textContent !== ''")
    assert "Not a GCG game record" in page.locator("#rv-error").inner_text()
    assert page.locator("#rv-body").is_hidden()


def test_the_game_over_dialog_reviews_the_finished_game(page: Any, tmp_path: Path) -> None:
    s = start_vs_computer(page)
    page.evaluate(
        """async ([seat, placements]) => { const a = window.tessera;
          await fetch(`/api/games/${a.gameId}/move`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seat, action: 'play', placements})}); }""",
        [s["seat"], hints(page)[0]["placements"]],
    )
    wait_my_turn(page)
    page.on("dialog", lambda d: d.accept())  # "Resign this game?"
    page.click("#resign-btn")
    page.wait_for_selector("#summary-dialog[open]")
    game_id = state(page)["game_id"]
    record = tmp_path / "game.gcg"
    record.write_text(
        page.evaluate("async (id) => (await fetch(`/api/games/${id}/gcg`)).text()", game_id),
        encoding="utf-8",
    )
    expected = cli_analysis(record, top=5)
    page.click("#summary-review")
    page.wait_for_url(f"**/review/{game_id}")
    page.wait_for_selector("#rv-turns tbody tr")
    rows = page.locator("#rv-turns tbody tr")
    assert rows.count() == len(expected) >= 2
    for i, turn in enumerate(expected):
        cells = rows.nth(i).locator("td")
        assert cells.nth(2).inner_text() == turn["rack"]  # every rack: the game is over
        assert cells.nth(6).inner_text() == f"{turn['equity_lost']:.1f}"
    page.keyboard.press("End")
    last = expected[-1]
    assert page.locator("#rv-turn").inner_text() == f"Turn {last['number']} / {len(expected)}"
    best = page.locator("#rv-best tbody tr").first.locator("td").nth(1).inner_text()
    assert best == last["best"][0]["move"]


def test_pages_round_decimals_as_the_command_line_does(page: Any) -> None:
    """An equity lost of exactly 11.25 reads 11.2 on the page, as `tessera analyze` prints it.

    toFixed breaks exact ties away from zero where Python's format picks the even digit; the
    review compared the two and disagreed on such a turn.
    """
    values = [11.25, 11.75, -11.25, 0.25, 0.05, 11.35, 2.675, 12.125, 12.375, 0.5, 1.5, 2.5, -0.25]
    values += [v / 8 for v in range(-40, 41)]
    cases = [(v, p) for v in values for p in (0, 1, 2)]
    page.goto("/")
    shown = page.evaluate(
        """async (cases) => { const { fixed } = await import('/static/js/format.js');
          return cases.map(([v, p]) => fixed(v, p)); }""",
        cases,
    )
    assert shown == [format(v, f".{p}f") for v, p in cases]
