"""Playing in the browser: Chromium drives the page against a real ``tessera serve``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    DESKTOP,
    PHONE,
    board_text,
    center,
    drag_tile,
    hints,
    open_new_game_dialog,
    shot,
    start_vs_computer,
    state,
    wait_my_turn,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

TESSERA = Path(sys.executable).with_name("tessera")
PREVIEW_HAS_SCORE = "() => document.querySelector('#preview').textContent.includes('points')"
# The list is drawn twice (the quick plays, then the look-ahead's): a click while the second
# drawing replaces the buttons can land on neither, so the test waits until the look-ahead is in.
HINTS_SETTLED = """() => { const h = document.querySelector('#hints');
  const m = document.querySelector('#message').textContent;
  if (m && !m.includes('thinking')) throw new Error('hint failed: ' + m);
  const status = document.querySelector('#hint-status');
  const thinking = !status.hidden && status.textContent.startsWith('Thinking');
  return !thinking && (h.querySelector('li') || h.textContent.includes('No plays')); }"""


def my_moves(page: Any) -> list[dict[str, Any]]:
    s = state(page)
    return [e for e in s["history"] if e["player"] == s["seat"]]


def test_drag_an_opening_play_see_its_score_and_play_it(page: Any) -> None:
    s = start_vs_computer(page)
    assert page.locator("#rack .tile").count() == len(s["rack"]) == 7
    assert page.locator(".sq").count() == 225
    assert page.locator(".sq.p3W").count() == 8 and page.locator(".sq.start").count() == 1
    best = hints(page)[0]
    for r, c, label in best["placements"]:
        drag_tile(page, label, r, c)
    assert page.locator(".tile.pending").count() == len(best["placements"])
    page.wait_for_function(
        f"() => document.querySelector('#preview').textContent.includes('{best['score']} points')"
    )
    shot(page, "desktop-tentative-play")
    before = len(my_moves(page))
    page.click("#play-btn")
    page.wait_for_function(
        f"() => window.tessera.state.history.filter("
        f"e => e.player === window.tessera.state.seat).length > {before}"
    )
    mine = my_moves(page)[-1]
    assert mine["kind"] == "play" and mine["score"] == best["score"]
    assert page.locator("#sheet td", has_text=mine["position"]).count() >= 1
    assert page.locator(".tile.pending").count() == 0
    last = wait_my_turn(page)["history"][-1]  # the computer's answer
    assert page.locator(".sq.last").count() == (len(last["squares"]) if "squares" in last else 0)
    shot(page, "desktop-after-first-move", DESKTOP)
    shot(page, "phone-game", PHONE)


def test_type_a_play_with_the_keyboard(page: Any) -> None:
    start_vs_computer(page)
    found = hints(page)
    plain = [h for h in found if all(lab == lab.upper() for _, _, lab in h["placements"])]
    play = (plain or found)[0]  # typing a letter uses a real tile first, then the blank
    (r, c, _), *rest = play["placements"]
    down = bool(rest) and rest[0][1] == c
    page.click(f'.sq[data-row="{r}"][data-col="{c}"]')
    if down:
        page.click(f'.sq[data-row="{r}"][data-col="{c}"]')  # a second click turns the arrow down
        assert page.locator(".sq.cursor.down").count() == 1
    else:
        assert page.locator(".sq.cursor.across").count() == 1
    page.keyboard.type("".join(lab for _, _, lab in play["placements"]).lower())
    assert page.locator(".tile.pending").count() == len(play["placements"])
    squares = sorted(
        page.locator(".sq:has(.tile.pending)").evaluate_all(
            "els => els.map(e => [+e.dataset.row, +e.dataset.col])"
        )
    )
    assert squares == sorted([r, c] for r, c, _ in play["placements"])
    page.wait_for_function(PREVIEW_HAS_SCORE)
    preview = page.locator("#preview").text_content() or ""
    score = int(preview.rsplit("·", 1)[1].split()[0])
    if play in plain:
        assert score == play["score"]
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => window.tessera.state.history.some(e => e.player === window.tessera.state.seat)"
    )
    assert my_moves(page)[-1]["score"] == score


def test_an_illegal_play_shows_the_reason_and_changes_nothing(page: Any) -> None:
    s = start_vs_computer(page)
    board = board_text(page)
    rack = s["rack"]
    # two tiles in a corner: off the start square (or not touching the other tiles)
    page.click('.sq[data-row="0"][data-col="0"]')
    letters = [t for t in rack if t != "?"][:2]
    page.keyboard.type("".join(letters).lower())
    assert page.locator(".tile.pending").count() == 2
    page.click("#play-btn")
    message = page.locator("#message")
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    text = message.text_content() or ""
    assert "start square" in text or "touch a tile" in text or "word list" in text
    assert board_text(page) == board and state(page)["rack"] == rack
    assert page.locator(".tile.pending").count() == 2  # still there, to fix or recall
    page.click("#recall-btn")
    assert page.locator(".tile.pending").count() == 0
    assert page.locator("#rack .tile").count() == len(rack)


def test_a_reload_mid_game_resumes_the_same_position(page: Any) -> None:
    start_vs_computer(page)
    best = hints(page)[0]
    for r, c, label in best["placements"]:
        drag_tile(page, label, r, c)
    page.click("#play-btn")
    page.wait_for_function(
        "() => window.tessera.state.history.some(e => e.player === window.tessera.state.seat)"
    )
    before = wait_my_turn(page)
    sheet = page.locator("#sheet").inner_text()
    page.reload()
    after = wait_my_turn(page)
    for key in ("game_id", "board", "rack", "scores", "history", "bag_count", "seq"):
        assert after[key] == before[key], key
    assert page.locator("#sheet").inner_text() == sheet
    assert sorted(
        page.locator("#rack .tile").evaluate_all("els => els.map(e => e.dataset.letter)")
    ) == sorted(before["rack"])
    # "New game" on the game page offers a new game; so does the start page once this game is
    # forgotten (what start_vs_computer does when an opening rack has no word)
    page.click("#new-game-btn")
    page.wait_for_selector("#new-game-dialog[open]")
    assert start_vs_computer(page)["game_id"] != before["game_id"]


def test_play_a_game_to_its_end_and_download_a_record_that_verifies(
    page: Any, tmp_path: Path
) -> None:
    start_vs_computer(page)
    for _turn in range(60):
        s = wait_my_turn(page)
        if s["state"] == "over":
            break
        if s["state"] == "awaiting_final":
            page.click("#pass-btn")
        else:
            page.click("#hint-btn")
            page.wait_for_function(HINTS_SETTLED)
            if page.locator("#hints li button").count():
                page.locator("#hints li button").first.click()
                page.click("#play-btn")
            elif s["bag_count"] >= 7:
                page.click("#exchange-btn")
                page.click("#exchange-all")
                page.click("#exchange-ok")
            else:
                page.click("#pass-btn")
        page.wait_for_function(f"() => window.tessera.state.seq > {s['seq']}")
    page.wait_for_selector("#summary-dialog[open]")
    assert page.locator("#chart svg polyline").count() == 2
    title = page.locator("#summary-title").text_content() or ""
    assert re.search(r"\bwins?\b|draw", title), title
    shot(page, "desktop-game-over")
    with page.expect_download() as info:
        page.click("#gcg-btn")
    path = tmp_path / "game.gcg"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "#player1" in text and "#player2" in text
    done = subprocess.run(
        [str(TESSERA), "gcg", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shot(page, "phone-game-over", PHONE)


def test_a_hot_seat_game_hides_each_rack_between_turns(page: Any) -> None:
    for _ in range(20):  # until the first rack has a word to play
        open_new_game_dialog(page)
        page.check('input[name="mode"][value="people"]')
        names = page.locator("#ng-names input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Bob")
        page.click("#ng-start")
        page.wait_for_url("**/g/*")
        page.wait_for_selector("#cover:not([hidden])")
        if hints(page):
            break
    s = state(page)
    first = s["names"][s["to_move"]]
    assert f"Pass the device to {first}" in page.locator("#cover-text").inner_text()
    assert page.locator("#rack .tile").count() == 0  # not even in the page
    shot(page, "desktop-hot-seat-cover")
    page.click("#cover-btn")
    page.wait_for_function("() => document.querySelectorAll('#rack .tile').length === 7")
    assert page.locator("#rack .tile").count() == 7
    first_seat = state(page)["seat"]
    best = hints(page)[0]
    for r, c, label in best["placements"]:
        drag_tile(page, label, r, c)
    page.click("#play-btn")
    page.wait_for_function("() => window.tessera.state.history.length === 1")
    page.wait_for_selector("#cover:not([hidden])")
    s = state(page)
    second = s["names"][s["to_move"]]
    assert second != first
    assert f"Pass the device to {second}" in page.locator("#cover-text").inner_text()
    assert page.locator("#rack .tile").count() == 0
    page.click("#cover-btn")
    page.wait_for_function("() => document.querySelectorAll('#rack .tile').length === 7")
    second_rack = sorted(
        page.locator("#rack .tile").evaluate_all("els => els.map(e => e.dataset.letter)")
    )
    now = state(page)
    assert len(second_rack) == 7 and sorted(now["rack"]) == second_rack
    assert now["seat"] == now["to_move"] != first_seat
    assert now["history"][0]["rack"] == ""  # the first player's rack stays hidden
    shot(page, "phone-hot-seat", PHONE)


def test_drag_tiles_by_touch_on_a_phone(browser: Any, server: Any) -> None:
    context = browser.new_context(
        viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        start_vs_computer(page)
        best = hints(page)[0]
        touch = context.new_cdp_session(page)
        for r, c, label in best["placements"]:
            blank = label != label.upper()
            x0, y0 = center(page, f'#rack .tile[data-letter="{"?" if blank else label}"]')
            x1, y1 = center(page, f'.sq[data-row="{r}"][data-col="{c}"]')
            touch.send(
                "Input.dispatchTouchEvent",
                {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]},
            )
            for k in range(1, 6):
                point = {"x": x0 + (x1 - x0) * k / 5, "y": y0 + (y1 - y0) * k / 5}
                touch.send(
                    "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]}
                )
            touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            if blank:
                page.wait_for_selector("#blank-dialog[open]")
                page.click(f'#blank-letters button:text-is("{label.upper()}")')
        assert page.locator(".tile.pending").count() == len(best["placements"])
        page.wait_for_function(
            "() => document.querySelector('#preview').textContent"
            f".includes('{best['score']} points')"
        )
        shot(page, "phone-touch-placed")
        played = (
            "() => window.tessera.state.history.some(e => e.player === window.tessera.state.seat)"
        )
        for _ in range(8):  # headless Chromium may drop a synthetic tap soon after a touch drag
            page.tap("#play-btn")
            try:
                page.wait_for_function(played, timeout=1500)
                break
            except PlaywrightTimeout:
                continue
        page.wait_for_function(played)
        assert my_moves(page)[-1]["score"] == best["score"]
    finally:
        context.close()
    assert not errors, errors


def test_every_page_fits_a_phone_screen(browser: Any, server: Any) -> None:
    """Nothing wider than a phone: a wider page makes the phone zoom out (and once pushed the
    blank-letter dialog's last column off the screen)."""
    context = browser.new_context(
        viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    fits = f"() => document.documentElement.scrollWidth <= {PHONE['width']}"
    try:
        page.goto("/")
        page.wait_for_selector("#seek-rules option", state="attached")
        assert page.evaluate(fits), "the lobby"
        shot(page, "phone-lobby")
        page.click("#quick-computer")
        page.wait_for_url("**/g/*")
        wait_my_turn(page)
        assert page.evaluate(fits), "a game"
        for path, drawn in (
            ("/account", "#login-form"),
            ("/u/nobody", "#profile-error:has-text('no player')"),
            ("/invite/nothing", "#invite-text:has-text('no invitation')"),
        ):
            page.goto(path)
            page.wait_for_selector(drawn)
            assert page.evaluate(fits), path
    finally:
        context.close()


def test_a_hint_shows_plays_at_once_then_thinks_and_ranks_by_chance_of_winning(
    page: Any,
) -> None:
    for _ in range(4):  # a rack whose best moves are all exchanges has no play to lay: deal again
        start_vs_computer(page)
        page.evaluate(
            """() => { window.hintStatuses = [];
              new MutationObserver(() => {
                const text = document.querySelector('#hint-status').textContent;
                window.hintStatuses.push(text);
                if (text === 'Thinking…')  // the quick list is drawn: remember its items
                  window.quickItems = [...document.querySelectorAll('#hints li[data-move]')];
              }).observe(document.querySelector('#hint-status'),
                {childList: true, characterData: true, subtree: true}); }"""
        )
        page.click("#hint-btn")
        page.wait_for_function(
            "() => document.querySelector('#hint-status').textContent.includes('look-ahead')",
            timeout=30_000,
        )
        assert "Thinking…" in page.evaluate("() => window.hintStatuses")
        labels = page.locator("#hints li").all_text_contents()
        assert labels and all("% to win" in t for t in labels), labels
        if page.locator("#hints li button").count():
            break
    # a play in both lists kept its item (a click under way when the second came still lands)
    kept = page.evaluate(
        """() => window.quickItems.filter((li) => li.isConnected).map((li) => li.dataset.move)"""
    )
    both = page.evaluate(
        """() => window.quickItems.map((li) => li.dataset.move).filter((m) =>
             document.querySelector(`#hints li[data-move="${m}"]`))"""
    )
    assert both and kept == both
    shot(page, "hints-thinking")
    page.locator("#hints li button").first.click()  # a thought play lays its tiles too
    assert page.locator(".tile.pending").count() > 0
    assert page.locator("#hint-status").is_hidden()
