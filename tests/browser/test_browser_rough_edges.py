"""Issue 12's rough edges on the game page, each pinned by what a player sees in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserkit import (
    DESKTOP,
    PHONE,
    hints,
    hot_seat_game,
    open_new_game_dialog,
    shot,
    start_vs_computer,
    state,
    wait_my_turn,
)
from onlinekit import best_play, phony_opening, type_play

from tessera.server.computer import LEVEL_STRENGTH

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


# ---------------------------------------------------------------- 3: challenge verdicts


@pytest.fixture(scope="module")
def lexicon() -> Any:
    from tessera.lexicon import Lexicon

    return Lexicon.load("enable")


def hot_seat_naspa(page: Any, lexicon: Any) -> dict[str, Any]:
    """A NASPA (double challenge) game for Ann and Bob at one screen, the first player's
    tiles shown, with a word for the second player to open with once a phony is off."""
    for _ in range(20):
        s = hot_seat_game(page, ("Ann", "Bob"), rules="naspa")
        page.wait_for_selector("#cover:not([hidden])")
        other = page.evaluate(
            """async (seat) => { const a = window.tessera;
              return (await fetch(`/api/games/${a.gameId}/state?seat=${seat}`)).json(); }""",
            1 - s["to_move"],
        )
        if best_play(other, lexicon):
            break
    page.click("#cover-btn")
    return state(page)


def word_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def pass_device(page: Any) -> dict[str, Any]:
    page.wait_for_selector("#cover:not([hidden])")
    page.click("#cover-btn")
    return state(page)


def test_a_play_challenged_off_and_a_failed_challenge_are_said_in_a_banner(
    page: Any, lexicon: Any
) -> None:
    """Rough edge 3: the verdict of a challenge is a banner (role=status) above the board that
    names the player whose play was challenged off and its phony, then the challenger of a
    valid play, the word that stood and the turn lost; it stays while the other player takes
    the device, and a click dismisses it. (Before: only a move-list row and a line without
    the words.)"""
    s = hot_seat_naspa(page, lexicon)
    mover, challenger = s["names"][s["to_move"]], s["names"][1 - s["to_move"]]
    phony = phony_opening(s, lexicon)
    word = "".join(label for _, _, label in sorted(phony))
    type_play(page, phony)
    page.click("#play-btn")
    s = pass_device(page)
    assert s["can_challenge"]
    page.click("#challenge-btn")
    banner = page.locator("#verdict")
    banner.wait_for(state="visible")
    assert banner.get_attribute("role") == "status"
    text = page.locator("#verdict-text").inner_text()
    assert f"{mover}'s play" in text and "challenged off" in text, text
    assert f"by {challenger}" in text and f"{word} is not in the word list" in text, text
    board = page.locator("#board").bounding_box()
    box = banner.bounding_box()
    assert board and box and box["y"] + box["height"] <= board["y"]  # above the board
    shot(page, "challenged-off-banner")

    # the challenger (to move after the withdrawal) opens with a real word; the other
    # challenges it and loses a turn
    s = state(page)
    assert s["names"][s["to_move"]] == challenger
    type_play(page, best_play(s, lexicon))
    page.click("#play-btn")
    s = pass_device(page)
    played = s["history"][-1]
    assert played["kind"] == "play"
    page.click("#challenge-btn")
    page.wait_for_function(
        "() => window.tessera.state.history.some(e => e.kind === 'lost_turn')"
    )
    text = page.locator("#verdict-text").inner_text()
    stood = word_list(played["words"])
    assert f"{mover} challenged {challenger}'s play {played['move']}" in text, text
    assert stood in text and f"{mover} loses a turn" in text, text
    # the next player takes the device: the news stays on the screen for them
    s = state(page)
    assert s["names"][s["to_move"]] == challenger
    pass_device(page)
    assert page.locator("#verdict").is_visible()
    shot(page, "failed-challenge-banner", PHONE)
    page.click("#verdict-close")
    assert page.locator("#verdict").is_hidden()


# ---------------------------------------------------------------- 5: the new-game dialog


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
    )


def menus_inside_the_dialog(page: Any, size: dict[str, int], what: str) -> None:
    dialog = page.locator("#new-game-dialog")
    overflow = dialog.evaluate("d => d.scrollWidth - d.clientWidth")
    assert overflow <= 0, (size, what, overflow)
    frame = dialog.bounding_box()
    assert frame and frame["x"] + frame["width"] <= size["width"]
    for select in page.locator("#new-game-dialog select:visible").all():
        box = select.bounding_box()
        assert box and inside(box, frame), (size, what, select.get_attribute("id"))


def test_the_new_game_dialogs_menus_are_whole_on_a_laptop_and_a_phone(page: Any) -> None:
    """Rough edge 5: every menu of the dialog, the rules above all, lies inside the dialog
    (nothing cut off at its edge, no sideways scrolling) at 1280×800 and 390×844, for the
    computer and for people at one screen, and with a time control of one's own open."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        open_new_game_dialog(page)
        for mode in ("computer", "people", "computers"):
            page.check(f'input[name="mode"][value="{mode}"]')
            menus_inside_the_dialog(page, size, mode)
            shot(page, f"new-game-dialog-{mode}-{size['width']}")
        page.check('input[name="ng-clock"][value="own"]')
        menus_inside_the_dialog(page, size, "own time control")
        page.click("#ng-cancel")


