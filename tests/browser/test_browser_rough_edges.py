"""Issue 12's rough edges on the game page, each pinned by what a player sees in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserkit import DESKTOP, hints, open_new_game_dialog, start_vs_computer, state, wait_my_turn

pytestmark = pytest.mark.browser

ACTION_BUTTONS = ["play-btn", "pass-btn", "hint-btn", "resign-btn", "exchange-btn", "shuffle-btn"]
RED = "rgb(176, 40, 30)"  # .message: the colour of a problem


def press_hidden_buttons(page: Any) -> None:
    """Click the game's buttons from script, as a stray key or a stale handler would."""
    page.evaluate(
        "ids => ids.forEach(id => document.getElementById(id).click())",
        [*ACTION_BUTTONS, "challenge-btn", "abort-btn", "cover-btn"],
    )
    page.wait_for_timeout(300)  # an unhandled rejection from a click would surface by now


def illegal_corner_play(page: Any) -> None:
    """Two tiles in the top left corner: the opening play misses the start square."""
    rack = state(page)["rack"]
    page.click('.sq[data-row="0"][data-col="0"]')
    page.keyboard.type("".join(t for t in rack if t != "?")[:2].lower())
    page.wait_for_function("() => document.querySelector('#preview').dataset.ok === '0'")


def hot_seat_game(page: Any, names: tuple[str, str]) -> dict[str, Any]:
    open_new_game_dialog(page)
    page.check('input[name="mode"][value="people"]')
    inputs = page.locator("#ng-names input")
    for i, name in enumerate(names):
        inputs.nth(i).fill(name)
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
    return state(page)


# ---------------------------------------------------------------- 1: no game on the page


def test_an_unknown_game_says_no_such_game_and_its_buttons_do_nothing(page: Any) -> None:
    page.goto("/g/nosuchgame0000")
    page.wait_for_selector("#no-seat:not([hidden])")
    assert "no such game" in page.locator("#no-seat-text").inner_text().lower()
    assert page.locator("#game").is_hidden()
    for button in ACTION_BUTTONS:
        assert page.locator(f"#{button}").is_hidden(), button
    press_hidden_buttons(page)  # the page fixture fails the test on any script error
    assert page.locator("#message").inner_text() == ""


def test_someone_elses_game_is_private_not_played_elsewhere(page: Any, browser: Any) -> None:
    start_vs_computer(page)
    address = page.url
    other = browser.new_context(viewport=DESKTOP)
    stranger = other.new_page()
    errors: list[str] = []
    stranger.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        stranger.goto(address)
        stranger.wait_for_selector("#no-seat:not([hidden])")
        text = stranger.locator("#no-seat-text").inner_text()
        assert "private" in text and "another device" not in text
        assert stranger.locator("#game").is_hidden()
        press_hidden_buttons(stranger)
    finally:
        other.close()
    assert not errors, errors


# ---------------------------------------------------------------- 4: a refusal, said once


def test_an_illegal_plays_reason_shows_once_in_the_colour_of_a_problem(page: Any) -> None:
    start_vs_computer(page)
    illegal_corner_play(page)
    preview = page.locator("#preview")
    reason = preview.inner_text()
    assert "start square" in reason or "touch a tile" in reason or "word list" in reason
    assert preview.evaluate("e => getComputedStyle(e).color") == RED
    page.click("#play-btn")
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    page.wait_for_timeout(400)  # the preview asks the server again after the refusal
    shown = [
        page.locator(sel).inner_text()
        for sel in ("#preview", "#message", "#verdict")
        if page.locator(sel).is_visible()
    ]
    assert sum(reason.rstrip(".") in text for text in shown) == 1, shown
    assert page.locator(".tile.pending").count() == 2


# ---------------------------------------------------------------- 6


def test_a_refused_play_is_an_answer_not_a_console_error(page: Any) -> None:
    """The page makes its moves on the game's socket: a refusal is an answer there (over HTTP
    it is a 200 with ok false, tests/server/test_server_api.py), never an error."""
    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    answers: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "answer":
                answers.append(message)

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    start_vs_computer(page)
    illegal_corner_play(page)
    page.click("#play-btn")
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    assert [a["ok"] for a in answers] == [False], answers
    assert answers[0]["message"] and "status" not in answers[0]
    assert not console_errors, console_errors


