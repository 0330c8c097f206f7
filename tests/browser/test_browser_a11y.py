"""Accessibility: a whole game by keyboard alone (from the skip link to the board), axe-core
(the version scripts/ensure-system-packages pins) on every page in light and dark, in English,
Japanese and Hungarian, the live region that says what the opponent did, and screenshots of
every page."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    AXE,
    DESKTOP,
    PHONE,
    axe_pinned_version,
    axe_violations,
    computer_game,
    hints,
    open_new_game_dialog,
    shot,
    start_vs_computer,
    state,
    wait_my_turn,
)
from onlinekit import log_in, register, type_play

pytestmark = pytest.mark.browser

THEMES = ("light", "dark")
LANGUAGES = ("en", "ja", "hu")
COLS = "ABCDEFGHIJKLMNOPQRSTU"
# Pointer events a keyboard never makes (a button pressed with Enter fires only "click").
NO_MOUSE = """() => { window.__mouse = [];
  const types = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'dblclick', 'contextmenu'];
  for (const type of types) document.addEventListener(type, () => window.__mouse.push(type), true);
}"""
HINTS_SETTLED = """() => { const status = document.querySelector('#hint-status');
  return !!document.querySelector('#hints li')
    && !(!status.hidden && status.textContent.startsWith('Thinking')); }"""


@pytest.fixture(scope="module")
def axe_available() -> None:
    if not AXE.exists():
        reason = f"axe-core is missing at {AXE}: run scripts/ensure-system-packages (needs npm)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def profile_name(browser: Any, server: Any) -> Iterator[str]:
    """A registered player, for the profile page."""
    context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    page = context.new_page()
    register(page, "ada-reader")
    context.close()
    yield "ada-reader"


@pytest.fixture
def themed(browser: Any, server: Any) -> Iterator[Any]:
    """Pages in a browser whose system asks for a colour scheme, light or dark."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(theme: str, size: dict[str, int] = DESKTOP, lang: str = "en") -> Any:
        context = browser.new_context(viewport=size, base_url=server.url, color_scheme=theme)
        context.add_init_script(f"localStorage.setItem('tessera:lang', '{lang}')")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# ---------------------------------------------------------------- keyboard only


def focused(page: Any) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id || ''")


