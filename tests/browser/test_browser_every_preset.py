"""Issue 13 acceptance: for every two-player preset, a game between two computers started
with the New game dialog's own controls (its rules menu set to the preset) is shown on the
game page to its end: nobody is asked for a move, the page reaches "over", and the final
scores are shown in the players' list and the end-of-game dialog.

``duplicate`` is not offered on the web's new-game dialog (it is a DuplicateGame), so it is
left out (``support.presets.TWO_PLAYER``)."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import computer_game, open_new_game_dialog, state

from support.presets import TWO_PLAYER

pytestmark = pytest.mark.browser

OVER = "() => window.tessera.state && window.tessera.state.state === 'over'"


@pytest.mark.parametrize("preset", TWO_PLAYER)
def test_computer_against_computer_to_the_end(page: Any, preset: str) -> None:
    computer_game(page, preset)
    page.wait_for_function(OVER, timeout=60_000)
    s = state(page)
    assert s["rules"]["name"] == preset
    assert s["kinds"] == ["computer", "computer"]
    assert s["levels"] == ["level1", "level2"]
    assert len(s["history"]) > 4, s["history"]  # a real game was played
    result = s["result"]
    assert len(result["scores"]) == 2 and result["winners"], result

    # the end-of-game dialog: the winner (or a draw) and both final scores
    page.wait_for_selector("#summary-dialog[open]")
    rows = page.locator("#summary-scores tr")
    assert rows.count() == 2
    for i, name in enumerate(s["names"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[:2] == [name, str(result["scores"][i])], cells
    title = page.locator("#summary-title").inner_text()
    if len(result["winners"]) == 1:
        assert title == f"{s['names'][result['winners'][0]]} wins"
    else:
        assert title == "A draw"
    # the page never offered anybody a move, and the players' list shows the final scores
    assert page.locator("#play-btn").is_disabled() and page.locator("#pass-btn").is_disabled()
    assert page.locator("#cover").is_hidden()  # no "pass the device" screen
    scores = page.locator("#players .player .score").all_inner_texts()
    assert scores == [str(x) for x in s["scores"]]


def test_the_computers_mode_is_labelled_reachable_by_keyboard_and_remembered(page: Any) -> None:
    open_new_game_dialog(page)
    dialog = page.locator("#new-game-dialog")
    dialog.get_by_label("Play the computer").check()
    dialog.get_by_label("Play the computer").focus()
    page.keyboard.press("ArrowDown")  # to "People at this screen"
    page.keyboard.press("ArrowDown")  # to "Computer against computer"
    assert dialog.get_by_label("Computer against computer").is_checked()
    assert page.locator("#computers-opts").is_visible()
    assert page.locator("#computer-opts").is_hidden() and page.locator("#people-opts").is_hidden()
    # each seat's level has its own label, and the keyboard chooses it
    first, second = dialog.get_by_label("Computer 1"), dialog.get_by_label("Computer 2")
    assert first.get_attribute("id") == "ng-level-1" and second.get_attribute("id") == "ng-level-2"
    first.select_option("level2")
    second.focus()
    page.keyboard.press("End")  # the last level, "best" or the strongest
    last = second.locator("option").last.get_attribute("value")
    assert second.input_value() == last
    second.select_option("level1")  # a quick game
    dialog.locator("#ng-rules").select_option("wwf")
    dialog.get_by_role("button", name="Start").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/g/*")
    page.wait_for_function(OVER, timeout=60_000)
    assert state(page)["levels"] == ["level2", "level1"]
    page.wait_for_selector("#summary-dialog[open]")
    assert page.locator("#summary-rematch").is_visible()  # the one who started it may rematch
    page.keyboard.press("Escape")

    open_new_game_dialog(page)  # the choices, as they were
    assert dialog.get_by_label("Computer against computer").is_checked()
    assert page.locator("#ng-level-1").input_value() == "level2"
    assert page.locator("#ng-level-2").input_value() == "level1"
    assert page.locator("#ng-rules").input_value() == "wwf"