def test_the_new_game_dialog_remembers_explains_and_sets_the_clock_and_challenges(
    page: Any,
) -> None:
    """Rough edge 5: the dialog shows the README's strength table and the chosen level's
    description, explains a finish-line target, takes a time control and a challenge rule of
    one's own (which the game then has), and opens next time with every choice as it was."""
    open_new_game_dialog(page)
    rows = page.locator("#ng-levels tbody tr")
    figures = {
        r[0]: (float(r[1]), float(r[2]), r[3], float(r[4]))
        for r in (rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count()))
    }
    assert figures == LEVEL_STRENGTH
    page.select_option("#ng-level", "level5")
    assert "expert" in page.locator("#ng-level-text").inner_text()
    assert page.locator("#ng-levels tr.chosen").inner_text().startswith("level5")
    assert page.locator("#ng-finish-note").is_hidden()
    page.select_option("#ng-rules", "finish_line")
    note = page.locator("#ng-finish-note").inner_text()
    assert "120 with 2 players" in note and "ends as soon as" in note, note
    page.select_option("#ng-rules", "hasbro")
    assert page.locator("#ng-finish-note").is_hidden()
    page.select_option("#ng-challenge", "single")
    assert "costs nothing" in page.locator("#ng-challenge-text").inner_text()
    page.check('input[name="ng-clock"][value="own"]')
    page.fill("#ng-minutes", "7")
    page.select_option("#ng-extra-kind", "overtime")
    page.fill("#ng-extra", "2")
    page.check('input[name="mode"][value="people"]')
    page.select_option("#ng-count", "3")
    for i, name in enumerate(("Ann", "Bob", "Cy")):
        page.locator("#ng-names input").nth(i).fill(name)
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
    s = state(page)
    assert s["names"] == ["Ann", "Bob", "Cy"] and s["rules"]["name"] == "hasbro"
    assert s["rules"]["challenge_rule"] == "single"
    assert s["clock"] == {"initial_ms": 420_000, "increment_ms": 0, "max_overtime_min": 2}
    info = page.locator("#game-info").inner_text()
    assert "single challenge" in info and "7 min, 2 min overtime" in info, info

    page.reload()
    open_new_game_dialog(page)
    assert page.locator('input[name="mode"][value="people"]').is_checked()
    assert page.locator("#ng-count").input_value() == "3"
    assert page.locator("#ng-names input").evaluate_all("els => els.map(e => e.value)") == [
        "Ann", "Bob", "Cy"
    ]
    assert page.locator("#ng-rules").input_value() == "hasbro"
    assert page.locator("#ng-challenge").input_value() == "single"
    assert page.locator('input[name="ng-clock"][value="own"]').is_checked()
    assert page.locator("#ng-minutes").input_value() == "7"
    assert page.locator("#ng-extra-kind").input_value() == "overtime"
    assert page.locator("#ng-extra").input_value() == "2"
    page.check('input[name="mode"][value="computer"]')
    assert page.locator("#ng-level").input_value() == "level5"


def test_a_game_against_the_computer_has_a_rematch_with_the_same_settings(page: Any) -> None:
    """Rough edge 5: after a game against the computer, Rematch (in the summary and under
    the board) starts the same game again: players, level, rules, clock, challenge rule."""
    open_new_game_dialog(page)
    page.check('input[name="mode"][value="computer"]')
    page.select_option("#ng-level", "level2")
    page.select_option("#ng-rules", "wespa")
    page.select_option("#ng-challenge", "double")
    page.check('input[name="ng-clock"][value="own"]')
    page.fill("#ng-minutes", "9")
    page.select_option("#ng-extra-kind", "increment")
    page.fill("#ng-extra", "3")
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    before = wait_my_turn(page)
    page.on("dialog", lambda d: d.accept())  # "Resign this game?"
    page.click("#resign-btn")
    page.wait_for_selector("#summary-dialog[open]")
    assert page.locator("#summary-rematch").is_visible()
    page.click("#summary-rematch")
    page.wait_for_url(lambda url: before["game_id"] not in url)
    page.wait_for_function("() => window.tessera.state")
    after = state(page)
    assert after["state"] == "playing" and after["seq"] <= 1  # the computer may open
    for key in ("names", "kinds", "levels", "rules", "lexicon", "clock"):
        assert after[key] == before[key], key
    assert after["levels"][1] == "level2" and after["rules"]["challenge_rule"] == "double"
    assert after["clock"] == {"initial_ms": 540_000, "increment_ms": 3000, "max_overtime_min": 0}