def tab_to(page: Any, selector: str, *, back: bool = False, limit: int = 80) -> None:
    """Tab (or Shift+Tab) until the element has the focus, as a keyboard user reaches it."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{selector} is not reachable with {'Shift+' if back else ''}Tab")


def my_history(page: Any) -> list[dict[str, Any]]:
    s = state(page)
    return [e for e in s["history"] if e["player"] == s["seat"]]


def arrow_to(page: Any, r: int, c: int, down: bool) -> None:
    """From the cursor a focused board starts with (the start square, across), arrow keys to
    the square, then Space to turn the cursor down if the word goes down."""
    r0, c0 = state(page)["layout"]["start"]
    for _ in range(abs(r - r0)):
        page.keyboard.press("ArrowDown" if r > r0 else "ArrowUp")
    for _ in range(abs(c - c0)):
        page.keyboard.press("ArrowRight" if c > c0 else "ArrowLeft")
    across = page.locator("#board .sq.at").get_attribute("class") or ""
    if down == ("across" in across):
        page.keyboard.press("Space")
    assert page.locator("#board .sq.at").get_attribute("class").split().count(
        "down" if down else "across"
    ) == 1


def keyboard_play(page: Any) -> dict[str, Any]:
    """The best play without a blank (one with, if there is none), typed on the focused board."""
    found = hints(page)
    plain = [h for h in found if all(lab == lab.upper() for _, _, lab in h["placements"])]
    play = (plain or found)[0]
    placements = sorted(play["placements"])
    (r, c, _), *rest = placements
    tab_to(page, "#board")
    r0, c0 = state(page)["layout"]["start"]  # the focused board's cursor, read as the active cell
    active = page.locator("#board").get_attribute("aria-activedescendant")
    assert active == f"board-{COLS[c0]}{r0 + 1}"
    arrow_to(page, r, c, down=bool(rest) and rest[0][1] == c)
    page.keyboard.type("".join(label for _, _, label in placements).lower())
    page.wait_for_function(
        f"() => document.querySelectorAll('.tile.pending').length === {len(placements)}"
    )
    return play


def test_a_game_by_keyboard_alone(page: Any) -> None:
    page.add_init_script(f"({NO_MOUSE})()")
    for _ in range(10):  # a game whose opening rack has a word (as start_vs_computer does)
        page.goto("/")
        tab_to(page, "#quick-computer")
        page.keyboard.press("Enter")
        page.wait_for_url("**/g/*")
        wait_my_turn(page)
        if hints(page):
            break
    else:
        raise AssertionError("10 new games in a row offered no play")

    # place a word; Enter on a button is the button's, Enter on the board plays
    play = keyboard_play(page)
    square = page.locator(".sq:has(.tile.pending)").first.get_attribute("aria-label") or ""
    assert square.endswith(", placed"), square
    before = len(my_history(page))
    tab_to(page, "#shuffle-btn")
    page.keyboard.press("Enter")
    assert page.locator(".tile.pending").count() == len(play["placements"])
    assert len(my_history(page)) == before
    tab_to(page, "#board", back=True)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => window.tessera.state.history.filter("
        f"e => e.player === window.tessera.state.seat).length > {before}"
    )
    assert my_history(page)[-1]["kind"] == "play"
    wait_my_turn(page)

    # exchange two tiles in the dialog: Space chooses a tile, Tab reaches the dialog's buttons
    tab_to(page, "#exchange-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#exchange-dialog[open]")
    assert page.evaluate("() => document.activeElement.closest('#exchange-tiles') !== null")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator('#exchange-tiles [aria-pressed="true"]').count() == 2
    tab_to(page, "#exchange-ok")
    page.keyboard.press("Enter")
    page.wait_for_selector("#exchange-dialog", state="hidden")
    page.wait_for_function(
        "() => window.tessera.state.history.some("
        "e => e.player === window.tessera.state.seat && e.kind === 'exchange')"
    )
    wait_my_turn(page)

    # Escape takes placed tiles back (and closes a dialog: the exchange dialog, unused)
    tab_to(page, "#exchange-btn", back=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("#exchange-dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#exchange-dialog", state="hidden")

    # hints: a hint's button puts its tiles down and hands the focus to the board; Escape recalls
    tab_to(page, "#hint-btn")
    page.keyboard.press("Enter")
    page.wait_for_function(HINTS_SETTLED, timeout=30_000)
    if page.locator("#hints li button").count():
        tab_to(page, "#hints button")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelectorAll('.tile.pending').length > 0")
        assert focused(page) == "board"
        page.keyboard.press("Escape")
        assert page.locator(".tile.pending").count() == 0

    # pass
    passes = sum(e["kind"] == "pass" for e in my_history(page))
    tab_to(page, "#pass-btn")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => window.tessera.state.history.filter(e => e.player === window.tessera.state.seat"
        f" && e.kind === 'pass').length > {passes}"
    )
    kinds = [e["kind"] for e in my_history(page)]
    assert kinds.count("play") >= 1 and "exchange" in kinds and "pass" in kinds
    assert page.evaluate("() => window.__mouse") == []


def test_the_rack_and_the_squares_read_as_tiles_and_coordinates(page: Any) -> None:
    s = start_vs_computer(page)
    rack = page.locator("#rack")
    assert rack.get_attribute("role") == "list" and rack.get_attribute("tabindex") == "0"
    names = rack.locator('[role="listitem"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    expected = [
        "blank" if t == "?" else f"{t}, {s['values'][t]} point{'' if s['values'][t] == 1 else 's'}"
        for t in s["rack"]
    ]
    assert names == expected
    # the standard board: H8 the start (a double word square), A1 a triple word square
    def aria(name: str) -> str | None:
        return page.locator(f'#board [data-square="{name}"]').get_attribute("aria-label")

    assert aria("A1") == "A1, triple word" and aria("D1") == "D1, double letter"
    if not any(any(row) for row in s["board"]):
        assert aria("H8") == "H8, start, double word"
    mid_game(page)  # tiles on the board: a square's name holds what it shows, letter and value
    s = state(page)
    tiles = 0
    for r, row in enumerate(s["board"]):
        for c, label in enumerate(row):
            name = f"{COLS[c]}{r + 1}"
            if label and label == label.upper():
                value = s["values"][label]
                points = f"{value} point{'' if value == 1 else 's'}"
                assert aria(name) == f"{name}, {label}, {points}"
                tiles += 1
            elif label:
                assert aria(name) == f"{name}, blank as {label.upper()}"
    assert tiles >= 2


def test_the_live_region_says_the_computers_move_and_whose_turn_it_is(page: Any) -> None:
    start_vs_computer(page)
    before = len(state(page)["history"])
    type_play(page, hints(page)[0]["placements"])
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.tessera.state.history.length > {before + 1}")
    s = wait_my_turn(page)
    answer = s["history"][-1]
    assert answer["player"] != s["seat"]
    region = page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    name = s["names"][answer["player"]]
    if answer["kind"] == "play":
        said = f"{name} played {answer['words'][0]} at {answer['position']} for {answer['score']}."
    elif answer["kind"] == "pass":
        said = f"{name} passed."
    else:
        said = f"{name} exchanged"
    page.wait_for_function("() => document.querySelector('#announce').textContent.endsWith('.')")
    text = region.text_content() or ""
    assert said in text and text.endswith("Your turn."), text
    assert "played" not in text.split(name, 1)[0]  # my own play is not read back to me


# ---------------------------------------------------------------- every page: axe, screenshots


def mid_game(page: Any) -> None:
    """A game against the computer one move in, my turn again."""
    start_vs_computer(page)
    before = len(state(page)["history"])
    type_play(page, hints(page)[0]["placements"])
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.tessera.state.history.length > {before + 1}")
    wait_my_turn(page)


def other_device(page: Any) -> Any:
    """Another browser (its own cookies) at the page's server, closed with the page."""
    assert page.context.browser is not None
    context = page.context.browser.new_context(base_url=page.evaluate("location.origin"))
    page.on("close", lambda _: context.close())
    other = context.new_page()
    other.set_default_timeout(20_000)
    return other


