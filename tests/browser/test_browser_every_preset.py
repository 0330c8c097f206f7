"""Issue 13 acceptance: for every two-player preset, a game between two computers started
with the New game dialog's own controls (its rules menu set to the preset) is shown on the
game page to its end: nobody is asked for a move, the page reaches "over", and the final
scores are shown in the players' list and the end-of-game dialog.

``duplicate`` is a DuplicateGame, not offered on the New game dialog
(``support.presets.TWO_PLAYER`` leaves it out): its computer-against-computer game is
started from the duplicate options' own controls (no person, two computers) and watched,
round after round on its own, to the final table."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import computer_game, open_new_game_dialog, state

from support.presets import TWO_PLAYER

pytestmark = pytest.mark.browser

OVER = "() => window.tessera.state && window.tessera.state.state === 'over'"
DUPLICATE_OVER = "() => window.tessera.duplicate && window.tessera.duplicate.state === 'over'"


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


def test_duplicate_computer_against_computer_to_the_end(page: Any) -> None:
    page.goto("/")
    page.click("#duplicate-options")
    options = page.locator("#dup-start")
    options.wait_for()
    options.get_by_label("Person 1").fill("")  # nobody at the screen: computers alone
    options.get_by_label("Computer 1").select_option("level1")
    options.get_by_label("Computer 2").select_option("level2")
    options.get_by_role("button", name="Start a duplicate game").click()
    page.wait_for_url("**/duplicate/*")
    page.wait_for_function("() => window.tessera && window.tessera.duplicate")
    page.get_by_label("Play the next rounds on their own").check()
    page.wait_for_function(DUPLICATE_OVER, timeout=180_000)
    v = page.evaluate("() => window.tessera.duplicate")
    assert v["rules"]["name"] == "duplicate"
    assert [(p["name"], p["computer"]) for p in v["players"]] == [
        ("level1", True), ("level2", True)
    ]
    assert v["watch"] and len(v["rounds"]) > 4, v["rounds"]  # a real game was played
    result = v["result"]
    assert result["reason"] and sorted(result["ranking"]) == ["level1", "level2"]
    # the final table: both computers, best first, with their points and share of the tops
    page.wait_for_selector("#dup-result:not([hidden])")
    by_name = {p["name"]: p for p in v["players"]}
    rows = page.locator("#dup-final tbody tr")
    assert rows.count() == 2
    for i, name in enumerate(result["ranking"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[:2] == [name, str(by_name[name]["score"])], cells
    assert by_name[result["ranking"][0]]["score"] >= by_name[result["ranking"][1]]["score"]
    # the page never asked anybody for a play
    assert page.locator("#dup-form").is_hidden() and page.locator("#dup-entry").is_hidden()
    assert page.locator("#dup-rounds tbody tr").count() == len(v["rounds"])


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
