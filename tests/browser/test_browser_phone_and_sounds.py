"""Issue 12: typing on a phone (a tap on the board opens the on-screen keyboard, whose letters
go onto the board) and the optional move sounds."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import PHONE, start_vs_computer, state, wait_my_turn

pytestmark = pytest.mark.browser


def test_a_tap_on_the_board_opens_the_keyboard_and_its_letters_become_tiles(
    browser: Any, server: Any
) -> None:
    context = browser.new_context(
        viewport=PHONE, base_url=server.url, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        start_vs_computer(page)
        s = wait_my_turn(page)
        row, col = s["layout"]["start"]
        if s["board"][row][col]:  # the computer opened: a free square above the start
            row = next(r for r in range(row, -1, -1) if not s["board"][r][col])
        page.tap(f".sq[data-row='{row}'][data-col='{col}']")
        assert page.evaluate("() => document.activeElement.id") == "board-input"
        letters = [t for t in s["rack"] if t != "?"][:2]
        page.keyboard.type("".join(letters).lower())
        assert page.locator(".tile.pending").count() == len(letters)
        placed = page.evaluate(
            "() => [...window.tessera.pending.values()].map((p) => p.label)"
        )
        assert sorted(placed) == sorted(letters)
        page.keyboard.press("Backspace")
        assert page.locator(".tile.pending").count() == len(letters) - 1
    finally:
        context.close()


def test_sounds_are_off_until_turned_on_then_an_opponents_move_chimes(page: Any) -> None:
    start_vs_computer(page)
    switch = page.locator("#sound-btn")
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => window.tessera.sounds.played") == 0  # the opening made none
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true" and switch.inner_text() == "Sounds on"
    s = wait_my_turn(page)
    page.click("#pass-btn")
    page.wait_for_function(f"() => window.tessera.state.history.length > {len(s['history']) + 1}")
    page.wait_for_function("() => window.tessera.sounds.played >= 1")
    mine = state(page)["history"][-2]
    assert mine["player"] == s["seat"] and mine["kind"] == "pass"
    page.reload()
    page.wait_for_function("() => window.tessera.state")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"  # remembered