def lobby_with_seeks(page: Any, profile: str) -> None:
    """The lobby of a guest who was refused a registered player's rated seek, with a guest's
    seek listed as well (the marks and the refusal)."""
    page.goto("/")
    page.wait_for_selector("#seek-rules option", state="attached")
    for who in (profile, None):
        other = other_device(page)
        if who is None:
            other.goto("/")
            other.fill("#guest-name", "Rex")
        else:
            log_in(other, who)
        other.wait_for_selector("#seek-rules option", state="attached")
        other.set_checked("#seek-rated", who is not None)
        other.click("#seek-post")
        other.wait_for_selector("#my-seeks li")
    page.locator('#seeks tr[data-user="Rex"] .guest-mark').first.wait_for()
    page.locator(f'#seeks tr[data-user="{profile}"] .accept').first.click()
    page.wait_for_selector(".seek-refusal")


def watched_online_game(page: Any) -> None:
    """A game between two guests on their own devices, from this page's seat, watched."""
    page.goto("/")
    other = other_device(page)
    other.goto("/")
    other.fill("#guest-name", "Rex")
    other.wait_for_selector("#seek-rules option", state="attached")
    other.fill("#seek-minutes", "11")
    other.click("#seek-post")
    other.wait_for_selector("#my-seeks li")
    page.locator('#seeks tr[data-user="Rex"] .accept').first.click()
    page.wait_for_url("**/g/*")
    other_device(page).goto(page.url)  # a spectator
    page.wait_for_selector("#watchers:not([hidden])")