def test_you_win_and_the_summary_does_not_reopen_on_reload(page: Any) -> None:
    s = hot_seat_game(page, ("You", "Bob"))
    page.evaluate(
        """async (seat) => { const a = window.tessera;
          await fetch(`/api/games/${a.gameId}/move`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seat, action: 'resign'})}); }""",
        s["names"].index("Bob"),
    )
    page.wait_for_selector("#summary-dialog[open]")
    assert page.locator("#summary-title").inner_text() == "You win"
    page.reload()
    page.wait_for_function("() => window.tessera.state && window.tessera.state.state === 'over'")
    page.wait_for_timeout(500)
    assert page.locator("#summary-dialog[open]").count() == 0


def test_the_centre_star_is_drawn(page: Any) -> None:
    hot_seat_game(page, ("Ann", "Bob"))  # nobody has moved: the start square is empty
    assert state(page)["history"] == []
    star = page.locator(".sq.start").evaluate("e => getComputedStyle(e, '::after').content")
    assert "★" in star


def test_the_action_row_fits_one_line_on_a_laptop_screen(page: Any) -> None:
    open_new_game_dialog(page)
    page.select_option("#ng-rules", "naspa")  # with a challenge rule: the Challenge button too
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
    page.set_viewport_size(DESKTOP)
    assert page.locator("#challenge-btn").is_visible()
    buttons = page.locator(".actions button:visible")
    tops = {round(b["y"]) for b in (buttons.nth(i).bounding_box() for i in range(buttons.count()))}
    assert len(tops) == 1, tops
    resign = page.locator("#resign-btn").bounding_box()
    assert resign is not None and resign["y"] + resign["height"] <= DESKTOP["height"]


def test_a_lost_connection_shows_the_reconnecting_banner(page: Any) -> None:
    start_vs_computer(page)
    assert hints(page)
    page.context.set_offline(True)
    try:
        page.click("#pass-btn")
        page.wait_for_selector("#conn-banner:visible")
        assert "reconnecting" in page.locator("#conn-banner").inner_text().lower()
        assert "fetch" not in page.locator("#message").inner_text().lower()
    finally:
        page.context.set_offline(False)
    page.wait_for_selector("#conn-banner", state="hidden", timeout=15_000)
    wait_my_turn(page)


# ---------------------------------------------------------------- 2: coordinates


def board_labels(page: Any) -> tuple[list[str], list[str]]:
    cols = page.locator("#board .col-label").all_inner_texts()
    rows = page.locator("#board .row-label").all_inner_texts()
    return cols, rows


def test_the_board_shows_its_coordinates_beside_the_right_squares(page: Any) -> None:
    start_vs_computer(page)
    cols, rows = board_labels(page)
    assert cols == list("ABCDEFGHIJKLMNO")
    assert rows == [str(n) for n in range(1, 16)]
    h = page.locator("#board .col-label", has_text="H").bounding_box()
    h8 = page.locator('.sq[data-square="H8"]').bounding_box()
    eight = page.locator("#board .row-label").nth(7).bounding_box()
    assert h and h8 and eight
    assert abs((h["x"] + h["width"] / 2) - (h8["x"] + h8["width"] / 2)) < 2
    assert abs((eight["y"] + eight["height"] / 2) - (h8["y"] + h8["height"] / 2)) < 2
    assert page.locator(".sq").count() == 225


def test_a_21_by_21_board_is_lettered_a_to_u(page: Any) -> None:
    open_new_game_dialog(page)
    page.select_option("#ng-rules", "super")
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
    cols, rows = board_labels(page)
    assert cols == list("ABCDEFGHIJKLMNOPQRSTU") and rows[-1] == "21"


# ---------------------------------------------------------------- 7: hints


def test_hints_show_equity_and_no_mirror_images_of_the_opening(page: Any) -> None:
    """(That a hint lists ten plays, in parentheses notation, is pinned in tests/server:
    test_quick_hints_list_ten_plays_by_equity_in_the_previews_notation.)"""
    hot_seat_game(page, ("Ann", "Bob"))  # against the computer, it may have opened already
    assert state(page)["history"] == []
    page.wait_for_selector("#cover:not([hidden])")
    page.click("#cover-btn")  # the first player takes the device
    found = hints(page)
    assert all(h["move"][0].isdigit() for h in found), found  # the opening: across only
    page.click("#hint-btn")
    page.wait_for_selector("#hints li")
    labels = page.locator("#hints li").all_inner_texts()
    assert labels and all("equity" in label for label in labels), labels