def open_page(page: Any, name: str, profile: str) -> None:
    if name == "lobby-seeks":
        lobby_with_seeks(page, profile)
        return
    if name == "online-game":
        watched_online_game(page)
        return
    if name == "game":
        mid_game(page)
        return
    if name == "computers-game":  # a game between two computers, at its end
        computer_game(page, "casual")
        page.wait_for_selector("#summary-dialog[open]", timeout=60_000)
        return
    if name == "new-game-computers":  # the dialog, set for a game between two computers
        open_new_game_dialog(page)
        page.check('input[name="mode"][value="computers"]')
        return
    if name == "duplicate":  # a solo duplicate game, started by the start page's button
        page.goto("/")
        page.click("#quick-duplicate")
        page.wait_for_function("() => window.tessera && window.tessera.duplicate")
        page.wait_for_timeout(200)  # the last of the page's requests drawn
        return
    path = {"start": "/", "lobby": "/lobby", "study": "/study", "analysis": "/analysis",
            "review": "/review", "account": "/account", "profile": f"/u/{profile}",
            "new-game": "/"}[name]
    page.goto(path)
    page.wait_for_function("() => document.querySelector('main.page:not([hidden])') !== null")
    if name == "new-game":
        page.click("#computer-options")
        page.wait_for_selector("#new-game-dialog[open]")
    elif name == "study":
        page.wait_for_function("() => document.querySelector('#quiz-length option') !== null")
    elif name == "analysis":
        page.wait_for_function("() => document.querySelector('#an-board .sq') !== null")
        page.fill("#an-rack", "AEINRST")
        page.click("#an-analyze")
        page.wait_for_function("() => document.querySelector('#an-moves tbody tr') !== null")
    elif name == "review":  # a known game uploaded, stepped to its second turn
        page.set_input_files("#rv-file", str(REVIEWED_GCG))
        page.wait_for_selector("#rv-turns tbody tr")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#review').dataset.turn === '2'")
    elif name == "profile":
        page.wait_for_function("() => document.querySelector('#profile-name').textContent !== ''")
    page.wait_for_timeout(200)  # the last of the page's requests drawn


PAGES = (
    "start", "new-game", "lobby", "game", "study", "analysis", "review", "account", "profile",
    "duplicate", "new-game-computers", "computers-game", "lobby-seeks", "online-game",
)
REVIEWED_GCG = Path(__file__).resolve().parents[1] / "data" / "gcg" / "reference_game.gcg"


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_serious_on_the_page(
    themed: Any, axe_available: None, profile_name: str, name: str, theme: str, lang: str
) -> None:
    page = themed(theme, lang=lang)
    open_page(page, name, profile_name)
    assert page.evaluate("() => document.documentElement.dataset.theme") == theme
    assert page.evaluate("() => document.documentElement.lang") == lang
    found = axe_violations(page)
    assert not found, f"axe-core on the {name} page ({theme}, {lang}):\n" + "\n".join(found)


def test_the_axe_in_use_is_the_version_pinned(themed: Any, axe_available: None) -> None:
    page = themed("light")
    page.goto("/account")
    axe_violations(page)  # loads axe into the page
    assert page.evaluate("() => axe.version") == axe_pinned_version()
    assert axe_pinned_version() >= "4.14"  # label-content-name-mismatch on the squares


def test_the_skip_link_is_the_first_stop_and_takes_the_keyboard_to_the_board(page: Any) -> None:
    start_vs_computer(page)
    page.keyboard.press("Tab")
    link = page.locator("#skip-board")
    assert focused(page) == "skip-board" and link.is_visible()
    assert link.inner_text() == "Skip to the board"
    page.keyboard.press("Enter")
    assert focused(page) == "board"
    assert page.locator("#board .sq.at").count() == 1  # the typing cursor, ready for letters
    page.goto("/study")  # other pages: no link to a board they do not have
    page.wait_for_selector("#quiz-length option", state="attached")
    assert page.locator("#skip-board").is_hidden()


@pytest.mark.parametrize("name", PAGES)
def test_screenshots_of_the_page_light_and_dark_at_both_sizes(
    themed: Any, profile_name: str, name: str
) -> None:
    backgrounds = {}
    for theme in THEMES:
        page = themed(theme)
        open_page(page, name, profile_name)
        assert page.evaluate("() => document.documentElement.dataset.theme") == theme
        backgrounds[theme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            path = shot(page, f"page-{name}-{size_name}-{theme}", size)
            assert path.stat().st_size > 5_000
    assert backgrounds["light"] != backgrounds["dark"]


def test_the_theme_switch_overrides_the_system_and_is_remembered(themed: Any) -> None:
    page = themed("light")
    page.goto("/study")
    toggle = page.locator("#theme-btn")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    dark = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert sum(int(x) for x in re.findall(r"\d+", dark)) < 150, dark  # a dark background
